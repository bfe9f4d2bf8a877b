#pragma once
// A CVF simulation split into z-slabs over the ranks of a communicator (decomposition.hpp),
// with the interface of Simulation for Metropolis (either kernel), the eta update and the
// volume move. It gives bitwise the configurations and exactly the measurements of Simulation
// with the same parameters and seed, on any rank count the decomposition allows.
//
// Ownership and halos. Each rank updates only the cells and cubes it owns; data a neighbour
// reads goes across before it is read: after the Metropolis pass of arm 4 the top plane of arm
// 4 goes up (the -z pass above reads it), after the pass of arm 5 the bottom plane of arm 5
// goes down (the +z pass below), after the sweep the bottom planes of arms 0..3 go down in one
// exchange (the eta update of the top cube layer below reads them), and after the eta update
// the top cube layer goes up (the bottom plane's -z and in-plane edges above have their cubes
// there). Three sigma exchanges and one cube exchange per MC step.
//
// Counts. Every rank keeps device counters of its own cells' pairs and + edges, changed by
// its own moves; counts() sums them over the ranks (exact integers), so N_HB and N_sigma, the
// histogram and therefore every measurement and the volume move's acceptance (its random
// numbers depend on the step alone) are the same on every rank.
//
// Every member but the accessors is collective: all ranks call it in the same order.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/byte_exchange.hpp"
#include "portamc/cvf/detail/decomposition.hpp"
#include "portamc/cvf/detail/slab_kernels.hpp"
#include "portamc/cvf/simulation.hpp"
#include "portamc/parallel.hpp"

namespace portamc::cvf {

/// The slab of this rank on execution space `Space`: every kernel runs on the instance given to
/// the constructor, and the local arrays live in its memory space.
template <class Space>
class DistributedSimulation {
 public:
  using execution_space = Space;
  using memory_space = typename Space::memory_space;
  using Bytes = Kokkos::View<std::uint8_t*, Space>;

  /// Validates like Simulation, the decomposition and the halo transport (std::invalid_argument,
  /// the same text on every rank).
  DistributedSimulation(const Space& space, const ModelParameters& parameters,
                        const StatePoint& point, const SimulationSettings& settings,
                        const parallel::Communicator& comm,
                        parallel::HaloTransport transport = parallel::HaloTransport::automatic)
      : DistributedSimulation(space, parameters, reduce(parameters, checked(parameters, point)),
                              settings, comm, transport) {}

  DistributedSimulation(const Space& space, const ModelParameters& parameters,
                        const ReducedStatePoint& point, const SimulationSettings& settings,
                        const parallel::Communicator& comm,
                        parallel::HaloTransport transport = parallel::HaloTransport::automatic)
      : space_(space),
        parameters_(parameters),
        point_(point),
        settings_(settings),
        comm_(comm),
        decomposition_(settings.L, comm.size(), comm.rank()),
        slab_(decomposition_),
        sigma_("cvf::slab_sigma", decomposition_.local_variables()),
        cubes_("cvf::slab_cubes", decomposition_.local_cubes()),
        counters_("cvf::slab_counters"),
        deltas_("cvf::slab_count_deltas", State<Space>::delta_slots),
        halo_(comm, static_cast<std::size_t>(arms) * decomposition_.plane_cells(), transport,
              "cvf halo exchange"),
        v_iso_(settings.initial_v_iso) {
    validate(parameters_);
    validate(point_);
    validate(settings_.volume);
    validate_v_iso(settings_.initial_v_iso);
    u_lj_ = lennard_jones_energy_per_molecule(parameters_, v_iso_);
    slab::initialize(space_, slab_, sigma_, cubes_, settings_.initial == InitialState::random,
                     settings_.seed);
    exchange_all();
    recount();
    build_tables();
  }

  void set_point(const StatePoint& point) {
    validate(point);
    point_ = reduce(parameters_, point);
    build_tables();
  }

  /// Step 1: the volume move, decided identically on every rank.
  void volume_move() {
    if (!settings_.volume.enabled) return;
    const auto outcome =
        cvf::volume_move(parameters_, point_, molecules(), v_iso_, u_lj_, settings_.volume.delta,
                         settings_.seed, step_, [this] { return counts().hb; });
    ++volume_attempts_;
    if (outcome.accepted) {
      ++volume_acceptances_;
      validate_v_iso(outcome.v_iso);
      v_iso_ = outcome.v_iso;
      u_lj_ = outcome.u;
    }
  }

  /// Step 2: the cube update, then the top cube layer to the rank above.
  void eta_update() {
    constexpr int slot = arms;
    slab::eta_update(space_, slab_, sigma_, cubes_, settings_.seed, step_,
                     tables_.eta[bonds_allowed()], delta_slot(slot));
    fold_deltas(slot, slot + 1);
    const std::int64_t layer = decomposition_.layer_cubes();
    const int T = decomposition_.thickness();
    exchange({transfer_cubes(layer * (T / 2), 0, layer)});
  }

  /// Step 3: six arm passes in the order of arm_order(), each followed by its halo plane.
  void metropolis_sweep() {
    const SigmaAcceptance& table = tables_.sigma[bonds_allowed()];
    const std::array<int, arms> order = arm_order(settings_.seed, step_);
    for (int k = 0; k < arms; ++k) {
      const int arm = order[k];
      const std::uint64_t draw_step = arms * step_ + k;
      if (settings_.metropolis_kernel == MetropolisKernel::packed)
        slab::metropolis_pass_packed(space_, slab_, sigma_, cubes_, arm, settings_.seed, draw_step,
                                     table, delta_slot(k));
      else
        slab::metropolis_pass(space_, slab_, sigma_, cubes_, arm, settings_.seed, draw_step, table,
                              delta_slot(k));
      // Within the sweep only the z passes read a neighbour's plane (the -z pass arm 4 of the
      // plane below, the +z pass arm 5 of the plane above): those go across at once; the
      // in-plane arms, read above only by the next eta update, travel together at the end.
      if (arm == 4) exchange({plane_up(4)});
      if (arm == 5) exchange({plane_down(5)});
    }
    exchange({plane_down(0), plane_down(1), plane_down(2), plane_down(3)});
    fold_deltas(0, arms);
  }

  void end_step() { set_step(step_ + 1); }
  void step() {
    volume_move();
    eta_update();
    metropolis_sweep();
    end_step();
  }

  /// {N_HB raw, N_sigma} of the whole lattice (summed over the ranks).
  BondCounts counts() const {
    BondCounts local;
    Kokkos::deep_copy(local, counters_);
    std::int64_t values[2] = {local.hb, local.sigma};
    comm_.sum(values, 2);
    return BondCounts(values[0], values[1]);
  }
  /// A full recount of the whole lattice, leaving the counters alone.
  BondCounts recount_exact() const {
    const BondCounts local = slab::count_bonds(space_, slab_, sigma_, cubes_);
    std::int64_t values[2] = {local.hb, local.sigma};
    comm_.sum(values, 2);
    return BondCounts(values[0], values[1]);
  }

  /// The measurement of Simulation::measure(), the same on every rank.
  Measurement measure() const {
    std::array<std::int64_t, arms> histogram = slab::sigma_histogram(space_, slab_, sigma_);
    comm_.sum(histogram.data(), histogram.size());
    Measurement m =
        make_measurement(parameters_, point_, molecules(), v_iso_, u_lj_, counts(), histogram);
    m.step = step_;
    return m;
  }

  /// The canonical (one-rank layout) sigma and cube states on rank 0; empty elsewhere.
  std::vector<std::uint8_t> gather_sigma() const {
    const SlabDecomposition& d = decomposition_;
    const std::size_t owned = static_cast<std::size_t>(d.owned_cells());
    std::vector<std::uint8_t> local(arms * owned);
    for (int a = 0; a < arms; ++a)
      copy_to_host(a * d.local_cells() + d.owned_cell_begin(), owned, local.data() + a * owned);
    const std::vector<std::uint8_t> all = comm_.gather(local);
    if (!comm_.is_root()) return {};
    const std::size_t N = static_cast<std::size_t>(d.geometry().cells());
    std::vector<std::uint8_t> canonical(arms * N);
    for (int r = 0; r < d.ranks(); ++r)
      for (int a = 0; a < arms; ++a)
        std::copy_n(all.begin() + (static_cast<std::size_t>(r) * arms + a) * owned, owned,
                    canonical.begin() + a * N + r * owned);
    return canonical;
  }
  std::vector<std::uint8_t> gather_cube_state() const {
    const SlabDecomposition& d = decomposition_;
    std::vector<std::uint8_t> local(static_cast<std::size_t>(d.owned_cubes()));
    Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
        local.data(), local.size());
    Kokkos::deep_copy(
        host, Kokkos::subview(cubes_, std::make_pair(d.owned_cube_begin(), d.owned_cube_end())));
    return comm_.gather(local);
  }

  /// A canonical checkpoint: configuration on rank 0 (empty vectors elsewhere), v_iso and
  /// step everywhere. It restores into Simulation or into a DistributedSimulation on any
  /// rank count the lattice allows.
  Checkpoint checkpoint() const { return {gather_sigma(), gather_cube_state(), v_iso_, step_}; }

  /// Restores a canonical checkpoint that every rank holds in full (broadcast it first).
  void restore(const Checkpoint& c) {
    const SlabDecomposition& d = decomposition_;
    const Geometry& g = d.geometry();
    check_values(c.sigma, static_cast<std::size_t>(g.variables()), arms, "sigma");
    check_values(c.cube_state, static_cast<std::size_t>(g.cubes()), cube_states, "cube_state");
    validate_v_iso(c.v_iso);
    const std::size_t owned = static_cast<std::size_t>(d.owned_cells());
    const std::size_t first = static_cast<std::size_t>(d.plane_cells()) * d.first_plane();
    for (int a = 0; a < arms; ++a)
      copy_to_device(c.sigma.data() + a * g.cells() + first, owned, sigma_,
                     a * d.local_cells() + d.owned_cell_begin());
    const std::size_t first_cube =
        static_cast<std::size_t>(d.layer_cubes()) * (d.first_plane() / 2);
    copy_to_device(c.cube_state.data() + first_cube, static_cast<std::size_t>(d.owned_cubes()),
                   cubes_, d.owned_cube_begin());
    exchange_all();
    v_iso_ = c.v_iso;
    u_lj_ = lennard_jones_energy_per_molecule(parameters_, v_iso_);
    set_step(c.step);
    recount();
  }

  /// The execution space instance every kernel of this slab runs on.
  const Space& space() const { return space_; }
  std::uint64_t step_counter() const { return step_; }
  void set_step(std::uint64_t s) {
    if (s > rng::max_step / 8)
      throw std::invalid_argument("CVF step counter beyond the RNG counter range");
    step_ = s;
  }
  double v_iso() const { return v_iso_; }
  std::int64_t molecules() const { return decomposition_.geometry().cells(); }
  const SlabDecomposition& decomposition() const { return decomposition_; }
  const ModelParameters& parameters() const { return parameters_; }
  const ReducedStatePoint& point() const { return point_; }
  const SimulationSettings& settings() const { return settings_; }
  bool bonds_allowed() const { return hydrogen_bonds_allowed(parameters_, v_iso_); }
  double bond_coupling() const {
    return bonds_allowed() ? effective_coupling(parameters_, point_) : 0.0;
  }
  std::int64_t volume_attempts() const { return volume_attempts_; }
  std::int64_t volume_acceptances() const { return volume_acceptances_; }
  /// The counters of a checkpointed chain (they are not part of the configuration).
  void set_volume_counters(std::int64_t attempts, std::int64_t acceptances) {
    volume_attempts_ = attempts;
    volume_acceptances_ = acceptances;
  }
  /// Adds delta slots first..last-1 to the counters on the device.
  void fold_deltas(int first, int last) const {
    Kokkos::parallel_for("cvf::slab_fold_counts", Kokkos::RangePolicy<Space>(space_, 0, 1),
                         detail::FoldCountDeltas<decltype(counters_), decltype(deltas_)>{
                             counters_, deltas_, first, last});
  }
  /// How the halos travel (byte_exchange.hpp) and the wall time spent in exchanges.
  std::string halo_transport() const { return halo_.transport(); }
  double halo_seconds() const { return halo_seconds_; }
  /// The local arrays (with halos), for tests.
  const Bytes& local_sigma() const { return sigma_; }
  const Bytes& local_cubes() const { return cubes_; }

 private:
  static const StatePoint& checked(const ModelParameters& parameters, const StatePoint& point) {
    validate(parameters);
    validate(point);
    return point;
  }

  void build_tables() { tables_ = point_tables(parameters_, point_); }

  Kokkos::View<BondCounts, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> delta_slot(
      int k) const {
    return Kokkos::View<BondCounts, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        deltas_.data() + k);
  }
  void recount() { Kokkos::deep_copy(counters_, slab::count_bonds(space_, slab_, sigma_, cubes_)); }

  // Messages. Tags: 10 + arm downwards, 20 + arm upwards, 30 cubes upwards.
  parallel::ByteMessage plane_down(int arm) {
    const SlabDecomposition& d = decomposition_;
    const std::int64_t base = arm * d.local_cells();
    return {sigma_.data() + base + d.plane_cells(),
            sigma_.data() + base + d.plane_cells() * (d.thickness() + 1),
            static_cast<std::size_t>(d.plane_cells()),
            d.lower_rank(),
            d.upper_rank(),
            10 + arm};
  }
  parallel::ByteMessage plane_up(int arm) {
    const SlabDecomposition& d = decomposition_;
    const std::int64_t base = arm * d.local_cells();
    return {sigma_.data() + base + d.plane_cells() * d.thickness(),
            sigma_.data() + base,
            static_cast<std::size_t>(d.plane_cells()),
            d.upper_rank(),
            d.lower_rank(),
            20 + arm};
  }
  parallel::ByteMessage transfer_cubes(std::int64_t from, std::int64_t to, std::int64_t count) {
    const SlabDecomposition& d = decomposition_;
    return {cubes_.data() + from, cubes_.data() + to, static_cast<std::size_t>(count),
            d.upper_rank(),       d.lower_rank(),     30};
  }
  void exchange(const std::vector<parallel::ByteMessage>& transfers) {
    const auto start = std::chrono::steady_clock::now();
    halo_.run(transfers);
    halo_seconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  /// Every halo (after initialisation and restore): all arms both ways, and the cubes.
  void exchange_all() {
    for (int a = 0; a < arms; ++a) exchange({plane_down(a), plane_up(a)});
    const std::int64_t layer = decomposition_.layer_cubes();
    exchange({transfer_cubes(layer * (decomposition_.thickness() / 2), 0, layer)});
  }

  void copy_to_host(std::int64_t begin, std::size_t count, std::uint8_t* out) const {
    Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
        out, count);
    Kokkos::deep_copy(
        host,
        Kokkos::subview(sigma_, std::make_pair(begin, begin + static_cast<std::int64_t>(count))));
  }
  static void copy_to_device(const std::uint8_t* in, std::size_t count, const Bytes& view,
                             std::int64_t begin) {
    Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        host(in, count);
    Kokkos::deep_copy(
        Kokkos::subview(view, std::make_pair(begin, begin + static_cast<std::int64_t>(count))),
        host);
  }
  static void check_values(const std::vector<std::uint8_t>& in, std::size_t expected, int states,
                           const char* name) {
    if (in.size() != expected)
      throw std::invalid_argument(std::string("CVF ") + name + " has " + std::to_string(in.size()) +
                                  " entries, expected " + std::to_string(expected));
    for (std::uint8_t value : in)
      if (value >= states)
        throw std::invalid_argument(std::string("CVF ") + name + " value " +
                                    std::to_string(int(value)) + " out of range 0.." +
                                    std::to_string(states - 1));
  }

  Space space_;
  ModelParameters parameters_;
  ReducedStatePoint point_;
  SimulationSettings settings_;
  parallel::Communicator comm_;
  SlabDecomposition decomposition_;
  Slab slab_;
  Bytes sigma_;
  Bytes cubes_;
  Kokkos::View<BondCounts, Space> counters_;
  Kokkos::View<BondCounts*, Space> deltas_;
  parallel::ByteExchange<memory_space> halo_;
  double v_iso_;
  double u_lj_ = 0;
  std::uint64_t step_ = 0;
  PointTables tables_;
  std::int64_t volume_attempts_ = 0;
  std::int64_t volume_acceptances_ = 0;
  double halo_seconds_ = 0;
};

}  // namespace portamc::cvf

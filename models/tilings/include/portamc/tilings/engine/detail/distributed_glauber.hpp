#pragma once
// The forward Glauber chain of GlauberSampler (glauber_sampler.hpp) over the ranks of a
// Communicator: the state's rows are split into slabs with one halo row on each side
// (slab_decomposition.hpp), each rank runs the chosen colour class on its slab
// (slab_glauber_kernels.hpp) and the boundary rows are exchanged after every pass
// (halo_rows.hpp). The class of step t and the random word of a vertex are keyed by (seed, t)
// and (seed, global vertex, t), as on one rank, so after every step the slabs put together
// are bitwise the one-rank state, whatever the number of ranks.
//
// Dominoes and lozenges, one launch per step (tiled domino steps have their own slab chain:
// distributed_tiled_domino.hpp), forward chains only (coupling from the past spreads whole samples
// over the ranks instead: run_tilings.cpp). Memory: every rank builds the start tiling of the whole
// domain on the host (Thurston), and gathering a tiling puts the whole state on rank 0; the device
// holds the slab, its counts and the class runs of the slab only.
#include <Kokkos_Core.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/engine/detail/glauber_sampler.hpp"
#include "portamc/tilings/engine/detail/halo_rows.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/engine/detail/slab_glauber_kernels.hpp"
#include "portamc/tilings/engine/detail/slab_type_counts.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"

namespace portamc::tilings {

/// How a model's state is laid out in rows, and its slab kernel.
template <class Model>
struct SlabLayout;
template <>
struct SlabLayout<DominoModel> {
  static int rows(const SquareDomain& d) { return d.rows(); }
  static int row_length(const SquareDomain& d) { return d.cols(); }
  template <class Space>
  using Kernel = DominoSlabStep<Space>;
};
template <>
struct SlabLayout<LozengeModel> {
  static int rows(const TriangularDomain& d) { return d.height(); }
  static int row_length(const TriangularDomain& d) { return d.width(); }
  template <class Space>
  using Kernel = LozengeSlabStep<Space>;
};

/// The slab of this rank for a model's domain (throws std::invalid_argument naming the sizes
/// when the ranks cannot split it).
template <class Model>
RowSlab model_slab(const typename Model::Domain& domain, int rank, int ranks) {
  return row_slab(SlabLayout<Model>::rows(domain), SlabLayout<Model>::row_length(domain), rank,
                  ranks, Model::name);
}

template <class Model, class Space>
class DistributedGlauber {
 public:
  using Domain = typename Model::Domain;
  using Tiling = typename Model::Tiling;
  using Weights = typename Model::Weights;
  using State = Kokkos::View<std::uint8_t*, Space>;
  static constexpr int classes = Model::classes;
  static constexpr int tile_types = Model::tile_types;

  /// Collective. Starts from the maximal or minimal tiling (throws std::invalid_argument for
  /// an untileable domain or a decomposition the ranks cannot make, on every rank alike).
  /// All kernels run on `space`.
  DistributedGlauber(const Space& space, const Domain& domain, const Weights& weights,
                     std::uint64_t seed, const parallel::Communicator& comm,
                     Start start = Start::maximal, UpdateRule rule = UpdateRule::heat_bath)
      : DistributedGlauber(space, domain, weights, seed, comm, rule, nullptr) {
    set_tiling(start == Start::maximal ? Model::maximal(domain_) : Model::minimal(domain_));
  }
  /// Collective. Starts from a valid tiling of the whole domain (the same on every rank).
  DistributedGlauber(const Space& space, const Domain& domain, const Weights& weights,
                     std::uint64_t seed, const parallel::Communicator& comm, const Tiling& initial,
                     UpdateRule rule = UpdateRule::heat_bath)
      : DistributedGlauber(space, domain, weights, seed, comm, rule, nullptr) {
    set_tiling(initial);
  }

  const Space& space() const { return space_; }
  const RowSlab& slab() const { return slab_; }
  const Domain& domain() const { return domain_; }
  std::uint64_t steps_done() const { return steps_done_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_steps_done(std::uint64_t steps) { steps_done_ = steps; }
  /// "one rank", "nccl", "mpi_direct" or "mpi_staged".
  std::string transport() const { return halo_.transport(); }
  /// Collective: halos travel as `transport` says from now on (parallel.halo_transport).
  void set_halo_transport(parallel::HaloTransport transport) {
    halo_ = RowHaloExchange<typename Space::memory_space>(comm_, slab_, transport);
  }
  /// Wall time spent in halo exchanges so far (this rank; 0 on one rank).
  double halo_seconds() const { return halo_seconds_; }
  /// Order of the classes over the steps (class_order.hpp), as GlauberSampler's.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  /// The slab's local rows (owned rows and halos).
  const State& local_state() const { return state_; }

  /// Replaces the state by the slab of a valid tiling of the whole domain.
  void set_tiling(const Tiling& tiling) {
    Model::validate(domain_, tiling);
    const std::vector<std::uint8_t>& bytes = Model::bytes(tiling);
    const std::size_t first =
        static_cast<std::size_t>(slab_.local_begin) * static_cast<std::size_t>(slab_.row_length);
    Kokkos::deep_copy(state_, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                                           Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                  bytes.data() + first, state_.extent(0)));
  }

  /// Runs steps steps_done()+1 .. steps_done()+n (collective); returns the flip attempts of
  /// the whole domain (the one-rank count).
  std::uint64_t run_steps(std::uint64_t n) {
    using Kernel = typename SlabLayout<Model>::template Kernel<Space>;
    std::uint64_t attempts = 0;
    for (std::uint64_t s = 0; s < n; ++s) {
      const std::uint64_t t = ++steps_done_;
      const int colour = GlauberSampler<Model, Space>::class_of_step(seed_, t, class_order_);
      const VertexRuns<Space>& runs = runs_[static_cast<std::size_t>(colour)];
      if (runs.vertices > 0) {
        Kokkos::parallel_for(
            "portamc::tilings::slab_glauber_step",
            Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space_, 0, runs.vertices),
            Kernel{state_, runs, thresholds_, geometry_, seed_, t, slab_.local_begin});
      }
      // Every rank knows the global class size: an empty class wrote nothing anywhere, any
      // other one is exchanged even where this slab had nothing to do.
      const std::int64_t size = class_sizes_[static_cast<std::size_t>(colour)];
      if (size > 0 && comm_.size() > 1) {
        // The exchange waits for the kernel anyway; fencing first times the exchange alone.
        Kokkos::fence();
        const auto start = std::chrono::steady_clock::now();
        halo_.run(state_);
        halo_seconds_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      attempts += static_cast<std::uint64_t>(size);
    }
    return attempts;
  }
  std::uint64_t run_sweeps(std::uint64_t sweeps) { return run_steps(sweeps * classes); }

  /// Collective: the whole state on rank 0 (rows in order), empty on the other ranks.
  std::vector<std::uint8_t> bytes_on_root() const {
    return gather_owned_bytes(comm_, state_, static_cast<std::size_t>(own_offset()),
                              static_cast<std::size_t>(slab_.own_cells()));
  }
  /// Collective: the whole tiling on every rank (gathered, then broadcast).
  Tiling tiling() const {
    std::vector<std::uint8_t> bytes = bytes_on_root();
    comm_.broadcast(bytes);
    return Model::from_bytes(domain_, std::move(bytes));
  }

  /// Adds the owned cells of the current state to the per-cell tile-type counts.
  void accumulate_densities() {
    counts_.accumulate(state_, own_offset(), slab_, tile_types, std::string(Model::name));
  }
  /// Collective: the densities of the whole domain on rank 0 (SlabTypeCounts::on_root).
  TypeDensities densities_on_root() const { return counts_.on_root(slab_, tile_types, comm_); }

 private:
  DistributedGlauber(const Space& space, const Domain& domain, const Weights& weights,
                     std::uint64_t seed, const parallel::Communicator& comm, UpdateRule rule,
                     std::nullptr_t)
      : space_(space),
        domain_(domain),
        seed_(seed),
        comm_(comm),
        geometry_(Model::geometry(domain, weights)),
        slab_(model_slab<Model>(domain, comm.rank(), comm.size())),
        counts_(space) {
    if (slab_.local_cells() > std::numeric_limits<std::int32_t>::max()) {
      throw std::invalid_argument(std::string(Model::name) + ": a slab of " +
                                  std::to_string(slab_.local_cells()) +
                                  " cells exceeds the 2^31 - 1 of the kernels' 32-bit indices");
    }
    const std::vector<std::uint64_t> thresholds = Model::thresholds(weights, rule);
    // The whole domain's runs (host; their 32-bit offsets bound a class to 2^31 - 1 vertices
    // as on one rank), restricted to the slab below.
    const auto host_runs = Model::vertex_runs(domain_);
    require_memory<Space>(static_cast<std::size_t>(slab_.local_cells()),
                          std::string(Model::name) + " slab of the distributed chain");
    state_ = State("portamc::tilings::slab_state", static_cast<std::size_t>(slab_.local_cells()));
    for (int c = 0; c < classes; ++c) {
      const VertexRunsHost& all = host_runs[static_cast<std::size_t>(c)];
      class_sizes_[static_cast<std::size_t>(c)] = all.vertex_count();
      runs_[static_cast<std::size_t>(c)] =
          to_device<Space>(restrict_runs(all, slab_.vertex_begin, slab_.vertex_end), classes);
    }
    Kokkos::View<std::uint64_t*, Space> t("portamc::tilings::thresholds", thresholds.size());
    Kokkos::deep_copy(t, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace,
                                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(thresholds.data(),
                                                                               thresholds.size()));
    thresholds_ = t;
    halo_ = RowHaloExchange<typename Space::memory_space>(comm_, slab_);
  }

  std::int64_t own_offset() const { return slab_.local_offset(slab_.own_begin); }

  Space space_;
  Domain domain_;
  std::uint64_t seed_;
  ClassOrder class_order_ = ClassOrder::random;
  parallel::Communicator comm_;
  typename Model::Geometry geometry_;
  RowSlab slab_;
  std::array<VertexRuns<Space>, classes> runs_;
  std::array<std::int64_t, classes> class_sizes_{};
  Kokkos::View<const std::uint64_t*, Space> thresholds_;
  State state_;
  SlabTypeCounts<Space> counts_;
  RowHaloExchange<typename Space::memory_space> halo_;
  std::uint64_t steps_done_ = 0;
  double halo_seconds_ = 0;
};

}  // namespace portamc::tilings

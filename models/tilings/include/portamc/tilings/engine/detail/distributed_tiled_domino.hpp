#pragma once
// The tiled domino Glauber chain (domino_tiled_kernel.hpp: one launch runs K sub-steps inside
// tiles of tile_rows x tile_cols faces) over the ranks of a Communicator, bitwise the
// one-rank chain of GlauberSampler::set_schedule whatever the number of ranks.
//
// Decomposition. Rank p owns the face rows [b_p, e_p) (parallel::share_of, as
// slab_decomposition.hpp). Launch l draws its shift s and class bits from
// rng::draw(seed, purpose_tiling_class, 1, first step) on every rank alike; its tiles form
// row bands [k R - s, (k + 1) R - s) (R = tile_rows). Band k belongs to the rank that owns its
// first in-box row max(0, k R - s), so every tile, and hence every face, is updated by exactly
// one rank, with the random words of the global vertices and steps: the one-rank result.
// Rank p's bands start in [b_p, e_p) and end before e_p + R - 1, so its local rows are
// [b_p, min(rows, e_p + R - 1)): R - 1 halo rows below, none above. Every rank must own at
// least R rows, so that a band crosses one slab boundary at most and the halo rows of p are
// owned by p + 1.
//
// Exchange (one per launch, amortised over K sub-steps). Let d_p = (first band of p + 1) R -
// s - e_p in [0, R - 1]: the rows [e_p, e_p + d_p) of p + 1 that p's last band wrote. After
// the launch p sends them down (p + 1 copies them into its first owned rows), and p + 1 sends
// up its rows [e_p + d_p, e_p + R - 1), which it may have written, into p's halo. Together
// p's halo and p + 1's rows are then the one-rank rows; both sides compute d_p from the shift.
// Transport: core's ByteExchange over parallel.halo_transport (nccl, mpi_direct, mpi_staged).
//
// Forward chains only: coupling from the past stays on one rank (samples spread whole,
// run_tilings.cpp). Memory: as DistributedGlauber (the start tiling of the whole domain on
// the host of every rank; gathering puts the whole state on rank 0).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/byte_exchange.hpp"
#include "portamc/device_info.hpp"
#include "portamc/parallel.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/detail/domino_tiled_kernel.hpp"
#include "portamc/tilings/engine/detail/halo_rows.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/engine/detail/slab_glauber_kernels.hpp"
#include "portamc/tilings/engine/detail/slab_type_counts.hpp"
#include "portamc/tilings/engine/detail/tile_attempts.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber_kernel.hpp"

namespace portamc::tilings {

/// The slab of `rank` for tiles of `tile_rows` rows: own rows as row_slab, local rows
/// [own_begin, min(rows, own_end + tile_rows - 1)), halo = tile_rows - 1 (below only).
/// Throws std::invalid_argument naming the sizes when a rank would own fewer than tile_rows
/// rows (on more than one rank). `what` names the domain in the message.
inline RowSlab tiled_domino_slab(int rows, int cols, int tile_rows, int rank, int ranks,
                                 const std::string& what) {
  if (ranks > 1 && rows / ranks < tile_rows) {
    throw std::invalid_argument(
        what + ": its " + std::to_string(rows) + " rows of faces split over " +
        std::to_string(ranks) + " MPI ranks give slabs of " + std::to_string(rows / ranks) +
        " rows, thinner than the tiles' dynamics.tile_rows = " + std::to_string(tile_rows) +
        " (tiled steps need at least tile_rows rows per rank: at most " +
        std::to_string(rows / tile_rows) + " ranks, or smaller tiles)");
  }
  RowSlab s = row_slab(rows, cols, rank, ranks, what);
  s.halo = tile_rows - 1;
  s.local_begin = s.own_begin;
  s.local_end = std::min(rows, s.own_end + tile_rows - 1);
  return s;
}

template <class Space>
class DistributedTiledDomino {
 public:
  using Model = DominoModel;
  using State = Kokkos::View<std::uint8_t*, Space>;
  static constexpr int classes = Model::classes;
  static constexpr int tile_types = Model::tile_types;

  /// Collective. Starts from the maximal or minimal tiling. Throws std::invalid_argument (on
  /// every rank alike) for an untileable domain, a bad schedule (as
  /// GlauberSampler::set_schedule) or slabs thinner than schedule.tile_rows.
  /// All kernels run on `space`.
  DistributedTiledDomino(const Space& space, const SquareDomain& domain,
                         const DominoWeights& weights, std::uint64_t seed,
                         const TileSchedule& schedule, const parallel::Communicator& comm,
                         Start start = Start::maximal, UpdateRule rule = UpdateRule::heat_bath)
      : DistributedTiledDomino(space, domain, weights, seed, schedule, comm, rule, nullptr) {
    set_tiling(start == Start::maximal ? Model::maximal(domain_) : Model::minimal(domain_));
  }
  /// Collective. Starts from a valid tiling of the whole domain (the same on every rank).
  DistributedTiledDomino(const Space& space, const SquareDomain& domain,
                         const DominoWeights& weights, std::uint64_t seed,
                         const TileSchedule& schedule, const parallel::Communicator& comm,
                         const DominoTiling& initial, UpdateRule rule = UpdateRule::heat_bath)
      : DistributedTiledDomino(space, domain, weights, seed, schedule, comm, rule, nullptr) {
    set_tiling(initial);
  }

  const Space& space() const { return space_; }
  const RowSlab& slab() const { return slab_; }
  const SquareDomain& domain() const { return domain_; }
  const TileSchedule& schedule() const { return schedule_; }
  std::uint64_t steps_done() const { return steps_done_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_steps_done(std::uint64_t steps) { steps_done_ = steps; }
  /// "one rank", "nccl", "mpi_direct" or "mpi_staged".
  std::string transport() const { return exchange_.transport(); }
  /// Collective: halos travel as `transport` says from now on (parallel.halo_transport).
  void set_halo_transport(parallel::HaloTransport transport) {
    exchange_ = make_exchange(transport);
  }
  /// Wall time spent in halo exchanges so far (this rank; 0 on one rank).
  double halo_seconds() const { return halo_seconds_; }
  /// Order of the classes over the steps (class_order.hpp), as GlauberSampler's.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  /// The slab's local rows (owned rows, then the halo rows below).
  const State& local_state() const { return state_; }

  /// Replaces the state by the slab of a valid tiling of the whole domain.
  void set_tiling(const DominoTiling& tiling) {
    Model::validate(domain_, tiling);
    const std::size_t first =
        static_cast<std::size_t>(slab_.local_begin) * static_cast<std::size_t>(slab_.row_length);
    Kokkos::deep_copy(state_, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                                           Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                  tiling.partner.data() + first, state_.extent(0)));
  }

  /// Runs steps steps_done()+1 .. steps_done()+n in whole launches (n rounded up to a multiple
  /// of substeps, as on one rank; collective); returns the flip attempts of the whole domain.
  std::uint64_t run_steps(std::uint64_t n) {
    const auto k = static_cast<std::uint64_t>(schedule_.substeps);
    std::uint64_t attempts = 0;
    for (std::uint64_t s = 0; s < n; s += k) {
      attempts += launch(steps_done_ + 1);
      steps_done_ += k;
    }
    return attempts;
  }
  std::uint64_t run_sweeps(std::uint64_t sweeps) { return run_steps(sweeps * classes); }

  /// One launch from global step `first` and its exchange (public for Kokkos lambdas' sake;
  /// use run_steps). Returns the attempts of the whole domain.
  std::uint64_t launch(std::uint64_t first) {
    std::int64_t tiles_down = 0;
    DominoTileLaunch l = domino_tile_launch(seed_, first, schedule_, slab_.rows, slab_.row_length,
                                            tiles_down, class_order_);
    const std::int32_t band_begin = first_band(slab_.own_begin, l.row_shift);
    const std::int32_t band_end = slab_.has_lower_neighbour()
                                      ? first_band(slab_.own_end, l.row_shift)
                                      : static_cast<std::int32_t>(tiles_down);
    l.first_band = band_begin;
    l.row_origin = slab_.local_begin;
    using Kernel = DominoTiledSteps<Space, false>;
    const int team = Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible ? 1 : 256;
    const int league = (band_end - band_begin) * l.tiles_across;
    if (league > 0) {
      Kokkos::TeamPolicy<Space> policy(space_, league, team);
      Kokkos::parallel_for("portamc::tilings::slab_tiled_glauber_steps",
                           policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(l))),
                           Kernel{state_, state_, thresholds_, geometry_, l, seed_});
    }
    if (comm_.size() > 1) exchange(l.row_shift);
    std::uint64_t attempts = 0;
    for (int s = 0; s < l.substeps; ++s) {
      attempts += static_cast<std::uint64_t>(tile_attempts_.attempts(
          static_cast<int>((l.class_bits >> s) & 1u), l.row_shift, l.col_shift));
    }
    return attempts;
  }

  /// Collective: the whole state on rank 0 (rows in order), empty on the other ranks.
  std::vector<std::uint8_t> bytes_on_root() const {
    return gather_owned_bytes(comm_, state_, 0, static_cast<std::size_t>(slab_.own_cells()));
  }
  /// Collective: the whole tiling on every rank (gathered, then broadcast).
  DominoTiling tiling() const {
    std::vector<std::uint8_t> bytes = bytes_on_root();
    comm_.broadcast(bytes);
    return Model::from_bytes(domain_, std::move(bytes));
  }

  /// Adds the owned cells of the current state to the per-cell tile-type counts.
  void accumulate_densities() {
    counts_.accumulate(state_, 0, slab_, tile_types, std::string("domino"));
  }
  /// Collective: the densities of the whole domain on rank 0 (SlabTypeCounts::on_root).
  TypeDensities densities_on_root() const { return counts_.on_root(slab_, tile_types, comm_); }

 private:
  DistributedTiledDomino(const Space& space, const SquareDomain& domain,
                         const DominoWeights& weights, std::uint64_t seed,
                         const TileSchedule& schedule, const parallel::Communicator& comm,
                         UpdateRule rule, std::nullptr_t)
      : space_(space),
        domain_(domain),
        seed_(seed),
        schedule_(checked(schedule)),
        comm_(comm),
        geometry_(Model::geometry(domain, weights)),
        slab_(tiled_domino_slab(domain.rows(), domain.cols(), schedule.tile_rows, comm.rank(),
                                comm.size(), Model::name)),
        counts_(space) {
    if (slab_.local_cells() > std::numeric_limits<std::int32_t>::max()) {
      throw std::invalid_argument("domino tiling: a slab of " +
                                  std::to_string(slab_.local_cells()) +
                                  " cells exceeds the 2^31 - 1 of the kernels' 32-bit indices");
    }
    // Attempts are counted over the whole domain (every rank alike, the one-rank count).
    tile_attempts_ = TileAttemptCounter(Model::vertex_runs(domain_), classes, schedule_.tile_rows,
                                        schedule_.tile_cols);
    const std::vector<std::uint64_t> thresholds = Model::thresholds(weights, rule);
    require_memory<Space>(static_cast<std::size_t>(slab_.local_cells()),
                          "domino slab of the distributed tiled chain");
    state_ =
        State("portamc::tilings::tiled_slab_state", static_cast<std::size_t>(slab_.local_cells()));
    Kokkos::View<std::uint64_t*, Space> t("portamc::tilings::thresholds", thresholds.size());
    Kokkos::deep_copy(t, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace,
                                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(thresholds.data(),
                                                                               thresholds.size()));
    thresholds_ = t;
    exchange_ = make_exchange(parallel::HaloTransport::automatic);
  }

  /// GlauberSampler::set_schedule's checks (tiled schedules only).
  static const TileSchedule& checked(const TileSchedule& schedule) {
    const auto pow2 = [](int v) { return v >= 4 && v <= 1024 && (v & (v - 1)) == 0; };
    if (!pow2(schedule.tile_rows) || !pow2(schedule.tile_cols))
      throw std::invalid_argument("tiled steps: tile_rows (" + std::to_string(schedule.tile_rows) +
                                  ") and tile_cols (" + std::to_string(schedule.tile_cols) +
                                  ") must be powers of two from 4 to 1024");
    if (schedule.substeps < 1 || schedule.substeps > 64)
      throw std::invalid_argument("tiled steps: substeps (" + std::to_string(schedule.substeps) +
                                  ") must be 1 .. 64");
    if (schedule.bit_sliced)
      throw std::invalid_argument(
          "tiled steps over MPI slabs: the bit-sliced kernel runs on one rank only (bit_sliced "
          "off over MPI)");
    return schedule;
  }

  /// The first band whose first in-box row is >= row (row > 0: bands start at k R - shift;
  /// row 0: band 0, which may start above the box).
  std::int32_t first_band(int row, std::int32_t shift) const {
    if (row == 0) return 0;
    return (row + shift + schedule_.tile_rows - 1) / schedule_.tile_rows;
  }

  parallel::ByteExchange<typename Space::memory_space> make_exchange(
      parallel::HaloTransport transport) const {
    // At most R - 1 rows each way per neighbour pair, sent and received: 2 (R - 1) rows.
    const std::size_t bytes = 2 * static_cast<std::size_t>(schedule_.tile_rows - 1) *
                              static_cast<std::size_t>(slab_.row_length);
    return parallel::ByteExchange<typename Space::memory_space>(comm_, bytes, transport,
                                                                "tiled domino halo exchange");
  }

  /// Rows of the slab boundary below `upper_end` (the own_end of the upper rank) written by
  /// the upper rank's last band: d in [0, R - 1].
  std::int32_t rows_written_below(int upper_end, std::int32_t shift) const {
    return first_band(upper_end, shift) * schedule_.tile_rows - shift - upper_end;
  }

  void exchange(std::int32_t shift) {
    Kokkos::fence();  // times the exchange alone (it waits for the kernel anyway)
    const auto start = std::chrono::steady_clock::now();
    const int h = schedule_.tile_rows - 1;
    std::uint8_t* base = state_.data();
    const auto at = [&](int row) { return base + slab_.local_offset(row); };
    const auto bytes = [&](int rows) {
      return static_cast<std::size_t>(rows) * static_cast<std::size_t>(slab_.row_length);
    };
    const int rank = comm_.rank();
    std::vector<parallel::ByteMessage> messages;
    if (slab_.has_lower_neighbour()) {
      const int d = rows_written_below(slab_.own_end, shift);
      // Tag 0 down: my last band's rows below own_end; tag 1 up: the rest of my halo.
      if (d > 0) messages.push_back({at(slab_.own_end), nullptr, bytes(d), rank + 1, -1, 0});
      if (d < h)
        messages.push_back({nullptr, at(slab_.own_end + d), bytes(h - d), -1, rank + 1, 1});
    }
    if (slab_.has_upper_neighbour()) {
      const int d = rows_written_below(slab_.own_begin, shift);
      if (d > 0) messages.push_back({nullptr, at(slab_.own_begin), bytes(d), -1, rank - 1, 0});
      if (d < h)
        messages.push_back({at(slab_.own_begin + d), nullptr, bytes(h - d), rank - 1, -1, 1});
    }
    exchange_.run(messages);
    halo_seconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  Space space_;
  SquareDomain domain_;
  std::uint64_t seed_;
  TileSchedule schedule_;
  ClassOrder class_order_ = ClassOrder::random;
  parallel::Communicator comm_;
  DominoGeometry geometry_;
  RowSlab slab_;
  TileAttemptCounter tile_attempts_;
  Kokkos::View<const std::uint64_t*, Space> thresholds_;
  State state_;
  SlabTypeCounts<Space> counts_;
  parallel::ByteExchange<typename Space::memory_space> exchange_;
  std::uint64_t steps_done_ = 0;
  double halo_seconds_ = 0;
};

}  // namespace portamc::tilings

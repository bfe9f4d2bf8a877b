#pragma once
// The tiled domino Glauber chain (domino_tiled_kernel.hpp: one launch runs K sub-steps inside
// tiles of tile_rows x tile_cols faces) over the ranks of a Communicator, bitwise the
// one-rank chain of GlauberSampler::set_schedule whatever the number of ranks: the slab chain
// (row_slab_chain.hpp) with the family below, whose launches and halos are these.
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
// Transport: the slab chain's, over parallel.halo_transport (nccl, mpi_direct, mpi_staged).
//
// Forward chains only: coupling from the past stays on one rank (samples spread whole,
// run_tilings.cpp). Memory: as DistributedGlauber (the start tiling of the whole domain on
// the host of every rank; gathering puts the whole state on rank 0).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/detail/domino_tiled_kernel.hpp"
#include "portamc/tilings/engine/detail/distributed_glauber.hpp"
#include "portamc/tilings/engine/detail/halo_rows.hpp"
#include "portamc/tilings/engine/detail/row_slab_chain.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/engine/detail/tile_attempts.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"

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

/// The slab chain's family of tiled domino steps: a launch is K steps in the tiles of the
/// bands a rank owns.
struct TiledDominoSlabFamily {
  using Model = DominoModel;
  using Element = std::uint8_t;
  SquareDomain domain;
  DominoGeometry geometry;
  std::vector<std::uint64_t> thresholds;
  TileSchedule schedule;

  /// Throws std::invalid_argument for a bad schedule (as GlauberSampler::set_schedule).
  TiledDominoSlabFamily(const SquareDomain& d, const DominoWeights& weights, const TileSchedule& s,
                        UpdateRule rule)
      : domain(d),
        geometry(Model::geometry(d, weights)),
        thresholds(Model::thresholds(weights, rule)),
        schedule(checked(s)) {}

  int rows() const { return domain.rows(); }
  int row_length() const { return domain.cols(); }
  int classes() const { return Model::classes; }
  RowSlab slab(int rank, int ranks, const std::string& what) const {
    return tiled_domino_slab(rows(), row_length(), schedule.tile_rows, rank, ranks, what);
  }
  std::uint64_t steps_per_launch() const { return static_cast<std::uint64_t>(schedule.substeps); }

  template <class Space>
  struct Moves {
    Kokkos::View<const std::uint64_t*, Space> thresholds;
    /// Attempts are counted over the whole domain (every rank alike, the one-rank count).
    TileAttemptCounter attempts;
  };
  template <class Space>
  Moves<Space> slab_moves(const Space& /*space*/, const RowSlab& /*slab*/) const {
    Kokkos::View<std::uint64_t*, Space> t("portamc::tilings::thresholds", thresholds.size());
    Kokkos::deep_copy(t, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace,
                                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(thresholds.data(),
                                                                               thresholds.size()));
    return {t, TileAttemptCounter(Model::vertex_runs(domain), Model::classes, schedule.tile_rows,
                                  schedule.tile_cols)};
  }

  /// One launch from global step `first`: the tiles of the bands this rank owns.
  template <class Space>
  SlabLaunch launch(const Space& space, const Kokkos::View<std::uint8_t*, Space>& state,
                    const Moves<Space>& moves, const RowSlab& slab, std::uint64_t seed,
                    std::uint64_t first, ClassOrder order) const {
    std::int64_t tiles_down = 0;
    DominoTileLaunch l =
        domino_tile_launch(seed, first, schedule, slab.rows, slab.row_length, tiles_down, order);
    const std::int32_t band_begin = first_band(slab.own_begin, l.row_shift);
    const std::int32_t band_end = slab.has_lower_neighbour()
                                      ? first_band(slab.own_end, l.row_shift)
                                      : static_cast<std::int32_t>(tiles_down);
    l.first_band = band_begin;
    l.row_origin = slab.local_begin;
    using Kernel = DominoTiledSteps<Space, false>;
    const int team = Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible ? 1 : 256;
    const int league = (band_end - band_begin) * l.tiles_across;
    if (league > 0) {
      Kokkos::TeamPolicy<Space> policy(space, league, team);
      Kokkos::parallel_for("portamc::tilings::slab_tiled_glauber_steps",
                           policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(l))),
                           Kernel{state, state, moves.thresholds, geometry, l, seed});
    }
    SlabLaunch out{0, true, l.row_shift};
    for (int s = 0; s < l.substeps; ++s) {
      out.attempts += static_cast<std::uint64_t>(moves.attempts.attempts(
          static_cast<int>((l.class_bits >> s) & 1u), l.row_shift, l.col_shift));
    }
    return out;
  }

  /// Tag 0 down: the rows below own_end that my last band wrote; tag 1 up: the rest of the
  /// lower neighbour's halo, which it may have written.
  std::vector<HaloRows> halo_rows(const RowSlab& slab, const SlabLaunch& l) const {
    const int h = schedule.tile_rows - 1;
    std::vector<HaloRows> m;
    if (slab.has_lower_neighbour()) {
      const int d = rows_written_below(slab.own_end, l.row_shift);
      if (d > 0) m.push_back({slab.own_end, -1, d, slab.rank + 1, -1, 0});
      if (d < h) m.push_back({-1, slab.own_end + d, h - d, -1, slab.rank + 1, 1});
    }
    if (slab.has_upper_neighbour()) {
      const int d = rows_written_below(slab.own_begin, l.row_shift);
      if (d > 0) m.push_back({-1, slab.own_begin, d, -1, slab.rank - 1, 0});
      if (d < h) m.push_back({slab.own_begin + d, -1, h - d, slab.rank - 1, -1, 1});
    }
    return m;
  }

 private:
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
    return (row + shift + schedule.tile_rows - 1) / schedule.tile_rows;
  }
  /// Rows of the slab boundary below `upper_end` (the own_end of the upper rank) written by
  /// the upper rank's last band: d in [0, R - 1].
  std::int32_t rows_written_below(int upper_end, std::int32_t shift) const {
    return first_band(upper_end, shift) * schedule.tile_rows - shift - upper_end;
  }
};

template <class Space>
class DistributedTiledDomino
    : public DistributedGlauber<DominoModel, Space, TiledDominoSlabFamily> {
  using Glauber = DistributedGlauber<DominoModel, Space, TiledDominoSlabFamily>;

 public:
  /// Collective. Starts from the maximal or minimal tiling. Throws std::invalid_argument (on
  /// every rank alike) for an untileable domain, a bad schedule (as
  /// GlauberSampler::set_schedule) or slabs thinner than schedule.tile_rows.
  /// All kernels run on `space`.
  DistributedTiledDomino(const Space& space, const SquareDomain& domain,
                         const DominoWeights& weights, std::uint64_t seed,
                         const TileSchedule& schedule, const parallel::Communicator& comm,
                         Start start = Start::maximal, UpdateRule rule = UpdateRule::heat_bath)
      : Glauber(space, TiledDominoSlabFamily(domain, weights, schedule, rule), seed, comm,
                start == Start::maximal ? DominoModel::maximal(domain)
                                        : DominoModel::minimal(domain)) {}
  /// Collective. Starts from a valid tiling of the whole domain (the same on every rank).
  DistributedTiledDomino(const Space& space, const SquareDomain& domain,
                         const DominoWeights& weights, std::uint64_t seed,
                         const TileSchedule& schedule, const parallel::Communicator& comm,
                         const DominoTiling& initial, UpdateRule rule = UpdateRule::heat_bath)
      : Glauber(space, TiledDominoSlabFamily(domain, weights, schedule, rule), seed, comm,
                initial) {}

  const TileSchedule& schedule() const { return this->family().schedule; }
};

}  // namespace portamc::tilings

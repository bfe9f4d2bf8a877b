#pragma once
// Tiled Glauber dynamics for domino tilings: one kernel launch runs K sub-steps inside tiles
// of the bounding box held in team scratch (shared) memory, instead of one launch per step.
//
// Why: a global step is one launch that touches every byte of the state once. On a GPU a
// launch costs a few microseconds whatever its size, so mid-size domains (CFTP of an Aztec
// diamond of order 256: two million steps of 65 k vertices) are bound by launch latency, and
// large ones by DRAM traffic. Inside a tile in shared memory K sub-steps cost one load and
// one store of the tile.
//
// The chain. Launch l draws a random shift (row_shift, col_shift) of a grid of tiles of
// tile_rows x tile_cols faces (powers of two) and K classes c_1..c_K (one random bit each:
// dominoes have two classes). Sub-step s updates, by the same heat-bath/Metropolis rule and
// with the same random word rng::draw(seed, purpose_tiling_update, vertex, t) as a global
// step t, every vertex of class c_s whose four faces lie in one tile; vertices on tile edges
// wait for a later launch, whose shift moves the edges. Each sub-step restricted to a tile is
// a product of commuting single-vertex kernels that leave the weighted measure invariant,
// tiles are disjoint, so every launch leaves it invariant; random shifts reach every vertex,
// so the chain is irreducible, and the heat-bath rule is monotone vertex by vertex, so
// coupling from the past works with it as with the global chain (same top and bottom states).
// Sub-step s of launch l is global step t = (l - 1) K + s for the random words; the shift and
// class bits come from rng::draw(seed, purpose_tiling_class, 1, l).
//
// Inside a tile, concurrent vertices of one class behave as in domino_glauber_kernel.hpp (a
// face shared by two diagonal vertices cannot be in both their rotatable blocks), so the result
// does not depend on thread order and all backends agree bit for bit.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/domino/detail/domino_glauber_kernel.hpp"
#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"

namespace portamc::tilings {

/// Launch parameters of one tiled launch (host-computed from the launch's random block).
struct DominoTileLaunch {
  int row_log2 = 0;  ///< tile_rows = 2^row_log2 faces
  int col_log2 = 0;  ///< tile_cols = 2^col_log2 faces
  std::int32_t row_shift = 0;
  std::int32_t col_shift = 0;
  std::int32_t tiles_across = 1;
  int substeps = 1;
  std::uint64_t class_bits = 0;  ///< bit s - 1: class of sub-step s
  std::uint64_t first_step = 1;  ///< global step number of sub-step 1
  /// Where the state is a row slab of the box (distributed_tiled_domino.hpp): league rank 0
  /// runs the tiles of tile row (band) first_band, and byte 0 of the state is face (row_origin,
  /// 0). The defaults (0, 0) are the whole box. Faces, vertices and random words stay global.
  std::int32_t first_band = 0;
  std::int32_t row_origin = 0;
};

/// The launch of schedule `schedule` whose first sub-step is global step `first`, over the
/// whole box (GlauberSampler's tiled launch: shift and class bits from
/// rng::draw(seed, purpose_tiling_class, 1, first); class bits by `order`, class_order.hpp).
/// tiles_down: the box's tile rows (bands).
inline DominoTileLaunch domino_tile_launch(std::uint64_t seed, std::uint64_t first,
                                           const TileSchedule& schedule, std::int64_t rows,
                                           std::int64_t cols, std::int64_t& tiles_down,
                                           ClassOrder order = ClassOrder::random) {
  const auto log2_of = [](int v) {
    int k = 0;
    while ((1 << k) < v) ++k;
    return k;
  };
  const rng::Block b = rng::draw(seed, rng::purpose_tiling_class, 1, first);
  DominoTileLaunch l;
  l.row_log2 = log2_of(schedule.tile_rows);
  l.col_log2 = log2_of(schedule.tile_cols);
  l.row_shift =
      static_cast<std::int32_t>(b[0] & static_cast<std::uint32_t>(schedule.tile_rows - 1));
  l.col_shift =
      static_cast<std::int32_t>(b[1] & static_cast<std::uint32_t>(schedule.tile_cols - 1));
  l.substeps = schedule.substeps;
  l.class_bits = two_class_bits(order, (static_cast<std::uint64_t>(b[3]) << 32) | b[2], first);
  l.first_step = first;
  l.tiles_across =
      static_cast<std::int32_t>((cols + l.col_shift + schedule.tile_cols - 1) / schedule.tile_cols);
  tiles_down = (rows + l.row_shift + schedule.tile_rows - 1) / schedule.tile_rows;
  return l;
}

template <class Space, bool Coupled>
struct DominoTiledSteps {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using Scratch = Kokkos::View<std::uint8_t*, typename Space::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Kokkos::View<std::uint8_t*, Space> upper;
  Kokkos::View<std::uint8_t*, Space> lower;  ///< used only when Coupled
  Kokkos::View<const std::uint64_t*, Space> thresholds;
  DominoGeometry geometry;
  DominoTileLaunch launch;
  std::uint64_t seed = 0;

  static std::size_t scratch_bytes(const DominoTileLaunch& l) {
    return (Coupled ? 2 : 1) * Scratch::shmem_size(std::size_t{1} << (l.row_log2 + l.col_log2));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int32_t tile_rows = 1 << launch.row_log2, tile_cols = 1 << launch.col_log2;
    const std::int32_t faces = tile_rows * tile_cols;
    const std::int32_t tile = team.league_rank();
    const std::int32_t r0 =
        (tile / launch.tiles_across + launch.first_band) * tile_rows - launch.row_shift;
    const std::int32_t c0 = (tile % launch.tiles_across) * tile_cols - launch.col_shift;
    const Scratch up(team.team_scratch(0), faces);
    const Scratch lo(team.team_scratch(0), Coupled ? faces : 0);
    const std::int32_t rows = geometry.rows, cols = geometry.cols;

    // Faces beyond the box read as outside, so blocks that reach them never rotate. A slab
    // holds every in-box row of its tiles, at local row r - row_origin.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, faces), [&](const std::int32_t f) {
      const std::int32_t r = r0 + (f >> launch.col_log2), c = c0 + (f & (tile_cols - 1));
      const bool in = r >= 0 && r < rows && c >= 0 && c < cols;
      up(f) = in ? upper((r - launch.row_origin) * cols + c) : direction::none;
      if (Coupled) lo(f) = in ? lower((r - launch.row_origin) * cols + c) : direction::none;
    });
    team.team_barrier();

    // Tile-interior vertices: local rows 1 .. tile_rows - 1, every other local column.
    const std::int32_t half_log2 = launch.col_log2 - 1;
    const std::int32_t candidates = (tile_rows - 1) << half_log2;
    for (int s = 0; s < launch.substeps; ++s) {
      const int colour = static_cast<int>((launch.class_bits >> s) & 1u);
      const std::uint64_t t = launch.first_step + static_cast<std::uint64_t>(s);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, candidates), [&](const std::int32_t k) {
        const std::int32_t i = 1 + (k >> half_log2);
        // Class of global vertex (r0 + i, c0 + j) is (j + c0 - i - r0) mod 2.
        const std::int32_t j = (((i + r0 + c0 + colour) & 1) != 0 ? 1 : 2) +
                               2 * (k & ((std::int32_t{1} << half_log2) - 1));
        if (j >= tile_cols) return;
        const std::int32_t nw = (i - 1) * tile_cols + (j - 1);
        // A vertex of the tile's interior whose block can rotate lies in the domain, so the
        // global vertex (r0 + i, c0 + j) is inside the box.
        DominoGlauberStep<Space, Coupled>::update_block(up, lo, nw, tile_cols, r0 + i, c0 + j,
                                                        thresholds, geometry, seed, t);
      });
      team.team_barrier();
    }

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, faces), [&](const std::int32_t f) {
      const std::int32_t r = r0 + (f >> launch.col_log2), c = c0 + (f & (tile_cols - 1));
      if (r < 0 || r >= rows || c < 0 || c >= cols) return;
      upper((r - launch.row_origin) * cols + c) = up(f);
      if (Coupled) lower((r - launch.row_origin) * cols + c) = lo(f);
    });
  }
};

}  // namespace portamc::tilings

#pragma once
// One Glauber step on a slab of rows (slab_decomposition.hpp) for the distributed chain: the
// one-rank kernels' moves (domino_glauber_kernel.hpp, lozenge_glauber_kernel.hpp) with the
// state indexed from the slab's first local row. Vertices keep their global coordinates, so
// the RNG entity, the weight period and every decision are those of the one-rank step; the
// one-rank kernels themselves are untouched (their instruction stream is what the GPU rates
// were measured with). Forward chains only: CFTP samples stay on one GPU each.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/domino/detail/domino_glauber_kernel.hpp"
#include "portamc/tilings/engine/detail/vertex_runs.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber_kernel.hpp"
#include "portamc/tilings/lozenge/lozenge_tiling.hpp"

namespace portamc::tilings {

/// Dominoes: vertex (i, j) rotates the 2x2 block of faces rows i - 1, i.
template <class Space>
struct DominoSlabStep {
  using Geometry = DominoGeometry;
  Kokkos::View<std::uint8_t*, Space> state;  ///< local rows first_row ..
  VertexRuns<Space> runs;                    ///< the class's vertices in the slab
  Kokkos::View<const std::uint64_t*, Space> thresholds;
  DominoGeometry geometry;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;
  std::int32_t first_row = 0;  ///< global row of local row 0

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const {
    std::int32_t i = 0, j = 0;
    runs.locate(k, i, j);
    const std::int32_t cols = geometry.cols;
    const std::int32_t nw = (i - 1 - first_row) * cols + (j - 1);
    DominoGlauberStep<Space, false>::update_block(state, state, nw, cols, i, j, thresholds,
                                                  geometry, seed, step);
  }
};

/// Lozenges: vertex (x, y) turns the up triangles U(x, y), U(x - 1, y) (row y) and U(x, y - 1).
template <class Space>
struct LozengeSlabStep {
  using Geometry = LozengeGeometry;
  Kokkos::View<std::uint8_t*, Space> state;
  VertexRuns<Space> runs;  ///< row = y, column = x
  Kokkos::View<const std::uint64_t*, Space> thresholds;
  LozengeGeometry geometry;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;
  std::int32_t first_row = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const {
    std::int32_t y = 0, x = 0;
    runs.locate(k, y, x);  // interior vertices: 1 <= x < width, 1 <= y < height
    const std::int32_t w = geometry.width;
    const std::int32_t here = x + w * (y - first_row);
    std::uint8_t* const p = state.data();
    const int a = p[here], b = p[here - 1], c = p[here - w];
    // lozenge_tiling.hpp's rotation_direction: (1, 2, 0) can go up (state 0, no cube),
    // (2, 0, 1) down (state 1, the cube).
    const int current = (a == 1 && b == 2 && c == 0) ? 0 : ((a == 2 && b == 0 && c == 1) ? 1 : -1);
    if (current < 0) return;
    const std::uint64_t entity = static_cast<std::uint64_t>(x) +
                                 static_cast<std::uint64_t>(w + 1) * static_cast<std::uint64_t>(y);
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update, entity, step)[0];
    const bool cube = ends_in_b(u, thresholds(current));
    if (cube == (current == 1)) return;
    const int turn = cube ? 1 : 2;  // every partner k -> k + 1 (up) or k + 2 (down) mod 3
    p[here] = static_cast<std::uint8_t>((a + turn) % 3);
    p[here - 1] = static_cast<std::uint8_t>((b + turn) % 3);
    p[here - w] = static_cast<std::uint8_t>((c + turn) % 3);
  }
};

/// counts(cell, type) += 1 for the owned cells of a slab (cells offset .. offset + count of
/// the local state); bytes >= types mark cells outside the domain.
template <class Space>
struct CountSlabTypes {
  Kokkos::View<const std::uint8_t*, Space> state;
  Kokkos::View<std::uint32_t**, Space> counts;
  std::int64_t offset = 0;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t cell) const {
    const std::uint32_t type = state(offset + cell);
    if (type < counts.extent(1)) counts(cell, type) += 1;
  }
};

}  // namespace portamc::tilings

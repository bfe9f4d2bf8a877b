#pragma once
// One Glauber step of domino tilings on the device: every vertex of the chosen colour class
// whose 2x2 block holds two parallel dominoes is re-tiled by the heat-bath (or Metropolis) rule
// of glauber_weights.hpp. Coupled = true moves two chains (CFTP's upper and lower) with the
// same random word per vertex, which keeps their order under the heat-bath rule.
//
// Concurrency: vertices of one colour never share an edge, but diagonal ones share a face.
// Let w be a vertex whose block overlaps the block of a rotatable vertex v of its class. w's
// test passes only if every byte it reads points into w's block; a byte of a rotating block
// points into that block both before and after its write, so if w reads such a byte its test
// fails whichever value it sees, and otherwise it sees unchanged bytes of the valid pre-step
// tiling, in which w is not rotatable. Either way w writes nothing: the outcome does not depend
// on thread order and all backends agree bit for bit (the concurrent byte read is a benign
// race; bytes are never torn).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/domino_tiling.hpp"
#include "portamc/tilings/glauber_weights.hpp"
#include "portamc/tilings/vertex_runs.hpp"

namespace portamc::tilings {

/// What the domino kernel needs to know about the box and the weights' period.
struct DominoGeometry {
  std::int32_t cols = 0;  ///< faces per row; vertex (i, j) has RNG entity i * (cols + 1) + j
  std::int32_t period_rows = 1;
  std::int32_t period_cols = 1;
};

template <class Space, bool Coupled>
struct DominoGlauberStep {
  Kokkos::View<std::uint8_t*, Space> upper;
  Kokkos::View<std::uint8_t*, Space> lower;  ///< used only when Coupled
  VertexRuns<Space> runs;
  Kokkos::View<const std::uint64_t*, Space> thresholds;  ///< domino_move_thresholds
  DominoGeometry geometry;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;

  /// -1: not rotatable; 0: two horizontal dominoes; 1: two vertical ones. nw: index of the
  /// block's north-west face.
  KOKKOS_INLINE_FUNCTION static int block_state(const Kokkos::View<std::uint8_t*, Space>& t,
                                                std::int32_t nw, std::int32_t cols) {
    const std::uint8_t a = t(nw);
    if (a == direction::east && t(nw + cols) == direction::east) return 0;
    if (a == direction::south && t(nw + 1) == direction::south) return 1;
    return -1;
  }

  KOKKOS_INLINE_FUNCTION static void set_block(const Kokkos::View<std::uint8_t*, Space>& t,
                                               std::int32_t nw, std::int32_t cols, int state,
                                               bool vertical) {
    if (vertical == (state == 1)) return;  // unchanged: save the write
    if (vertical) {
      t(nw) = direction::south;
      t(nw + 1) = direction::south;
      t(nw + cols) = direction::north;
      t(nw + cols + 1) = direction::north;
    } else {
      t(nw) = direction::east;
      t(nw + 1) = direction::west;
      t(nw + cols) = direction::east;
      t(nw + cols + 1) = direction::west;
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const {
    std::int32_t i = 0, j = 0;
    runs.locate(k, i, j);
    const std::int32_t cols = geometry.cols;
    const std::int32_t nw = (i - 1) * cols + (j - 1);
    const int upper_state = block_state(upper, nw, cols);
    const int lower_state = Coupled ? block_state(lower, nw, cols) : -1;
    if (upper_state < 0 && lower_state < 0) return;
    const std::uint64_t entity =
        static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(cols + 1) +
        static_cast<std::uint64_t>(j);
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update, entity, step)[0];
    // Integer division costs tens of cycles on CPUs; the common 1 x 1 period skips it.
    const std::int32_t pr = geometry.period_rows, pc = geometry.period_cols;
    const std::int32_t entry = 2 * ((pr == 1 ? 0 : i % pr) * pc + (pc == 1 ? 0 : j % pc));
    if (upper_state >= 0) {
      set_block(upper, nw, cols, upper_state, ends_in_b(u, thresholds(entry + upper_state)));
    }
    if (Coupled && lower_state >= 0) {
      set_block(lower, nw, cols, lower_state, ends_in_b(u, thresholds(entry + lower_state)));
    }
  }
};

}  // namespace portamc::tilings

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
//
// Thread k finds its vertex in one of two ways, which visit the same rotatable vertices and so
// give the same states: by arithmetic over the bounding box (row 1 + k / per_row, every other
// column) when the domain fills most of its box, or through VertexRuns::locate otherwise. The
// run search is a chain of dependent loads per thread (H200, 2n x 2n squares: 97-114 x 10^9
// attempts/s with it, 118-133 without); the box walk spends a thread on every box vertex,
// which for an Aztec diamond, half its box, costs more than the search (117-186 with the
// runs, 86-106 with the box walk). Box vertices outside the domain fail the test at once
// (their faces hold direction::none) and draw nothing; a non-interior vertex can never pass
// it since two dominoes cover all four faces.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/fast_division.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/engine/detail/vertex_runs.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"

namespace portamc::tilings {

/// What the domino kernel needs to know about the box and the weights' period.
struct DominoGeometry {
  std::int32_t cols = 0;  ///< faces per row; vertex (i, j) has RNG entity i * (cols + 1) + j
  std::int32_t period_rows = 1;
  std::int32_t period_cols = 1;
  std::int32_t rows = 0;   ///< face rows; candidate vertices are rows 1 .. rows - 1
  FastDivisor per_row{1};  ///< threads per vertex row: max(1, cols / 2)
  bool walk_box = true;    ///< thread -> vertex by box arithmetic, else by the class's runs
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
  int colour = 0;  ///< the step's class: vertices with (j - i) mod 2 == colour

  /// Threads of one step: every other vertex of rows 1 .. rows - 1 (vertex_runs.hpp's
  /// classes), whether interior or not, or the class's interior vertices.
  static std::int32_t threads(const VertexRuns<Space>& runs, const DominoGeometry& g) {
    if (!g.walk_box) return runs.vertices;
    return g.rows < 2 ? 0 : (g.rows - 1) * static_cast<std::int32_t>(g.per_row.divisor());
  }

  /// -1: not rotatable; 0: two horizontal dominoes; 1: two vertical ones. nw: index of the
  /// block's north-west face. The three bytes are loaded independently (one memory latency,
  /// not two in a row).
  template <class Bytes>
  KOKKOS_INLINE_FUNCTION static int block_state(const Bytes& t, std::int32_t nw,
                                                std::int32_t cols) {
    const std::uint8_t a = t(nw), ne = t(nw + 1), sw = t(nw + cols);
    if (a == direction::east && sw == direction::east) return 0;
    if (a == direction::south && ne == direction::south) return 1;
    return -1;
  }

  template <class Bytes>
  KOKKOS_INLINE_FUNCTION static void set_block(const Bytes& t, std::int32_t nw, std::int32_t cols,
                                               int state, bool vertical) {
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
    if (geometry.walk_box) {
      std::uint32_t q = 0;
      i = 1 + static_cast<std::int32_t>(geometry.per_row.divide(static_cast<std::uint32_t>(k), q));
      j = (((i + colour) & 1) != 0 ? 1 : 2) + 2 * static_cast<std::int32_t>(q);
      if (j >= geometry.cols) return;
    } else {
      runs.locate(k, i, j);
    }
    const std::int32_t cols = geometry.cols;
    const std::int32_t nw = (i - 1) * cols + (j - 1);
    update_block(upper, lower, nw, cols, i, j, thresholds, geometry, seed, step);
  }

  /// The move at global vertex (i, j) whose block's north-west face is byte nw of rows
  /// `stride` long in up (and lo when Coupled): the global kernel passes the state arrays, the
  /// tiled one its shared-memory tiles, so both draw the same word and take the same decision.
  template <class Bytes>
  KOKKOS_INLINE_FUNCTION static void update_block(
      const Bytes& up, const Bytes& lo, std::int32_t nw, std::int32_t stride, std::int32_t i,
      std::int32_t j, const Kokkos::View<const std::uint64_t*, Space>& thresholds,
      const DominoGeometry& geometry, std::uint64_t seed, std::uint64_t step) {
    const int upper_state = block_state(up, nw, stride);
    const int lower_state = Coupled ? block_state(lo, nw, stride) : -1;
    if (upper_state < 0 && lower_state < 0) return;
    const std::uint64_t entity =
        static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(geometry.cols + 1) +
        static_cast<std::uint64_t>(j);
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update, entity, step)[0];
    // Integer division costs tens of cycles on CPUs; the common 1 x 1 period skips it.
    const std::int32_t pr = geometry.period_rows, pc = geometry.period_cols;
    const std::int32_t entry = 2 * ((pr == 1 ? 0 : i % pr) * pc + (pc == 1 ? 0 : j % pc));
    if (upper_state >= 0) {
      set_block(up, nw, stride, upper_state, ends_in_b(u, thresholds(entry + upper_state)));
    }
    if (Coupled && lower_state >= 0) {
      set_block(lo, nw, stride, lower_state, ends_in_b(u, thresholds(entry + lower_state)));
    }
  }
};

}  // namespace portamc::tilings

#pragma once
// Six-vertex states as arrows on edges and, for domain-wall boundaries, as alternating-sign
// matrices; both convert to and from height functions (conventions in six_vertex_local.hpp).
#include <cstdint>
#include <vector>

#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"

namespace portamc::tilings {

struct SixVertexArrows {
  int rows = 0;
  int cols = 0;
  /// rows x (cols + 1): the horizontal edge west of vertex (r, k) (k = cols: east of the last
  /// vertex), index r * (cols + 1) + k; +1 points east (right), -1 west.
  std::vector<std::int8_t> horizontal;
  /// (rows + 1) x cols: the vertical edge north of vertex (k, c) (k = rows: south of the last
  /// row), index k * cols + c; +1 points north (up), -1 south.
  std::vector<std::int8_t> vertical;
};

SixVertexArrows arrows_from_heights(const SixVertexHeights& heights);
/// Integrates the arrows from corner_height at face (0, 0). Throws std::invalid_argument for a
/// wrong size, an entry other than +-1, or a vertex that breaks the ice rule (naming it).
SixVertexHeights heights_from_arrows(const SixVertexArrows& arrows, int corner_height = 0);

/// Entry (r, c) = (h_ne + h_sw - h_nw - h_se) / 2 around vertex (r, c): +1 at c1, -1 at c2
/// vertices, 0 at a and b vertices; row-major n x n. Throws std::invalid_argument unless the
/// heights carry the domain-wall boundary, for which the result is an alternating-sign matrix.
std::vector<int> alternating_sign_matrix(const SixVertexHeights& heights);
/// Inverse: h(i, j) = i + j - 2 sum_{r < i, c < j} A(r, c). Throws std::invalid_argument if
/// the n x n matrix is not alternating-sign (the heights then break a step or the boundary).
SixVertexHeights heights_from_alternating_sign_matrix(int n, const std::vector<int>& matrix);

}  // namespace portamc::tilings

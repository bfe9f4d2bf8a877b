#include "portamc/tilings/six_vertex/detail/six_vertex_arrows.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace portamc::tilings {

SixVertexArrows arrows_from_heights(const SixVertexHeights& heights) {
  SixVertexArrows arrows;
  arrows.rows = heights.rows();
  arrows.cols = heights.cols();
  const int n = arrows.rows, m = arrows.cols;
  arrows.horizontal.resize(static_cast<std::size_t>(n) * (m + 1));
  arrows.vertical.resize(static_cast<std::size_t>(n + 1) * m);
  for (int r = 0; r < n; ++r) {
    for (int k = 0; k <= m; ++k) {  // south face minus north face
      arrows.horizontal[r * (m + 1) + k] =
          static_cast<std::int8_t>(heights.at(r + 1, k) - heights.at(r, k));
    }
  }
  for (int k = 0; k <= n; ++k) {
    for (int c = 0; c < m; ++c) {  // east face minus west face
      arrows.vertical[k * m + c] =
          static_cast<std::int8_t>(heights.at(k, c + 1) - heights.at(k, c));
    }
  }
  return arrows;
}

SixVertexHeights heights_from_arrows(const SixVertexArrows& arrows, int corner_height) {
  const int n = arrows.rows, m = arrows.cols;
  if (n < 1 || m < 1 || arrows.horizontal.size() != static_cast<std::size_t>(n) * (m + 1) ||
      arrows.vertical.size() != static_cast<std::size_t>(n + 1) * m) {
    throw std::invalid_argument("heights_from_arrows: " + std::to_string(arrows.horizontal.size()) +
                                " horizontal and " + std::to_string(arrows.vertical.size()) +
                                " vertical arrows do not fit " + std::to_string(n) + " x " +
                                std::to_string(m) + " vertices");
  }
  for (std::int8_t a : arrows.horizontal) {
    if (a != 1 && a != -1) throw std::invalid_argument("heights_from_arrows: arrow values are +-1");
  }
  for (std::int8_t a : arrows.vertical) {
    if (a != 1 && a != -1) throw std::invalid_argument("heights_from_arrows: arrow values are +-1");
  }
  SixVertexHeights heights(n, m, std::vector<int>(static_cast<std::size_t>(n + 1) * (m + 1)));
  heights.set(0, 0, corner_height);
  for (int c = 0; c < m; ++c) heights.set(0, c + 1, heights.at(0, c) + arrows.vertical[c]);
  for (int r = 0; r < n; ++r) {
    for (int k = 0; k <= m; ++k) {
      heights.set(r + 1, k, heights.at(r, k) + arrows.horizontal[r * (m + 1) + k]);
    }
  }
  // The rows were integrated down every column; the vertical arrows below row 0 must agree,
  // which is the ice rule at the vertex above each of them.
  for (int k = 1; k <= n; ++k) {
    for (int c = 0; c < m; ++c) {
      if (heights.at(k, c + 1) - heights.at(k, c) != arrows.vertical[k * m + c]) {
        throw std::invalid_argument("heights_from_arrows: vertex (" + std::to_string(k - 1) + ", " +
                                    std::to_string(c) +
                                    ") breaks the ice rule (not two arrows in and two out)");
      }
    }
  }
  return heights;
}

std::vector<int> alternating_sign_matrix(const SixVertexHeights& heights) {
  const int n = heights.rows();
  if (heights.cols() != n ||
      !is_valid_six_vertex_state(SixVertexBoundary::domain_wall(n), heights)) {
    throw std::invalid_argument(
        "alternating_sign_matrix: the heights are not a six-vertex state with domain-wall "
        "boundary conditions on " +
        std::to_string(heights.rows()) + " x " + std::to_string(heights.cols()) + " vertices");
  }
  std::vector<int> matrix(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      matrix[r * n + c] = (heights.at(r, c + 1) + heights.at(r + 1, c) - heights.at(r, c) -
                           heights.at(r + 1, c + 1)) /
                          2;
    }
  }
  return matrix;
}

SixVertexHeights heights_from_alternating_sign_matrix(int n, const std::vector<int>& matrix) {
  if (n < 1 || matrix.size() != static_cast<std::size_t>(n) * n) {
    throw std::invalid_argument(
        "heights_from_alternating_sign_matrix: " + std::to_string(matrix.size()) +
        " entries for n = " + std::to_string(n));
  }
  std::vector<int> corner_sum(static_cast<std::size_t>(n + 1) * (n + 1), 0);
  SixVertexHeights heights(n, n, std::vector<int>(corner_sum.size()));
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) {
      int& s = corner_sum[i * (n + 1) + j];
      if (i > 0 && j > 0) {
        s = matrix[(i - 1) * n + (j - 1)] + corner_sum[(i - 1) * (n + 1) + j] +
            corner_sum[i * (n + 1) + j - 1] - corner_sum[(i - 1) * (n + 1) + j - 1];
      }
      heights.set(i, j, i + j - 2 * s);
    }
  }
  try {
    validate_six_vertex_heights(SixVertexBoundary::domain_wall(n), heights);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(
        std::string("heights_from_alternating_sign_matrix: not an alternating-sign matrix (partial "
                    "row and column sums must be 0 or 1, full ones 1): ") +
        error.what());
  }
  return heights;
}

}  // namespace portamc::tilings

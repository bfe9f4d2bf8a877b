#pragma once
// A six-vertex state as its height function on the (rows + 1) x (cols + 1) faces (index
// i * (cols + 1) + j, conventions in six_vertex_boundary.hpp and six_vertex_local.hpp), with
// the vertex types, the configuration weight and the extremal states of a boundary.
#include <array>
#include <vector>

#include "portamc/tilings/six_vertex/detail/six_vertex_local.hpp"
#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"
#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

namespace portamc::tilings {

class SixVertexHeights {
 public:
  SixVertexHeights() = default;
  /// heights: (rows + 1) * (cols + 1) values; only the size is checked here (see
  /// validate_six_vertex_heights).
  SixVertexHeights(int rows, int cols, std::vector<int> heights);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int at(int i, int j) const { return heights_[static_cast<std::size_t>(i) * (cols_ + 1) + j]; }
  void set(int i, int j, int h) { heights_[static_cast<std::size_t>(i) * (cols_ + 1) + j] = h; }
  const std::vector<int>& values() const { return heights_; }

  /// Type of vertex (r, c), 0 <= r < rows, 0 <= c < cols.
  VertexType vertex_type(int r, int c) const {
    return static_cast<VertexType>(
        vertex_type_index(at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)));
  }
  /// How many vertices have each type (index VertexType).
  std::array<int, vertex_type_count> type_counts() const;

  friend bool operator==(const SixVertexHeights& a, const SixVertexHeights& b) {
    return a.rows_ == b.rows_ && a.cols_ == b.cols_ && a.heights_ == b.heights_;
  }
  friend bool operator!=(const SixVertexHeights& a, const SixVertexHeights& b) { return !(a == b); }
  friend bool operator<(const SixVertexHeights& a, const SixVertexHeights& b) {
    return a.heights_ < b.heights_;
  }

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::vector<int> heights_;
};

/// Throws std::invalid_argument naming the first face that breaks the rules: wrong shape, a
/// boundary face off its fixed height, or two faces sharing an edge whose heights do not
/// differ by exactly 1 (the ice rule at the vertex between them then fails).
void validate_six_vertex_heights(const SixVertexBoundary& boundary,
                                 const SixVertexHeights& heights);
bool is_valid_six_vertex_state(const SixVertexBoundary& boundary, const SixVertexHeights& heights);

SixVertexHeights maximal_six_vertex_heights(const SixVertexBoundary& boundary);
SixVertexHeights minimal_six_vertex_heights(const SixVertexBoundary& boundary);

/// prod over vertices of a, b or c; and its logarithm (for blocks where the product would
/// overflow).
double six_vertex_weight(const SixVertexHeights& heights, const SixVertexWeights& weights);
double six_vertex_log_weight(const SixVertexHeights& heights, const SixVertexWeights& weights);

}  // namespace portamc::tilings

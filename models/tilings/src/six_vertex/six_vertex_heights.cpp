#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace portamc::tilings {

SixVertexHeights::SixVertexHeights(int rows, int cols, std::vector<int> heights)
    : rows_(rows), cols_(cols), heights_(std::move(heights)) {
  if (rows < 1 || cols < 1 ||
      heights_.size() != static_cast<std::size_t>(rows + 1) * static_cast<std::size_t>(cols + 1)) {
    throw std::invalid_argument("SixVertexHeights: " + std::to_string(heights_.size()) +
                                " heights do not fit the " + std::to_string(rows + 1) + " x " +
                                std::to_string(cols + 1) + " faces of " + std::to_string(rows) +
                                " x " + std::to_string(cols) + " vertices");
  }
}

std::array<int, vertex_type_count> SixVertexHeights::type_counts() const {
  std::array<int, vertex_type_count> counts{};
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < cols_; ++c) ++counts[static_cast<int>(vertex_type(r, c))];
  }
  return counts;
}

void validate_six_vertex_heights(const SixVertexBoundary& boundary,
                                 const SixVertexHeights& heights) {
  if (heights.rows() != boundary.rows() || heights.cols() != boundary.cols()) {
    throw std::invalid_argument("SixVertexHeights: " + std::to_string(heights.rows()) + " x " +
                                std::to_string(heights.cols()) + " vertices, the boundary has " +
                                std::to_string(boundary.rows()) + " x " +
                                std::to_string(boundary.cols()));
  }
  for (int k = 0; k < boundary.ring_size(); ++k) {
    const FacePosition f = boundary.ring_face(k);
    if (heights.at(f.row, f.col) != boundary.ring_heights()[k]) {
      throw std::invalid_argument(
          "SixVertexHeights: boundary face " + six_vertex_face_name(f.row, f.col) + " has height " +
          std::to_string(heights.at(f.row, f.col)) + " instead of the fixed " +
          std::to_string(boundary.ring_heights()[k]));
    }
  }
  for (int i = 0; i <= boundary.rows(); ++i) {
    for (int j = 0; j <= boundary.cols(); ++j) {
      const int h = heights.at(i, j);
      if (j < boundary.cols() && std::abs(heights.at(i, j + 1) - h) != 1) {
        throw std::invalid_argument(
            "SixVertexHeights: faces " + six_vertex_face_name(i, j) + " and " +
            six_vertex_face_name(i, j + 1) + " have heights " + std::to_string(h) + " and " +
            std::to_string(heights.at(i, j + 1)) + " (faces sharing an edge differ by exactly 1)");
      }
      if (i < boundary.rows() && std::abs(heights.at(i + 1, j) - h) != 1) {
        throw std::invalid_argument(
            "SixVertexHeights: faces " + six_vertex_face_name(i, j) + " and " +
            six_vertex_face_name(i + 1, j) + " have heights " + std::to_string(h) + " and " +
            std::to_string(heights.at(i + 1, j)) + " (faces sharing an edge differ by exactly 1)");
      }
    }
  }
}

bool is_valid_six_vertex_state(const SixVertexBoundary& boundary, const SixVertexHeights& heights) {
  try {
    validate_six_vertex_heights(boundary, heights);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

SixVertexHeights maximal_six_vertex_heights(const SixVertexBoundary& boundary) {
  return SixVertexHeights(boundary.rows(), boundary.cols(), boundary.maximal_heights());
}

SixVertexHeights minimal_six_vertex_heights(const SixVertexBoundary& boundary) {
  return SixVertexHeights(boundary.rows(), boundary.cols(), boundary.minimal_heights());
}

double six_vertex_log_weight(const SixVertexHeights& heights, const SixVertexWeights& weights) {
  validate_six_vertex_weights(weights);
  const std::array<int, vertex_type_count> counts = heights.type_counts();
  double log_weight = 0;
  for (int t = 0; t < vertex_type_count; ++t) {
    log_weight += counts[t] * std::log(vertex_weight(weights, static_cast<VertexType>(t)));
  }
  return log_weight;
}

double six_vertex_weight(const SixVertexHeights& heights, const SixVertexWeights& weights) {
  validate_six_vertex_weights(weights);
  const std::array<int, vertex_type_count> counts = heights.type_counts();
  double weight = 1;
  for (int t = 0; t < vertex_type_count; ++t) {
    weight *= std::pow(vertex_weight(weights, static_cast<VertexType>(t)), counts[t]);
  }
  return weight;
}

}  // namespace portamc::tilings

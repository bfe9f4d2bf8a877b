#pragma once
// Exact enumeration of the six-vertex states of small blocks (all height functions with the
// boundary), the reference the samplers are tested against: state counts (for domain-wall
// boundaries the alternating-sign matrices 1, 2, 7, 42, 429, 7436, ...), the partition
// function and the exact probabilities, mean heights and vertex-type densities.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"
#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"
#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

namespace portamc::tilings {

/// Calls visit once per state, in lexicographic order of the face heights. Interior faces are
/// decided row by row, each within the extremal envelope and 1 away from its decided
/// neighbours, so dead branches are cut at once. Time ~ states x faces: keep blocks small.
void for_each_six_vertex_state(const SixVertexBoundary& boundary,
                               const std::function<void(const SixVertexHeights&)>& visit);
std::uint64_t count_six_vertex_states(const SixVertexBoundary& boundary);
/// Sum over states of prod over vertices of a, b or c.
double six_vertex_partition_function(const SixVertexBoundary& boundary,
                                     const SixVertexWeights& weights);

/// The Gibbs measure of a small block, state by state.
class SixVertexExactDistribution {
 public:
  /// Throws std::invalid_argument for bad weights or more than max_states states.
  SixVertexExactDistribution(const SixVertexBoundary& boundary, const SixVertexWeights& weights,
                             std::size_t max_states = 1000000);

  std::size_t size() const { return states_.size(); }
  const std::vector<SixVertexHeights>& states() const { return states_; }
  const std::vector<double>& probabilities() const { return probabilities_; }
  double partition_function() const { return partition_function_; }
  /// Position of a state in states(); throws std::invalid_argument for a non-state.
  std::size_t index_of(const SixVertexHeights& heights) const;

  /// E[h(f)] and Var[h(f)] per face (index i * (cols + 1) + j).
  std::vector<double> mean_heights() const;
  std::vector<double> height_variances() const;
  /// P(vertex (r, c) has type t), index (r * cols + c) * vertex_type_count + t.
  std::vector<double> type_densities() const;

 private:
  int rows_ = 0, cols_ = 0;
  std::vector<SixVertexHeights> states_;
  std::vector<double> probabilities_;
  double partition_function_ = 0;
  std::map<std::vector<int>, std::size_t> index_;
};

}  // namespace portamc::tilings

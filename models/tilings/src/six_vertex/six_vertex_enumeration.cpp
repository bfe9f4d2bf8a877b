#include "portamc/tilings/six_vertex/six_vertex_enumeration.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace portamc::tilings {

namespace {

// Depth-first over the interior faces in row-major order. A candidate is 1 away from the face
// above and the face to the left (both decided), and from the boundary face to the right or
// below when that is fixed; the envelope bounds keep only values some state can take.
class StateWalker {
 public:
  StateWalker(const SixVertexBoundary& boundary,
              const std::function<void(const SixVertexHeights&)>& visit)
      : boundary_(boundary),
        visit_(visit),
        heights_(maximal_six_vertex_heights(boundary)),
        high_(boundary.maximal_heights()),
        low_(boundary.minimal_heights()) {}

  void run() { place(0); }

 private:
  void place(int k) {
    const int inner_cols = boundary_.cols() - 1;
    const int interior = (boundary_.rows() - 1) * inner_cols;
    if (k == interior) {
      visit_(heights_);
      return;
    }
    const int i = 1 + k / inner_cols, j = 1 + k % inner_cols;
    const int above = heights_.at(i - 1, j), left = heights_.at(i, j - 1);
    const std::size_t f = boundary_.face_index(i, j);
    for (int h : {above - 1, above + 1}) {
      if (h < low_[f] || h > high_[f] || std::abs(h - left) != 1) continue;
      if (j == inner_cols && std::abs(h - heights_.at(i, j + 1)) != 1) continue;
      if (i == boundary_.rows() - 1 && std::abs(h - heights_.at(i + 1, j)) != 1) continue;
      heights_.set(i, j, h);
      place(k + 1);
    }
  }

  const SixVertexBoundary& boundary_;
  const std::function<void(const SixVertexHeights&)>& visit_;
  SixVertexHeights heights_;
  const std::vector<int>& high_;
  const std::vector<int>& low_;
};

}  // namespace

void for_each_six_vertex_state(const SixVertexBoundary& boundary,
                               const std::function<void(const SixVertexHeights&)>& visit) {
  StateWalker(boundary, visit).run();
}

std::uint64_t count_six_vertex_states(const SixVertexBoundary& boundary) {
  std::uint64_t count = 0;
  for_each_six_vertex_state(boundary, [&](const SixVertexHeights&) { ++count; });
  return count;
}

double six_vertex_partition_function(const SixVertexBoundary& boundary,
                                     const SixVertexWeights& weights) {
  validate_six_vertex_weights(weights);
  double z = 0;
  for_each_six_vertex_state(boundary,
                            [&](const SixVertexHeights& h) { z += six_vertex_weight(h, weights); });
  return z;
}

SixVertexExactDistribution::SixVertexExactDistribution(const SixVertexBoundary& boundary,
                                                       const SixVertexWeights& weights,
                                                       std::size_t max_states)
    : rows_(boundary.rows()), cols_(boundary.cols()) {
  validate_six_vertex_weights(weights);
  for_each_six_vertex_state(boundary, [&](const SixVertexHeights& h) {
    if (states_.size() == max_states) {
      throw std::invalid_argument("SixVertexExactDistribution: more than " +
                                  std::to_string(max_states) + " states; use a smaller block");
    }
    index_.emplace(h.values(), states_.size());
    states_.push_back(h);
    probabilities_.push_back(six_vertex_weight(h, weights));
  });
  for (double w : probabilities_) partition_function_ += w;
  for (double& p : probabilities_) p /= partition_function_;
}

std::size_t SixVertexExactDistribution::index_of(const SixVertexHeights& heights) const {
  const auto found = index_.find(heights.values());
  if (heights.rows() != rows_ || heights.cols() != cols_ || found == index_.end()) {
    throw std::invalid_argument("SixVertexExactDistribution: the heights are not one of the " +
                                std::to_string(states_.size()) + " states");
  }
  return found->second;
}

std::vector<double> SixVertexExactDistribution::mean_heights() const {
  std::vector<double> mean(static_cast<std::size_t>(rows_ + 1) * (cols_ + 1), 0.0);
  for (std::size_t s = 0; s < states_.size(); ++s) {
    for (std::size_t f = 0; f < mean.size(); ++f) {
      mean[f] += probabilities_[s] * states_[s].values()[f];
    }
  }
  return mean;
}

std::vector<double> SixVertexExactDistribution::height_variances() const {
  const std::vector<double> mean = mean_heights();
  std::vector<double> variance(mean.size(), 0.0);
  for (std::size_t s = 0; s < states_.size(); ++s) {
    for (std::size_t f = 0; f < mean.size(); ++f) {
      const double d = states_[s].values()[f] - mean[f];
      variance[f] += probabilities_[s] * d * d;
    }
  }
  return variance;
}

std::vector<double> SixVertexExactDistribution::type_densities() const {
  std::vector<double> density(static_cast<std::size_t>(rows_) * cols_ * vertex_type_count, 0.0);
  for (std::size_t s = 0; s < states_.size(); ++s) {
    for (int r = 0; r < rows_; ++r) {
      for (int c = 0; c < cols_; ++c) {
        const int t = static_cast<int>(states_[s].vertex_type(r, c));
        density[(static_cast<std::size_t>(r) * cols_ + c) * vertex_type_count + t] +=
            probabilities_[s];
      }
    }
  }
  return density;
}

}  // namespace portamc::tilings

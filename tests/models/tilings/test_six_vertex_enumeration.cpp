// Exact enumeration of six-vertex states: domain-wall states are counted by the
// alternating-sign matrices, the free-fermion point c^2 = a^2 + b^2 gives Z = c^(n^2), and the
// heat-bath tables reflect the weights and the monotonicity condition.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/six_vertex/six_vertex_enumeration.hpp"
#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;

TEST(SixVertexEnumeration, DomainWallStatesAreAlternatingSignMatrices) {
  const std::uint64_t asm_counts[] = {1, 2, 7, 42, 429, 7436};
  for (int n = 1; n <= 6; ++n) {
    EXPECT_EQ(count_six_vertex_states(SixVertexBoundary::domain_wall(n)), asm_counts[n - 1]) << n;
  }
}

TEST(SixVertexEnumeration, FreeFermionPartitionFunction) {
  // Z_n = c^n (a^2 + b^2)^(n(n-1)/2) at c^2 = a^2 + b^2 collapses to c^(n^2).
  const SixVertexWeights points[] = {
      {1, 1, std::sqrt(2.0)}, {3, 4, 5}, {0.6, 0.8, 1}, {2, 1, std::sqrt(5.0)}};
  for (const SixVertexWeights& w : points) {
    for (int n = 1; n <= 5; ++n) {
      const double z = six_vertex_partition_function(SixVertexBoundary::domain_wall(n), w);
      EXPECT_NEAR(z / std::pow(w.c, n * n), 1.0, 1e-12)
          << "a=" << w.a << " b=" << w.b << " n=" << n;
    }
  }
  // Away from it the formula fails (the test can tell): n = 2 gives c^2 (a^2 + b^2).
  const SixVertexWeights generic{1, 0.7, 1.5};
  EXPECT_NEAR(six_vertex_partition_function(SixVertexBoundary::domain_wall(2), generic),
              1.5 * 1.5 * (1 + 0.49), 1e-12);
  EXPECT_GT(std::fabs(six_vertex_partition_function(SixVertexBoundary::domain_wall(3), generic) /
                          std::pow(1.5, 9) -
                      1),
            0.1);
}

TEST(SixVertexEnumeration, ExactDistributionIsNormalisedAndConsistent) {
  const SixVertexBoundary dw = SixVertexBoundary::domain_wall(4);
  const SixVertexWeights w{1, 0.7, 1.5};
  const SixVertexExactDistribution exact(dw, w);
  ASSERT_EQ(exact.size(), 42u);
  double total = 0;
  for (std::size_t s = 0; s < exact.size(); ++s) {
    total += exact.probabilities()[s];
    EXPECT_EQ(exact.index_of(exact.states()[s]), s);
    EXPECT_NEAR(exact.probabilities()[s],
                six_vertex_weight(exact.states()[s], w) / exact.partition_function(), 1e-15);
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  // Every vertex has one type; the corners of a domain-wall block are fixed.
  const std::vector<double> density = exact.type_densities();
  for (int v = 0; v < 16; ++v) {
    double sum = 0;
    for (int t = 0; t < vertex_type_count; ++t) sum += density[v * vertex_type_count + t];
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  EXPECT_GT(exact.height_variances()[dw.face_index(2, 2)], 0.1);
  EXPECT_THROW(SixVertexExactDistribution(SixVertexBoundary::domain_wall(5), w, 100),
               std::invalid_argument);
  expect_error<std::invalid_argument>(
      [&] { exact.index_of(maximal_six_vertex_heights(SixVertexBoundary::domain_wall(3))); },
      {"not one of the 42 states"});
}

TEST(SixVertexEnumeration, HeatBathTableFollowsTheCornerWeights) {
  const SixVertexWeights w{1, 0.7, 1.5};
  // All diagonals high: the four corners become c vertices when the face goes up and a, b, b,
  // a vertices when it goes down.
  const double up = std::pow(1.5, 4), down = 0.49;
  EXPECT_NEAR(heat_bath_up_probability(w, 15), up / (up + down), 1e-15);
  EXPECT_NEAR(heat_bath_up_probability(w, diagonal_nw),
              1.5 * 0.49 / (1.5 * 0.49 + 1.5 * 1.5 * 1.5 * 1), 1e-15);
  EXPECT_TRUE(is_monotone(heat_bath_thresholds(w)));
  EXPECT_TRUE(is_monotone(w));
  EXPECT_FALSE(is_diagonal_free(heat_bath_thresholds(w)));
  EXPECT_TRUE(is_diagonal_free(heat_bath_thresholds({2, 2, 2})));
  EXPECT_EQ(heat_bath_thresholds({2, 2, 2})[5], 1ull << 31);
  const SixVertexWeights non_monotone{1.5, 1, 0.8};
  EXPECT_FALSE(is_monotone(non_monotone));
  EXPECT_FALSE(is_monotone(heat_bath_thresholds(non_monotone)));
  expect_error<std::invalid_argument>([&] { require_monotone(non_monotone, "CFTP"); },
                                      {"CFTP", "c >= max(a, b)", "a = 1.5"});
  expect_error<std::invalid_argument>(
      [] {
        heat_bath_thresholds({1, -1, 1});
      },
      {"weight b", "positive"});
  expect_error<std::invalid_argument>([] { validate_six_vertex_weights({1, 1, 0}); }, {"weight c"});
  expect_error<std::invalid_argument>(
      [] {
        validate_six_vertex_weights({std::nan(""), 1, 1});
      },
      {"weight a"});
}

}  // namespace

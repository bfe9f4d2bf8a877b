// Longer coupling-from-the-past checks against exact enumeration: the 429 alternating-sign
// matrices of order 5, and weighted states of a 4 x 6 block with an irregular fixed boundary.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "chi_square.hpp"
#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/six_vertex/six_vertex_enumeration.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using portamc::tilings::testing::chi_square;

void expect_exact_samples(const SixVertexBoundary& b, const SixVertexWeights& w,
                          const SixVertexWeights& other, int copies, std::uint64_t seed) {
  const SixVertexExactDistribution exact(b, w), wrong(b, other);
  const SixVertexCftpResult result = six_vertex_cftp(TestSpace(), b, w, seed, copies);
  std::vector<std::uint64_t> counts(exact.size(), 0);
  for (const SixVertexHeights& h : result.samples) ++counts[exact.index_of(h)];
  const auto chi2 = chi_square(counts, exact.probabilities());
  EXPECT_GT(chi2.p_value, 1e-6) << "chi2 " << chi2.statistic << " dof " << chi2.degrees_of_freedom
                                << " states " << exact.size() << " horizon " << result.horizon;
  EXPECT_LT(chi_square(counts, wrong.probabilities()).p_value, 1e-6);
}

TEST(SixVertexCftpSlow, OrderFiveAlternatingSignMatricesAreUniform) {
  expect_exact_samples(SixVertexBoundary::domain_wall(5), {1, 1, 1}, {1, 1, 1.15}, 50000, 21);
}

TEST(SixVertexCftpSlow, IrregularBoundaryWeightedStates) {
  const SixVertexBoundary b = SixVertexBoundary::from_text(
      "0 1 2 1 2 3 4\n"
      "1 . . . . . 3\n"
      "2 . . . . . 2\n"
      "1 . . . . . 1\n"
      "0 1 0 1 2 1 0\n");
  expect_exact_samples(b, {1, 0.7, 1.5}, {0.7, 1, 1.5}, 60000, 22);
}

}  // namespace

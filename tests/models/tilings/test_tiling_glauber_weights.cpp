// The integer thresholds that every backend compares: exact values for simple probabilities,
// the Metropolis encoding, and the per-vertex weight ratios of periodic domino weights.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;

constexpr std::uint64_t two32 = std::uint64_t{1} << 32;

TEST(TilingGlauberWeights, ThresholdsAreExactForDyadicProbabilities) {
  EXPECT_EQ(probability_threshold(0.0), 0u);
  EXPECT_EQ(probability_threshold(0.5), two32 / 2);
  EXPECT_EQ(probability_threshold(0.75), 3 * two32 / 4);
  EXPECT_EQ(probability_threshold(1.0), two32);  // "u < 2^32" always holds
  EXPECT_TRUE(ends_in_b(0xFFFFFFFFu, probability_threshold(1.0)));
  EXPECT_FALSE(ends_in_b(0u, probability_threshold(0.0)));
  expect_error<std::invalid_argument>([] { probability_threshold(1.5); }, {"not in [0, 1]"});
}

TEST(TilingGlauberWeights, HeatBathAndMetropolisThresholds) {
  // Heat bath, r = 3: B with probability 3/4 from either state.
  const auto heat = move_thresholds(3.0, UpdateRule::heat_bath);
  EXPECT_EQ(heat[0], 3 * two32 / 4);
  EXPECT_EQ(heat[1], 3 * two32 / 4);
  // Metropolis, r = 3: from A flip with 1/2; from B flip with 1/6, i.e. stay in B iff u >= t.
  const auto metro = move_thresholds(3.0, UpdateRule::metropolis);
  EXPECT_EQ(metro[0], two32 / 2);
  EXPECT_EQ(metro[1] & threshold_mask, probability_threshold(1.0 / 6.0));
  EXPECT_NE(metro[1] & threshold_inverted, 0u);
  const std::uint32_t low = 1000, high = 0xF0000000u;  // u/2^32 ~ 0 and ~ 0.94
  EXPECT_FALSE(ends_in_b(low, metro[1]));              // flipped away from B
  EXPECT_TRUE(ends_in_b(high, metro[1]));              // kept B
  EXPECT_TRUE(ends_in_b(low, metro[0]));               // flipped into B
  expect_error<std::invalid_argument>([] { move_thresholds(0.0, UpdateRule::heat_bath); },
                                      {"ratio", "positive"});
}

TEST(TilingGlauberWeights, DominoThresholdsFollowTheVertexRatio) {
  // Vertical weight 2, horizontal 1: the vertical pair weighs 4 times the horizontal one.
  const auto vh =
      domino_move_thresholds(DominoWeights::vertical_horizontal(2.0), UpdateRule::heat_bath);
  ASSERT_EQ(vh.size(), 2u);
  EXPECT_EQ(vh[0], probability_threshold(0.8));
  // Two-periodic: ratio 1 at even vertices, (a/b)^2 or (b/a)^2 alternating by row at odd ones.
  const double a = 1.0, b = 0.5;
  const auto tp = domino_move_thresholds(DominoWeights::two_periodic(a, b), UpdateRule::heat_bath);
  ASSERT_EQ(tp.size(), 8u);
  const auto at = [&](int i, int j) { return tp[2 * ((i % 2) * 2 + j % 2)]; };
  EXPECT_EQ(at(0, 0), two32 / 2);
  EXPECT_EQ(at(1, 1), two32 / 2);
  const std::uint64_t big = probability_threshold(4.0 / 5.0), small = probability_threshold(0.2);
  EXPECT_TRUE((at(0, 1) == big && at(1, 0) == small) || (at(0, 1) == small && at(1, 0) == big));
}

TEST(TilingGlauberWeights, TilingWeightIsTheProductOverDominoes) {
  // Aztec diamond AD(1): two horizontal or two vertical dominoes.
  double total = 0;
  for_each_domino_tiling(SquareDomain::aztec_diamond(1), [&](const DominoTiling& t) {
    total += domino_tiling_weight(DominoWeights::vertical_horizontal(3.0, 0.5), t);
  });
  EXPECT_DOUBLE_EQ(total, 9.0 + 0.25);
}

}  // namespace

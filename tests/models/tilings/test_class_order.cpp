// Cyclic class order (class_order.hpp): the class sequence itself, exactness of coupling from
// the past with it for the weighted six-vertex model (dominoes and lozenges:
// test_tiling_exact_laws.cpp), and the reason it exists: fewer steps to coalesce. Fixed seeds;
// the chi-square fails a correct sampler with probability below 1e-6.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "chi_square.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/names.hpp"
#include "portamc/tilings/six_vertex/six_vertex_enumeration.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
namespace rng = portamc::rng;
using portamc::tilings::testing::chi_square;
using portamc::tilings::testing::ChiSquare;

TEST(ClassOrder, CyclicVisitsTheClassesInTurnAndRandomDrawsThem) {
  for (const int classes : {2, 3, 4, 70}) {
    for (std::uint64_t t = 1; t < 200; ++t) {
      EXPECT_EQ(step_class(ClassOrder::cyclic, 9, t, classes), static_cast<int>(t % classes));
      const rng::Block b = rng::draw(9, rng::purpose_tiling_class, 0, t);
      EXPECT_EQ(step_class(ClassOrder::random, 9, t, classes),
                static_cast<int>(rng::bounded(b[0], b[1], static_cast<std::uint32_t>(classes))));
    }
  }
  // Tiled launches: bit s is the class of step first + s in either order.
  for (const std::uint64_t first : {1ull, 2ull, 65ull, 128ull, 1000001ull}) {
    const std::uint64_t bits = two_class_bits(ClassOrder::cyclic, 0x1234, first);
    for (int s = 0; s < 64; ++s) {
      EXPECT_EQ(static_cast<int>((bits >> s) & 1u),
                step_class(ClassOrder::cyclic, 0, first + static_cast<std::uint64_t>(s), 2));
    }
    EXPECT_EQ(two_class_bits(ClassOrder::random, 0x1234, first), 0x1234u);
  }
  EXPECT_EQ(class_order_names().value("cyclic"), ClassOrder::cyclic);
  EXPECT_EQ(class_order_names().value(to_string(ClassOrder::random)), ClassOrder::random);
  EXPECT_THROW(class_order_names().value("sequential"), std::invalid_argument);
}

// Four classes: the weighted six-vertex model (dominoes and lozenges: test_tiling_exact_laws).
TEST(ClassOrder, CyclicCftpOfTheWeightedSixVertexModelIsExact) {
  const SixVertexBoundary dwbc = SixVertexBoundary::domain_wall(4);
  const SixVertexWeights weights{1, 0.7, 1.5};
  const SixVertexExactDistribution exact(dwbc, weights);
  const SixVertexCftpResult result =
      six_vertex_cftp(TestSpace(), dwbc, weights, 93, 40000, CftpOptions{}, 0, ClassOrder::cyclic);
  std::vector<std::uint64_t> states(exact.size(), 0);
  for (const SixVertexHeights& h : result.samples) ++states[exact.index_of(h)];
  const ChiSquare test = chi_square(states, exact.probabilities());
  EXPECT_GT(test.p_value, 1e-6) << "chi2 = " << test.statistic << " with "
                                << test.degrees_of_freedom << " dof\n"
                                << test.table;
}

// With two classes random order repeats the class on half of its steps, and a repeated
// heat-bath class does nothing new, so cyclic order coalesces in about half the steps. Sum of
// the coalescence horizons of 48 exact samples of AD(8) in each order (horizons double from
// 16, so each sum is a sum of powers of two; measured ratio about 0.5).
TEST(ClassOrder, CyclicOrderCoalescesInFewerSteps) {
  const SquareDomain domain = SquareDomain::aztec_diamond(8);
  std::uint64_t sum[2] = {0, 0};
  for (const ClassOrder order : {ClassOrder::random, ClassOrder::cyclic}) {
    DominoGlauber<TestSpace> sampler(TestSpace(), domain, DominoWeights::uniform(), 1);
    sampler.set_class_order(order);
    for (std::uint64_t s = 0; s < 48; ++s) {
      sum[order == ClassOrder::cyclic] += sampler.exact_sample(94000 + s).horizon;
    }
  }
  std::printf("sum of 48 horizons, AD(8): random %llu, cyclic %llu\n",
              static_cast<unsigned long long>(sum[0]), static_cast<unsigned long long>(sum[1]));
  EXPECT_LT(static_cast<double>(sum[1]), 0.75 * static_cast<double>(sum[0]))
      << "random " << sum[0] << ", cyclic " << sum[1];
}

}  // namespace

// Exhaustive checks on small domains: backtracking counts against MacMahon's formula, Thurston's
// extremal heights against the pointwise extremes over all tilings, connectivity under cube
// additions, and the exact mean and variance of the volume under the uniform measure.
#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"
#include "portamc/tilings/lozenge/lozenge_heights.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;

struct Box {
  int a, b, c;
};
const Box boxes[] = {{1, 1, 1}, {2, 2, 2}, {2, 2, 3}, {1, 2, 3}, {3, 3, 3}, {2, 3, 4}};

// The 3x3x2 hexagon with a lozenge cut out of its bottom side and one out of its top side: not
// a hexagon, so only the general algorithm applies to it.
TriangularDomain notched() {
  std::string mask = TriangularDomain::hexagon(3, 3, 2).to_mask();
  const int line_length = 2 * 5 + 1, height = 5;
  for (const auto& [x, y] : {std::pair<int, int>{2, 0}, std::pair<int, int>{1, 4}}) {
    mask[(height - 1 - y) * line_length + 2 * x] = '.';      // U(x, y)
    mask[(height - 1 - y) * line_length + 2 * x + 1] = '.';  // D(x, y), its partner 0
  }
  return TriangularDomain::from_mask(mask);
}

TEST(LozengeEnumeration, MacMahonFormula) {
  EXPECT_EQ(macmahon_box_count(1, 1, 1), 2u);
  EXPECT_EQ(macmahon_box_count(2, 2, 2), 20u);
  EXPECT_EQ(macmahon_box_count(3, 3, 3), 980u);
  EXPECT_EQ(macmahon_box_count(1, 1, 5), 6u);  // one row of cubes: C(b + c, c) in general
  EXPECT_EQ(macmahon_box_count(1, 4, 3), 35u);
  EXPECT_EQ(macmahon_box_count(2, 3, 4), macmahon_box_count(4, 2, 3));
  expect_error<std::invalid_argument>([] { macmahon_box_count(0, 1, 1); }, {"sides"});
  expect_error<std::invalid_argument>([] { macmahon_box_count(30, 30, 30); }, {"64 bits"});
}

TEST(LozengeEnumeration, HexagonCountsMatchMacMahon) {
  for (const Box& box : boxes) {
    EXPECT_EQ(count_lozenge_tilings(TriangularDomain::hexagon(box.a, box.b, box.c)),
              macmahon_box_count(box.a, box.b, box.c))
        << box.a << "x" << box.b << "x" << box.c;
  }
  expect_error<std::invalid_argument>(
      [] { list_lozenge_tilings(TriangularDomain::hexagon(2, 2, 2), 19); }, {"more than 19"});
}

void expect_extremes_are_pointwise(const TriangularDomain& domain) {
  const LozengeHeights high = maximal_heights(domain), low = minimal_heights(domain);
  LozengeHeights max = boundary_heights(domain), min = max;
  std::uint64_t count = 0;
  for_each_lozenge_tiling(domain, [&](const LozengeTiling& tiling) {
    ++count;
    const LozengeHeights h = heights_from_tiling(domain, tiling);
    for (std::size_t v = 0; v < h.values.size(); ++v) {
      if (h.values[v] == no_height) continue;
      if (count == 1 || h.values[v] > max.values[v]) max.values[v] = h.values[v];
      if (count == 1 || h.values[v] < min.values[v]) min.values[v] = h.values[v];
    }
  });
  ASSERT_GT(count, 1u);
  EXPECT_EQ(high, max);
  EXPECT_EQ(low, min);
}

TEST(LozengeEnumeration, ExtremalHeightsArePointwiseExtremesOfAllTilings) {
  for (const Box& box : boxes)
    expect_extremes_are_pointwise(TriangularDomain::hexagon(box.a, box.b, box.c));
  expect_extremes_are_pointwise(notched());
}

void expect_all_reachable_by_cube_additions(const TriangularDomain& domain) {
  const std::vector<LozengeTiling> all = list_lozenge_tilings(domain, 100000);
  std::set<std::vector<std::uint8_t>> reached{minimal_tiling(domain).partners()};
  std::queue<LozengeTiling> queue;
  queue.push(minimal_tiling(domain));
  while (!queue.empty()) {
    const LozengeTiling tiling = queue.front();
    queue.pop();
    const std::int64_t volume = volume_above_minimum(domain, tiling);
    for (int y = 0; y <= domain.height(); ++y) {
      for (int x = 0; x <= domain.width(); ++x) {
        LozengeTiling next = tiling;
        if (!next.rotate(x, y, 1)) continue;
        if (reached.insert(next.partners()).second) {
          EXPECT_EQ(volume_above_minimum(domain, next), volume + 1);
          queue.push(next);
        }
      }
    }
  }
  std::set<std::vector<std::uint8_t>> listed;
  for (const LozengeTiling& tiling : all) listed.insert(tiling.partners());
  EXPECT_EQ(listed.size(), all.size());  // the enumeration lists no tiling twice
  EXPECT_EQ(reached, listed);
}

TEST(LozengeEnumeration, EveryTilingIsReachableFromTheMinimumByAddingCubes) {
  expect_all_reachable_by_cube_additions(TriangularDomain::hexagon(3, 3, 3));
  expect_all_reachable_by_cube_additions(TriangularDomain::hexagon(2, 3, 4));
  expect_all_reachable_by_cube_additions(notched());
}

TEST(LozengeEnumeration, UniformVolumeMeanAndVarianceAreExact) {
  // Under the uniform measure the volume V of an a x b x c box has E V = abc/2 and
  // Var V = abc(a+b+c)/12; compared in integers: 2 sum V = N abc and
  // 12 (N sum V^2 - (sum V)^2) = N^2 abc (a+b+c).
  for (const Box& box : boxes) {
    const TriangularDomain hex = TriangularDomain::hexagon(box.a, box.b, box.c);
    const LozengeHeights low = minimal_heights(hex);
    std::int64_t n = 0, sum = 0, sum2 = 0;
    for_each_lozenge_tiling(hex, [&](const LozengeTiling& tiling) {
      const std::int64_t v = volume_between(hex, low, heights_from_tiling(hex, tiling));
      ++n;
      sum += v;
      sum2 += v * v;
    });
    const std::int64_t abc = box.a * box.b * box.c, perimeter = box.a + box.b + box.c;
    EXPECT_EQ(2 * sum, n * abc) << box.a << "x" << box.b << "x" << box.c;
    EXPECT_EQ(12 * (n * sum2 - sum * sum), n * n * abc * perimeter)
        << box.a << "x" << box.b << "x" << box.c;
  }
}

}  // namespace

// Exact enumeration by backtracking against the closed forms (Aztec diamond theorem, Fibonacci
// numbers for 2 x n, Kasteleyn's product) and against an independent transfer-matrix count.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"

namespace {

using portamc::testing::expect_error;
using namespace portamc::tilings;

TEST(DominoEnumeration, AztecDiamondCountsAreTwoToTheNNPlusOneOverTwo) {
  const std::uint64_t expected[] = {2, 8, 64, 1024, 32768};
  for (int n = 1; n <= 5; ++n) {
    EXPECT_EQ(aztec_diamond_tiling_count(n), expected[n - 1]);
    EXPECT_EQ(count_domino_tilings(SquareDomain::aztec_diamond(n)), expected[n - 1]) << n;
  }
  EXPECT_EQ(aztec_diamond_tiling_count(10), std::uint64_t{1} << 55);
  expect_error<std::invalid_argument>([] { aztec_diamond_tiling_count(11); }, {"n = 11"});
}

TEST(DominoEnumeration, TwoByNRectanglesGiveFibonacciNumbers) {
  std::uint64_t previous = 1, current = 1;  // F(1), F(2): tilings of 2 x 0 and 2 x 1
  for (int n = 1; n <= 20; ++n) {
    EXPECT_EQ(count_domino_tilings(SquareDomain::rectangle(2, n)), current) << "2 x " << n;
    EXPECT_EQ(count_domino_tilings(SquareDomain::rectangle(n, 2)), current) << n << " x 2";
    EXPECT_EQ(rectangle_tiling_count_exact(2, n), current);
    const std::uint64_t next = previous + current;
    previous = current;
    current = next;
  }
}

TEST(DominoEnumeration, SquareBoardsMatchKnownCounts) {
  EXPECT_EQ(count_domino_tilings(SquareDomain::rectangle(4, 4)), 36u);
  EXPECT_EQ(count_domino_tilings(SquareDomain::rectangle(6, 6)), 6728u);
  EXPECT_EQ(count_domino_tilings(SquareDomain::rectangle(8, 8)), 12988816u);
  EXPECT_EQ(rectangle_tiling_count_exact(8, 8), 12988816u);
  EXPECT_NEAR(kasteleyn_rectangle_tiling_count(8, 8), 12988816.0, 1e-6);
}

TEST(DominoEnumeration, BacktrackingTransferMatrixAndKasteleynAgree) {
  for (int m = 1; m <= 6; ++m) {
    for (int n = 1; n <= 7; ++n) {
      const std::uint64_t exact = rectangle_tiling_count_exact(m, n);
      EXPECT_EQ(count_domino_tilings(SquareDomain::rectangle(m, n)), exact) << m << " x " << n;
      EXPECT_NEAR(kasteleyn_rectangle_tiling_count(m, n), static_cast<double>(exact),
                  1e-9 * static_cast<double>(exact) + 1e-9)
          << m << " x " << n;
    }
  }
  // Larger boards, where only the product formula and the transfer matrix are affordable.
  for (int m = 2; m <= 10; m += 2) {
    for (int n = m; n <= 14 && m * n <= 140; ++n) {  // about 5e17 tilings at 10 x 14
      const double exact = static_cast<double>(rectangle_tiling_count_exact(m, n));
      EXPECT_NEAR(kasteleyn_rectangle_tiling_count(m, n) / exact, 1.0, 1e-10) << m << " x " << n;
    }
  }
  EXPECT_EQ(kasteleyn_rectangle_tiling_count(3, 5), 0.0);
  expect_error<std::invalid_argument>([] { rectangle_tiling_count_exact(21, 40); }, {"21"});
  expect_error<std::invalid_argument>([] { rectangle_tiling_count_exact(12, 40); }, {"overflows"});
}

TEST(DominoEnumeration, ListedTilingsAreValidAndDistinct) {
  const SquareDomain d = SquareDomain::from_mask(".##.\n####\n####\n.##.\n");
  const std::vector<DominoTiling> all = list_domino_tilings(d, 1000);
  EXPECT_EQ(all.size(), count_domino_tilings(d));
  EXPECT_GT(all.size(), 1u);
  std::set<std::vector<std::uint8_t>> distinct;
  for (const DominoTiling& t : all) {
    EXPECT_EQ(domino_tiling_error(d, t), "");
    distinct.insert(t.partner);
  }
  EXPECT_EQ(distinct.size(), all.size());
  expect_error<std::invalid_argument>([&] { list_domino_tilings(d, all.size() - 1); },
                                      {"more than"});
  EXPECT_EQ(count_domino_tilings(SquareDomain::rectangle(3, 3)), 0u);
}

}  // namespace

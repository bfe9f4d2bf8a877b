// SquareDomain: the standard shapes, mask parsing and the simple-connectivity checks that
// Thurston's height function relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/domino/square_domain.hpp"

namespace {

using portamc::testing::expect_error;
using portamc::tilings::SquareDomain;

int row_length(const SquareDomain& d, int r) {
  int n = 0;
  for (int c = 0; c < d.cols(); ++c) n += d.contains(r, c);
  return n;
}

TEST(DominoDomain, RectangleHasAllFacesAndBalancedColoursWhenEven) {
  const SquareDomain d = SquareDomain::rectangle(3, 4);
  EXPECT_EQ(d.face_count(), 12u);
  EXPECT_EQ(d.black_count(), 6u);
  EXPECT_EQ(d.reference_row(), 0);
  EXPECT_EQ(d.reference_col(), 0);
  EXPECT_TRUE(d.is_interior_vertex(1, 1));
  EXPECT_TRUE(d.is_boundary_vertex(0, 2));
  EXPECT_TRUE(d.is_boundary_vertex(3, 4));
  EXPECT_FALSE(d.contains(-1, 0));
  EXPECT_FALSE(d.contains(3, 0));
}

TEST(DominoDomain, AztecDiamondRowsAre2To2nAndBack) {
  for (int n = 1; n <= 6; ++n) {
    const SquareDomain d = SquareDomain::aztec_diamond(n);
    ASSERT_EQ(d.rows(), 2 * n);
    EXPECT_EQ(d.face_count(), static_cast<std::size_t>(2 * n * (n + 1)));
    EXPECT_EQ(d.black_count(), d.white_count());
    for (int r = 0; r < n; ++r) {
      EXPECT_EQ(row_length(d, r), 2 * (r + 1)) << "n = " << n << ", row " << r;
      EXPECT_EQ(row_length(d, 2 * n - 1 - r), 2 * (r + 1)) << "n = " << n << ", row " << r;
    }
    // |x| + |y| <= n for face centres (c + 1/2 - n, n - r - 1/2).
    for (int r = 0; r < 2 * n; ++r) {
      for (int c = 0; c < 2 * n; ++c) {
        const double x = c + 0.5 - n;
        const double y = n - r - 0.5;
        EXPECT_EQ(d.contains(r, c), std::abs(x) + std::abs(y) <= n) << r << "," << c;
      }
    }
  }
}

TEST(DominoDomain, AztecRectangleHasImbalanceBMinusA) {
  for (int a = 1; a <= 4; ++a) {
    for (int b = a; b <= 6; ++b) {
      const SquareDomain d = SquareDomain::aztec_rectangle(a, b);
      EXPECT_EQ(d.face_count(), static_cast<std::size_t>(2 * a * b + a + b));
      const long diff = static_cast<long>(d.black_count()) - static_cast<long>(d.white_count());
      EXPECT_EQ(std::labs(diff), b - a) << a << " x " << b;
      if (a == b) EXPECT_EQ(d.to_mask(), SquareDomain::aztec_diamond(a).to_mask());
    }
  }
}

TEST(DominoDomain, MaskRoundTripsAndIgnoresOuterBlankLines) {
  const std::string mask = "##..\n####\n.###\n";
  const SquareDomain d = SquareDomain::from_mask("\n" + mask + "\n\n");
  EXPECT_EQ(d.rows(), 3);
  EXPECT_EQ(d.cols(), 4);
  EXPECT_EQ(d.face_count(), 9u);
  EXPECT_EQ(d.to_mask(), mask);
  const SquareDomain e = SquareDomain::from_mask("..#\n.##\n");
  EXPECT_EQ(e.reference_row(), 0);
  EXPECT_EQ(e.reference_col(), 2);
}

TEST(DominoDomain, MalformedMasksNameLineAndColumn) {
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("##\n#x\n"); },
                                      {"'x'", "line 2", "column 2"});
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("###\n##\n"); },
                                      {"line 2", "2 columns", "expected 3"});
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("##\n\n##\n"); }, {"line 2"});
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("\n\n"); }, {"empty"});
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("...\n"); }, {"no faces"});
}

TEST(DominoDomain, HolesAndCornerContactsAreRejectedWithTheirPlace) {
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("###\n#.#\n###\n"); },
                                      {"simply connected", "(1, 1)"});
  // A ring closed only through a corner contact at the vertex between (1,2) and (2,3) still
  // encloses cell (2, 2).
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("####\n#..#\n#.#.\n###.\n"); },
                                      {"(1, 1)", "corner"});
  expect_error<std::invalid_argument>([] { SquareDomain::from_mask("#.\n.#\n"); },
                                      {"4-connected", "(1, 1)"});
  expect_error<std::invalid_argument>([] { SquareDomain::aztec_diamond(0); }, {"n = 0"});
  expect_error<std::invalid_argument>([] { SquareDomain::rectangle(2, -1); }, {"2 x -1"});
  expect_error<std::invalid_argument>([] { SquareDomain(2, 2, {1, 1, 1}); }, {"3 face flags"});
}

}  // namespace

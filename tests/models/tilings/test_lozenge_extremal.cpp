// Tests of Thurston's algorithm: the extremal tilings of hexagons are the empty and the full
// box, and untileable domains are reported with the boundary vertices that prove it.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"
#include "portamc/tilings/lozenge/lozenge_heights.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;

TEST(LozengeExtremal, HexagonExtremesAreTheEmptyAndTheFullBox) {
  for (int a = 1; a <= 4; ++a) {
    for (int b = 1; b <= 4; ++b) {
      for (int c = 1; c <= 4; ++c) {
        const TriangularDomain hex = TriangularDomain::hexagon(a, b, c);
        const LozengeTiling low = minimal_tiling(hex), high = maximal_tiling(hex);
        EXPECT_EQ(volume_above_minimum(hex, low), 0);
        EXPECT_EQ(volume_above_minimum(hex, high), a * b * c) << a << b << c;
        // Nothing can be removed from the empty box or added to the full one.
        for (int y = 0; y <= hex.height(); ++y) {
          for (int x = 0; x <= hex.width(); ++x) {
            EXPECT_GE(low.rotation_direction(x, y), 0);
            EXPECT_LE(high.rotation_direction(x, y), 0);
          }
        }
      }
    }
  }
}

TEST(LozengeExtremal, LargeHexagonIsFast) {
  // Linear-time construction: a 40x40x40 hexagon (4800 triangle pairs) in well under a second.
  const TriangularDomain hex = TriangularDomain::hexagon(40, 40, 40);
  EXPECT_EQ(volume_between(hex, minimal_heights(hex), maximal_heights(hex)), 40 * 40 * 40);
}

TEST(LozengeExtremal, UntileableDomainIsReportedWithBoundaryVertices) {
  // A side-2 up triangle (3 up, 1 down) glued along one unit edge to a side-2 down triangle
  // (1 up, 3 down): balanced and simply connected, but D(2,0) and D(2,1) both need U(2,1).
  const TriangularDomain domain = TriangularDomain::from_mask(
      "#.....\n"
      "######\n"
      ".....#\n");
  EXPECT_EQ(count_lozenge_tilings(domain), 0u);
  EXPECT_FALSE(is_tileable(domain));
  expect_error<std::invalid_argument>([&] { maximal_tiling(domain); },
                                      {"not tileable", "boundary heights at vertices", "("});
  expect_error<std::invalid_argument>([&] { minimal_heights(domain); }, {"not tileable"});
}

TEST(LozengeExtremal, ASingleLozengeHasOneTiling) {
  for (const char* mask : {"##\n", "#.\n.#\n", ".##.\n"}) {
    const TriangularDomain domain = TriangularDomain::from_mask(mask);
    EXPECT_TRUE(is_tileable(domain)) << mask;
    EXPECT_EQ(maximal_tiling(domain), minimal_tiling(domain)) << mask;
    EXPECT_EQ(count_lozenge_tilings(domain), 1u) << mask;
  }
}

}  // namespace

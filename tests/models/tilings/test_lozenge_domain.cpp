// Tests of TriangularDomain: the hexagon's shape, the mask format, and the checks that reject
// domains no lozenge tiling or height function could live on, each saying where.
#include "portamc/tilings/lozenge/triangular_domain.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "../../common/expect_error.hpp"

namespace {

using portamc::testing::expect_error;
using portamc::tilings::TriangularDomain;

TEST(LozengeDomain, HexagonHasTheTriangleAndVertexCountsOfTheBox) {
  for (int a = 1; a <= 3; ++a) {
    for (int b = 1; b <= 3; ++b) {
      for (int c = 1; c <= 4; ++c) {
        const TriangularDomain hex = TriangularDomain::hexagon(a, b, c);
        EXPECT_EQ(hex.triangle_pairs(), a * b + b * c + c * a);
        int interior = 0;
        for (int y = 0; y <= hex.height(); ++y) {
          for (int x = 0; x <= hex.width(); ++x) interior += hex.is_interior_vertex(x, y);
        }
        // Euler's formula for a simply connected triangulated polygon with 2(ab+bc+ca) faces
        // and 2(a+b+c) boundary edges.
        EXPECT_EQ(interior, a * b + b * c + c * a - (a + b + c) + 1) << a << b << c;
      }
    }
  }
}

TEST(LozengeDomain, MaskOfTheSmallestHexagonAndRoundTrip) {
  EXPECT_EQ(TriangularDomain::hexagon(1, 1, 1).to_mask(), "###.\n.###\n");
  const TriangularDomain hex = TriangularDomain::hexagon(2, 3, 4);
  const TriangularDomain again = TriangularDomain::from_mask(hex.to_mask());
  EXPECT_EQ(again.up_flags(), hex.up_flags());
  EXPECT_EQ(again.down_flags(), hex.down_flags());
  // Windows line ends and a missing final newline are accepted.
  const TriangularDomain crlf = TriangularDomain::from_mask("###.\r\n.###");
  EXPECT_EQ(crlf.to_mask(), "###.\n.###\n");
}

TEST(LozengeDomain, MalformedMasksNameLineAndColumn) {
  expect_error<std::invalid_argument>([] { TriangularDomain::from_mask("###.\n.#x#\n"); },
                                      {"line 2", "column 3", "'x'"});
  expect_error<std::invalid_argument>([] { TriangularDomain::from_mask("###\n"); },
                                      {"line 1", "even"});
  expect_error<std::invalid_argument>([] { TriangularDomain::from_mask("###.\n.###..\n"); },
                                      {"line 2", "length 6", "length 4"});
  expect_error<std::invalid_argument>([] { TriangularDomain::from_mask(""); }, {"no rows"});
  expect_error<std::invalid_argument>([] { TriangularDomain::hexagon(2, 0, 1); }, {"sides"});
}

TEST(LozengeDomain, RejectsEmptyUnbalancedAndDisconnectedDomains) {
  expect_error<std::invalid_argument>([] { TriangularDomain::from_mask("....\n"); }, {"empty"});
  expect_error<std::invalid_argument>([] { TriangularDomain::from_mask("#.\n"); },
                                      {"unbalanced", "1 up", "0 down"});
  expect_error<std::invalid_argument>([] { TriangularDomain::from_mask("##..##\n"); },
                                      {"not connected", "(2, 0)", "(0, 0)"});
}

// The 2x2x2 hexagon's mask with the triangles of the given (up, x, y) list removed.
std::string hexagon_222_without(std::initializer_list<std::tuple<bool, int, int>> removed) {
  std::string mask = TriangularDomain::hexagon(2, 2, 2).to_mask();
  const int line_length = 2 * 4 + 1, height = 4;
  for (const auto& [up, x, y] : removed) {
    mask[(height - 1 - y) * line_length + 2 * x + (up ? 0 : 1)] = '.';
  }
  return mask;
}

TEST(LozengeDomain, ReportsHolesAndPinchPoints) {
  // Without the six triangles around its centre (2, 2) the hexagon is an annulus.
  const std::string annulus = hexagon_222_without(
      {{true, 2, 2}, {false, 1, 2}, {true, 1, 2}, {false, 1, 1}, {true, 2, 1}, {false, 2, 1}});
  expect_error<std::invalid_argument>([&] { TriangularDomain::from_mask(annulus); },
                                      {"not simply connected", "hole", "down triangle (1, 1)"});
  // Removing two non-adjacent triangles of the centre's star leaves it touching itself there.
  const std::string pinched = hexagon_222_without({{true, 1, 2}, {false, 2, 1}});
  expect_error<std::invalid_argument>([&] { TriangularDomain::from_mask(pinched); },
                                      {"not simply connected", "vertex (2, 2)"});
  // Removing one lozenge from the bottom side cuts a notch, not a hole.
  EXPECT_NO_THROW(TriangularDomain::from_mask(hexagon_222_without({{true, 2, 0}, {false, 2, 0}})));
  // The same lozenge inside the hexagon is a hole.
  expect_error<std::invalid_argument>(
      [] {
        TriangularDomain::from_mask(hexagon_222_without({{true, 1, 2}, {false, 1, 2}}));
      },
      {"hole", "up triangle (1, 2)"});
}

}  // namespace

// Tests of LozengeTiling, the height function and elementary rotations on all tilings of small
// hexagons (exhaustive, so every local configuration those domains allow is exercised).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"
#include "portamc/tilings/lozenge/lozenge_heights.hpp"
#include "portamc/tilings/lozenge/lozenge_tiling.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;

TEST(LozengeTiling, ValidationNamesTheBadTriangle) {
  const TriangularDomain hex = TriangularDomain::hexagon(1, 1, 1);  // "###." over ".###"
  const std::vector<LozengeTiling> all = list_lozenge_tilings(hex, 10);
  ASSERT_EQ(all.size(), 2u);
  for (const LozengeTiling& t : all) EXPECT_TRUE(is_valid_tiling(hex, t));

  LozengeTiling bad = all[0];
  bad.set_partner(1, 1, 7);
  expect_error<std::invalid_argument>([&] { validate_tiling(hex, bad); },
                                      {"up triangle (1, 1)", "invalid partner 7"});
  bad = all[0];
  bad.set_partner(1, 1, 0);  // D(1,1) is not in the hexagon
  expect_error<std::invalid_argument>([&] { validate_tiling(hex, bad); },
                                      {"up triangle (1, 1)", "(1, 1)", "not in the domain"});
  bad = all[0];
  bad.set_partner(0, 0, 0);  // U(0,0) is not in the hexagon
  expect_error<std::invalid_argument>([&] { validate_tiling(hex, bad); },
                                      {"cell (0, 0)", "not in the domain"});
  // U(1,0) (partner 1) and U(0,1) (partner 2) both claim D(0,0).
  bad = all[0];
  bad.set_partner(1, 0, 1);
  bad.set_partner(0, 1, 2);
  expect_error<std::invalid_argument>([&] { validate_tiling(hex, bad); },
                                      {"down triangle (0, 0)", "twice"});
}

TEST(LozengeTiling, HeightsRoundTripAndRespectTheConventions) {
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 3);
  const LozengeHeights boundary = boundary_heights(hex);
  std::uint64_t seen = 0;
  for_each_lozenge_tiling(hex, [&](const LozengeTiling& tiling) {
    ++seen;
    const LozengeHeights h = heights_from_tiling(hex, tiling);
    ASSERT_TRUE(is_valid_heights(hex, h));
    EXPECT_EQ(tiling_from_heights(hex, h), tiling);
    for (int y = 0; y <= hex.height(); ++y) {
      for (int x = 0; x <= hex.width(); ++x) {
        if (!hex.contains_vertex(x, y)) continue;
        EXPECT_EQ(((h.at(x, y) - (x - y)) % 3 + 3) % 3, 0) << x << "," << y;
        if (!hex.is_interior_vertex(x, y)) EXPECT_EQ(h.at(x, y), boundary.at(x, y));
      }
    }
  });
  EXPECT_EQ(seen, 50u);  // MacMahon for 2x2x3
}

TEST(LozengeTiling, InvalidHeightsAreReportedWithTheirEdge) {
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 2);
  const LozengeHeights good = heights_from_tiling(hex, list_lozenge_tilings(hex, 100)[0]);
  LozengeHeights bad = good;
  bad.at(2, 2) += 1;  // breaks h = x - y mod 3 at the centre
  expect_error<std::invalid_argument>([&] { validate_heights(hex, bad); },
                                      {"vertex (2, 2)", "step"});
  bad = good;
  bad.at(0, 0) = 0;  // (0, 0) is outside the 2x2x2 hexagon
  expect_error<std::invalid_argument>([&] { validate_heights(hex, bad); },
                                      {"vertex (0, 0)", "outside"});
  bad = good;
  for (int& h : bad.values) {
    if (h != no_height) h += 3;  // a consistent shift still violates the base height
  }
  expect_error<std::invalid_argument>([&] { validate_heights(hex, bad); }, {"base", "height"});
}

TEST(LozengeTiling, VertexColouringIsProper) {
  const int step_x[6] = {1, 0, -1, -1, 0, 1}, step_y[6] = {0, 1, 1, 0, -1, -1};
  for (int y = -4; y <= 4; ++y) {
    for (int x = -4; x <= 4; ++x) {
      for (int i = 0; i < 6; ++i) {
        EXPECT_NE(vertex_colour(x, y), vertex_colour(x + step_x[i], y + step_y[i]));
      }
    }
  }
}

TEST(LozengeTiling, RotationsChangeExactlyOneHeightByThree) {
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 2);
  int rotations = 0;
  for_each_lozenge_tiling(hex, [&](const LozengeTiling& tiling) {
    const LozengeHeights before = heights_from_tiling(hex, tiling);
    for (int y = -1; y <= hex.height() + 1; ++y) {
      for (int x = -1; x <= hex.width() + 1; ++x) {
        const int direction = tiling.rotation_direction(x, y);
        LozengeTiling turned = tiling;
        if (direction == 0) {
          EXPECT_FALSE(turned.rotate(x, y, 1) || turned.rotate(x, y, -1));
          EXPECT_EQ(turned, tiling);
          continue;
        }
        ++rotations;
        ASSERT_TRUE(hex.is_interior_vertex(x, y));
        EXPECT_FALSE(turned.rotate(x, y, -direction));
        ASSERT_TRUE(turned.rotate(x, y, direction));
        const LozengeHeights after = heights_from_tiling(hex, turned);  // validates
        for (int v = 0; v < hex.vertex_count(); ++v) {
          const int expected = v == hex.vertex_index(x, y) ? 3 * direction : 0;
          if (before.values[v] != no_height) {
            EXPECT_EQ(after.values[v] - before.values[v], expected);
          }
        }
        EXPECT_EQ(turned.rotation_direction(x, y), -direction);
        ASSERT_TRUE(turned.rotate(x, y, -direction));
        EXPECT_EQ(turned, tiling);
      }
    }
  });
  EXPECT_GT(rotations, 20);  // every one of the 20 tilings has at least one rotatable vertex
}

TEST(LozengeTiling, RotationsAtOneColourCommute) {
  // What a parallel sweep over one colour relies on: the result is independent of the order.
  const TriangularDomain hex = TriangularDomain::hexagon(3, 2, 3);
  for_each_lozenge_tiling(hex, [&](const LozengeTiling& tiling) {
    for (int colour = 0; colour < 3; ++colour) {
      for (int direction : {1, -1}) {
        LozengeTiling forward = tiling, backward = tiling;
        for (int y = 0; y <= hex.height(); ++y) {
          for (int x = 0; x <= hex.width(); ++x) {
            if (vertex_colour(x, y) == colour) forward.rotate(x, y, direction);
          }
        }
        for (int y = hex.height(); y >= 0; --y) {
          for (int x = hex.width(); x >= 0; --x) {
            if (vertex_colour(x, y) == colour) backward.rotate(x, y, direction);
          }
        }
        EXPECT_EQ(forward, backward);
        EXPECT_TRUE(is_valid_tiling(hex, forward));
      }
    }
  });
}

}  // namespace

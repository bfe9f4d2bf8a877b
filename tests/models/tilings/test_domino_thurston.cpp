// Thurston's algorithm against brute force: the maximal/minimal height functions are the
// pointwise max/min over all enumerated tilings, every tiling is reachable from the minimum by
// up-rotations, rotations move one height by 4, and untileable domains are reported with a place.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <set>
#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"
#include "portamc/tilings/domino/thurston.hpp"

namespace {

using portamc::testing::expect_error;
using namespace portamc::tilings;

// An Aztec diamond of order 3 with a block attached: 192 tilings.
const char* const kIrregular =
    "..##....\n"
    ".####...\n"
    "######..\n"
    "######..\n"
    ".#######\n"
    "..##.###\n";

std::vector<SquareDomain> small_domains() {
  return {SquareDomain::aztec_diamond(3), SquareDomain::aztec_diamond(4),
          SquareDomain::rectangle(4, 4),  SquareDomain::rectangle(3, 6),
          SquareDomain::rectangle(2, 7),  SquareDomain::from_mask(kIrregular)};
}

TEST(DominoThurston, ExtremalHeightsArePointwiseExtremaOverAllTilings) {
  for (const SquareDomain& d : small_domains()) {
    SCOPED_TRACE(d.to_mask());
    ASSERT_TRUE(domino_tileability(d).tileable) << domino_tileability(d).reason;
    std::vector<int> hi(d.vertex_count(), INT_MIN), lo(d.vertex_count(), INT_MAX);
    for_each_domino_tiling(d, [&](const DominoTiling& t) {
      const std::vector<int> h = heights_from_tiling(d, t);
      for (std::size_t k = 0; k < h.size(); ++k) {
        hi[k] = std::max(hi[k], h[k]);
        lo[k] = std::min(lo[k], h[k]);
      }
    });
    EXPECT_EQ(maximal_domino_heights(d), hi);
    EXPECT_EQ(minimal_domino_heights(d), lo);
    const DominoTiling top = maximal_domino_tiling(d);
    const DominoTiling bottom = minimal_domino_tiling(d);
    EXPECT_EQ(domino_tiling_error(d, top), "");
    EXPECT_EQ(domino_tiling_error(d, bottom), "");
    EXPECT_EQ(heights_from_tiling(d, top), hi);
    for (int i = 0; i < d.vertex_rows(); ++i) {
      for (int j = 0; j < d.vertex_cols(); ++j) {
        EXPECT_NE(rotation_direction(d, top, i, j), +1);
        EXPECT_NE(rotation_direction(d, bottom, i, j), -1);
      }
    }
  }
}

TEST(DominoThurston, EveryTilingIsReachableFromTheMinimumByUpRotations) {
  for (const SquareDomain& d : small_domains()) {
    SCOPED_TRACE(d.to_mask());
    std::set<std::vector<std::uint8_t>> all;
    for_each_domino_tiling(d, [&](const DominoTiling& t) { all.insert(t.partner); });
    std::set<std::vector<std::uint8_t>> reached;
    std::deque<DominoTiling> queue{minimal_domino_tiling(d)};
    reached.insert(queue.front().partner);
    while (!queue.empty()) {
      const DominoTiling t = queue.front();
      queue.pop_front();
      for (int i = 1; i < d.rows(); ++i) {
        for (int j = 1; j < d.cols(); ++j) {
          DominoTiling up = t;
          if (rotate(d, up, i, j, +1) && reached.insert(up.partner).second) queue.push_back(up);
        }
      }
    }
    EXPECT_EQ(reached, all);
  }
}

TEST(DominoThurston, RotationsMoveOnlyTheirVertexByFour) {
  const SquareDomain d = SquareDomain::aztec_diamond(3);
  int rotations = 0;
  for_each_domino_tiling(d, [&](const DominoTiling& t) {
    const std::vector<int> h = heights_from_tiling(d, t);
    for (int i = 0; i < d.vertex_rows(); ++i) {
      for (int j = 0; j < d.vertex_cols(); ++j) {
        const int sign = rotation_direction(d, t, i, j);
        DominoTiling wrong = t;
        EXPECT_FALSE(rotate(d, wrong, i, j, sign == 0 ? 1 : -sign));
        EXPECT_EQ(wrong, t);
        if (sign == 0) continue;
        DominoTiling moved = t;
        ASSERT_TRUE(rotate(d, moved, i, j, sign));
        ++rotations;
        std::vector<int> expected = h;
        expected[d.vertex_index(i, j)] += 4 * sign;
        EXPECT_EQ(heights_from_tiling(d, moved), expected);
        ASSERT_TRUE(rotate(d, moved, i, j, -sign));
        EXPECT_EQ(moved, t);
      }
    }
  });
  EXPECT_GT(rotations, 64);
  expect_error<std::invalid_argument>(
      [&] {
        DominoTiling t = minimal_domino_tiling(d);
        rotate(d, t, 1, 1, 0);
      },
      {"sign 0"});
}

TEST(DominoThurston, RotationsAtOneVertexColourCommute) {
  // What a parallel kernel relies on: sweeping one colour in either order gives the same tiling.
  const SquareDomain d = SquareDomain::aztec_diamond(4);
  for_each_domino_tiling(d, [&](const DominoTiling& t) {
    for (int colour = 0; colour < 2; ++colour) {
      DominoTiling forward = t, backward = t;
      for (int k = 0; k < static_cast<int>(d.vertex_count()); ++k) {
        const int i = k / d.vertex_cols(), j = k % d.vertex_cols();
        if (SquareDomain::vertex_colour(i, j) == colour) rotate(d, forward, i, j, +1);
        const int kb = static_cast<int>(d.vertex_count()) - 1 - k;
        const int ib = kb / d.vertex_cols(), jb = kb % d.vertex_cols();
        if (SquareDomain::vertex_colour(ib, jb) == colour) rotate(d, backward, ib, jb, +1);
      }
      ASSERT_EQ(forward, backward);
    }
  });
}

TEST(DominoThurston, LargeAztecDiamondExtremaAreValidAndOrdered) {
  const SquareDomain d = SquareDomain::aztec_diamond(150);
  const std::vector<int> hi = maximal_domino_heights(d);
  const std::vector<int> lo = minimal_domino_heights(d);
  EXPECT_EQ(height_function_error(d, hi), "");
  EXPECT_EQ(height_function_error(d, lo), "");
  EXPECT_TRUE(std::equal(lo.begin(), lo.end(), hi.begin(), std::less_equal<int>()));
  EXPECT_NE(lo, hi);
}

TEST(DominoThurston, UntileableDomainsAreReportedWithAPlace) {
  const SquareDomain odd = SquareDomain::from_mask("###\n");
  const DominoTileability imbalance = domino_tileability(odd);
  EXPECT_FALSE(imbalance.tileable);
  EXPECT_NE(imbalance.reason.find("2 black and 1 white"), std::string::npos) << imbalance.reason;
  expect_error<std::invalid_argument>([&] { maximal_domino_tiling(odd); }, {"2 black", "1 white"});
  expect_error<std::invalid_argument>(
      [] { minimal_domino_heights(SquareDomain::aztec_rectangle(2, 3)); }, {"colour imbalance"});

  // Balanced (3 + 3) but faces (1, 0) and (0, 1) both need (1, 1) as partner.
  const SquareDomain cross = SquareDomain::from_mask(".#..\n####\n..#.\n");
  ASSERT_EQ(cross.black_count(), cross.white_count());
  ASSERT_EQ(count_domino_tilings(cross), 0u);
  const DominoTileability report = domino_tileability(cross);
  EXPECT_FALSE(report.tileable);
  ASSERT_TRUE(cross.is_boundary_vertex(report.vertex_row, report.vertex_col));
  const std::string where =
      "(" + std::to_string(report.vertex_row) + ", " + std::to_string(report.vertex_col) + ")";
  EXPECT_NE(report.reason.find("boundary vertex " + where), std::string::npos) << report.reason;
  expect_error<std::invalid_argument>([&] { maximal_domino_heights(cross); },
                                      {"not tileable", where});
  expect_error<std::invalid_argument>([&] { minimal_domino_tiling(cross); }, {"not tileable"});

  // Every balanced, simply connected mask in a 3 x 4 box: Thurston agrees with brute force.
  int checked = 0;
  for (unsigned bits = 1; bits < (1u << 12); ++bits) {
    std::vector<std::uint8_t> faces(12);
    for (int k = 0; k < 12; ++k) faces[k] = (bits >> k) & 1;
    try {
      const SquareDomain d(3, 4, faces);
      if (d.black_count() != d.white_count()) continue;
      EXPECT_EQ(domino_tileability(d).tileable, count_domino_tilings(d) > 0) << d.to_mask();
      ++checked;
    } catch (const std::invalid_argument&) {
      // not simply connected
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace

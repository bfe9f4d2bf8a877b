// Height functions: a hand-computed example, the bijection tiling <-> height function over all
// tilings of small domains, fixed boundary values and residues mod 4, and the checkers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"

namespace {

using portamc::testing::expect_error;
using namespace portamc::tilings;

std::vector<SquareDomain> small_domains() {
  return {SquareDomain::aztec_diamond(3), SquareDomain::rectangle(4, 4),
          SquareDomain::rectangle(3, 6),
          SquareDomain::from_mask("..##....\n.####...\n######..\n######..\n.#######\n..##.###\n")};
}

TEST(DominoHeights, TwoByTwoByHand) {
  // Faces (0,0), (1,1) black. Boundary walk from (0,0): 0, -1, 0 along the top, 1, 0 down the
  // left, -1, 0 along the bottom, 1 on the right; the centre is 2 under two horizontal dominoes
  // (the edge above it is a domino middle: +3 instead of -1) and -2 under two vertical ones.
  const SquareDomain d = SquareDomain::rectangle(2, 2);
  DominoTiling horizontal = DominoTiling::empty_for(d);
  place_domino(horizontal, 0, 0, direction::east);
  place_domino(horizontal, 1, 0, direction::east);
  DominoTiling vertical = DominoTiling::empty_for(d);
  place_domino(vertical, 0, 0, direction::south);
  place_domino(vertical, 0, 1, direction::south);
  const std::vector<int> expected_h = {0, -1, 0, 1, 2, 1, 0, -1, 0};
  const std::vector<int> expected_v = {0, -1, 0, 1, -2, 1, 0, -1, 0};
  EXPECT_EQ(heights_from_tiling(d, horizontal), expected_h);
  EXPECT_EQ(heights_from_tiling(d, vertical), expected_v);
  std::vector<int> boundary = expected_h;
  boundary[4] = 0;
  EXPECT_EQ(domino_boundary_heights(d), boundary);
  EXPECT_EQ(rotation_direction(d, horizontal, 1, 1), -1);
  EXPECT_EQ(rotation_direction(d, vertical, 1, 1), +1);
}

TEST(DominoHeights, EveryTilingRoundTripsWithFixedBoundaryAndResidues) {
  for (const SquareDomain& d : small_domains()) {
    const std::vector<int> boundary = domino_boundary_heights(d);
    std::vector<int> first;
    std::size_t tilings = 0;
    for_each_domino_tiling(d, [&](const DominoTiling& t) {
      ++tilings;
      const std::vector<int> h = heights_from_tiling(d, t);
      ASSERT_EQ(height_function_error(d, h), "");
      ASSERT_EQ(tiling_from_heights(d, h), t);
      if (first.empty()) first = h;
      for (int i = 0; i < d.vertex_rows(); ++i) {
        for (int j = 0; j < d.vertex_cols(); ++j) {
          const std::size_t k = d.vertex_index(i, j);
          if (d.is_boundary_vertex(i, j)) ASSERT_EQ(h[k], boundary[k]) << i << "," << j;
          ASSERT_EQ(((h[k] - first[k]) % 4 + 4) % 4, 0) << i << "," << j;
        }
      }
    });
    EXPECT_GT(tilings, 1u);
  }
}

TEST(DominoHeights, RaisingAVertexBy4IsValidExactlyWhereAnUpRotationIs) {
  const SquareDomain d = SquareDomain::rectangle(4, 4);
  int valid_raises = 0;
  for_each_domino_tiling(d, [&](const DominoTiling& t) {
    const std::vector<int> h = heights_from_tiling(d, t);
    for (int i = 0; i < d.vertex_rows(); ++i) {
      for (int j = 0; j < d.vertex_cols(); ++j) {
        if (!d.has_vertex(i, j)) continue;
        std::vector<int> raised = h;
        raised[d.vertex_index(i, j)] += 4;
        const bool valid = is_height_function(d, raised);
        EXPECT_EQ(valid, rotation_direction(d, t, i, j) == +1) << i << "," << j;
        valid_raises += valid;
        std::vector<int> nudged = h;
        nudged[d.vertex_index(i, j)] += 2;
        EXPECT_FALSE(is_height_function(d, nudged));
      }
    }
  });
  EXPECT_GT(valid_raises, 0);
}

TEST(DominoHeights, CheckersNameTheProblem) {
  const SquareDomain d = SquareDomain::rectangle(2, 2);
  DominoTiling t = DominoTiling::empty_for(d);
  expect_error<std::invalid_argument>([&] { heights_from_tiling(d, t); },
                                      {"face (0, 0)", "no partner"});
  t.set(0, 0, direction::north);
  EXPECT_NE(domino_tiling_error(d, t).find("outside the domain"), std::string::npos);
  t.set(0, 0, direction::east);
  t.set(0, 1, direction::south);
  EXPECT_NE(domino_tiling_error(d, t).find("does not point back"), std::string::npos);
  DominoTiling small;
  EXPECT_NE(domino_tiling_error(d, small).find("does not match"), std::string::npos);

  std::vector<int> h = {0, -1, 0, 1, 2, 1, 0, -1, 0};
  h[0] = 4;
  EXPECT_NE(height_function_error(d, h).find("reference"), std::string::npos);
  h = {0, -1, 0, 1, 2, 1, 0, -1, 4};  // boundary vertex (2, 2) moved
  EXPECT_NE(height_function_error(d, h).find("boundary edge"), std::string::npos);
  expect_error<std::invalid_argument>([&] { tiling_from_heights(d, h); }, {"vertex (2, 2)"});
  expect_error<std::invalid_argument>([&] { tiling_from_heights(d, {0, 1}); }, {"2 entries"});
}

}  // namespace

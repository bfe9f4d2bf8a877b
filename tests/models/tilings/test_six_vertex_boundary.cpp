// Six-vertex boundaries and states: domain-wall heights, boundaries from steps and from text,
// the Lipschitz envelopes as extremal states, conversions to arrows and alternating-sign
// matrices, and the errors for boundaries that are malformed or admit no state.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_arrows.hpp"
#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"
#include "portamc/tilings/six_vertex/six_vertex_enumeration.hpp"
#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;

// A 4 x 6 block with a boundary that is neither flat nor domain-wall.
const char* const irregular_boundary =
    "# heights of the 5 x 7 faces; '.' marks the free interior\n"
    "0 1 2 1 2 3 4\n"
    "1 . . . . . 3\n"
    "2 . . . . . 2\n"
    "1 . . . . . 1\n"
    "0 1 0 1 2 1 0\n";

TEST(SixVertexBoundary, DomainWallHeightsAndExtremes) {
  const SixVertexBoundary dw = SixVertexBoundary::domain_wall(4);
  EXPECT_TRUE(dw.is_domain_wall());
  EXPECT_EQ(dw.height(0, 3), 3);
  EXPECT_EQ(dw.height(4, 1), 3);
  EXPECT_EQ(dw.height(2, 4), 2);
  EXPECT_EQ(dw.height(4, 4), 0);
  EXPECT_THROW(dw.height(2, 2), std::out_of_range);
  // Maximal state: the anti-diagonal permutation matrix; minimal: the identity.
  std::vector<int> identity(16, 0), anti(16, 0);
  for (int k = 0; k < 4; ++k) {
    identity[k * 4 + k] = 1;
    anti[k * 4 + 3 - k] = 1;
  }
  EXPECT_EQ(alternating_sign_matrix(minimal_six_vertex_heights(dw)), identity);
  EXPECT_EQ(alternating_sign_matrix(maximal_six_vertex_heights(dw)), anti);
}

TEST(SixVertexBoundary, ExtremesBoundEveryStateAndAreStates) {
  for (const SixVertexBoundary& b :
       {SixVertexBoundary::domain_wall(4), SixVertexBoundary::from_text(irregular_boundary)}) {
    const SixVertexHeights high = maximal_six_vertex_heights(b);
    const SixVertexHeights low = minimal_six_vertex_heights(b);
    validate_six_vertex_heights(b, high);
    validate_six_vertex_heights(b, low);
    bool saw_high = false, saw_low = false;
    for_each_six_vertex_state(b, [&](const SixVertexHeights& h) {
      validate_six_vertex_heights(b, h);
      for (std::size_t f = 0; f < h.values().size(); ++f) {
        EXPECT_LE(h.values()[f], high.values()[f]);
        EXPECT_GE(h.values()[f], low.values()[f]);
      }
      saw_high = saw_high || h == high;
      saw_low = saw_low || h == low;
    });
    EXPECT_TRUE(saw_high && saw_low);
  }
}

TEST(SixVertexBoundary, TextStepsAndFileAgree) {
  const SixVertexBoundary from_text = SixVertexBoundary::from_text(irregular_boundary);
  EXPECT_EQ(from_text.rows(), 4);
  EXPECT_EQ(from_text.cols(), 6);
  // Clockwise from (0, 0): top, right column down, bottom right to left, left column up.
  const SixVertexBoundary from_steps =
      SixVertexBoundary::from_steps(4, 6, "++-+++ ---- ++--+- ++--");
  EXPECT_TRUE(from_text == from_steps);
  const std::string path = std::string(PORTAMC_BINARY_DIR) + "/six_vertex_boundary_test.txt";
  std::ofstream(path) << irregular_boundary;
  EXPECT_TRUE(SixVertexBoundary::from_file(path) == from_text);
  std::remove(path.c_str());
  EXPECT_FALSE(from_text.is_domain_wall());
  EXPECT_TRUE(SixVertexBoundary::from_steps(3, 3,
                                            "+++---"
                                            "+++---") == SixVertexBoundary::domain_wall(3));
}

TEST(SixVertexBoundary, MalformedBoundariesAreNamed) {
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_text("0 1 2\n1 . 3\n2 1 0\n"); },
                                      {"(1, 2)", "(2, 2)", "exactly +-1"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_text("0 1 2\n1 5 1\n2 1 0\n"); },
                                      {"line 2, token 2", "(1, 1)", "'.'"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_text("0 1 x\n1 . 1\n2 1 0\n"); },
                                      {"line 1, token 3", "integer"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_text("0 1 2\n1 . 1\n2 1\n"); },
                                      {"line 3", "2 tokens"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_steps(2, 2, "++++----+"); },
                                      {"9 steps", "need 2 (rows + cols) = 8"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_steps(2, 2, "+++++---"); },
                                      {"sum to 2", "does not close"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_steps(2, 2, "++*+----"); },
                                      {"'*'", "position 2"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::domain_wall(0); }, {"n must be"});
  expect_error<std::invalid_argument>([] { SixVertexBoundary::from_file("/nonexistent/b.txt"); },
                                      {"cannot read", "/nonexistent/b.txt"});
}

TEST(SixVertexBoundary, InfeasibleBoundaryNamesTheConflict) {
  // The top row climbs by 4 and the bottom row, 2 rows below, climbs by 4 the other way round
  // the ring: faces (1, 0) and (1, 4) are 4 apart but their heights differ by 6.
  const std::string text =
      "0 1 2 3 4\n"
      "-1 . . . 5\n"
      "0 1 2 3 4\n";
  for (const auto& make : {+[](const std::string& t) { return SixVertexBoundary::from_text(t); },
                           +[](const std::string&) {
                             return SixVertexBoundary::from_steps(2, 4, "++++ +- ---- -+");
                           }}) {
    expect_error<std::invalid_argument>(
        [&] { make(text); },
        {"infeasible", "(1, 0)", "(1, 4)", "at distance 4", "no six-vertex state"});
  }
  EXPECT_EQ(count_six_vertex_states(SixVertexBoundary::from_steps(2, 4, "++++ +- ---- +-")), 1u);
}

TEST(SixVertexBoundary, ArrowsRoundTripAndIceRule) {
  const SixVertexBoundary b = SixVertexBoundary::from_text(irregular_boundary);
  for_each_six_vertex_state(b, [&](const SixVertexHeights& h) {
    const SixVertexArrows arrows = arrows_from_heights(h);
    EXPECT_EQ(heights_from_arrows(arrows, h.at(0, 0)), h);
    // Every vertex has two arrows in and two out.
    for (int r = 0; r < b.rows(); ++r) {
      for (int c = 0; c < b.cols(); ++c) {
        const int in = (arrows.horizontal[r * (b.cols() + 1) + c] > 0) +
                       (arrows.horizontal[r * (b.cols() + 1) + c + 1] < 0) +
                       (arrows.vertical[r * b.cols() + c] < 0) +
                       (arrows.vertical[(r + 1) * b.cols() + c] > 0);
        EXPECT_EQ(in, 2);
      }
    }
  });
  // The a1 vertex: all arrows right and up.
  SixVertexArrows a1{1, 1, {1, 1}, {1, 1}};
  EXPECT_EQ(heights_from_arrows(a1).vertex_type(0, 0), VertexType::a1);
  SixVertexArrows broken{1, 1, {1, 1}, {1, -1}};
  expect_error<std::invalid_argument>([&] { heights_from_arrows(broken); },
                                      {"vertex (0, 0)", "ice rule"});
}

TEST(SixVertexBoundary, AlternatingSignMatricesRoundTrip) {
  const SixVertexBoundary dw = SixVertexBoundary::domain_wall(4);
  for_each_six_vertex_state(dw, [&](const SixVertexHeights& h) {
    const std::vector<int> asm_matrix = alternating_sign_matrix(h);
    EXPECT_EQ(heights_from_alternating_sign_matrix(4, asm_matrix), h);
    const auto counts = h.type_counts();
    int minus = 0;
    for (int e : asm_matrix) minus += e < 0;
    EXPECT_EQ(counts[static_cast<int>(VertexType::c1)], 4 + minus);
    EXPECT_EQ(counts[static_cast<int>(VertexType::c2)], minus);
  });
  expect_error<std::invalid_argument>(
      [] {
        heights_from_alternating_sign_matrix(2, {1, 1, 0, 0});
      },
      {"not an alternating-sign"});
  expect_error<std::invalid_argument>(
      [] {
        alternating_sign_matrix(
            maximal_six_vertex_heights(SixVertexBoundary::from_text(irregular_boundary)));
      },
      {"domain-wall"});
  expect_error<std::invalid_argument>(
      [&] {
        SixVertexHeights h = maximal_six_vertex_heights(dw);
        h.set(2, 2, h.at(2, 2) + 2);
        validate_six_vertex_heights(dw, h);
      },
      {"(2, 2)", "differ by exactly 1"});
  expect_error<std::invalid_argument>(
      [&] {
        SixVertexHeights h = maximal_six_vertex_heights(dw);
        h.set(0, 1, 3);
        validate_six_vertex_heights(dw, h);
      },
      {"boundary face (0, 1)", "fixed 1"});
}

}  // namespace

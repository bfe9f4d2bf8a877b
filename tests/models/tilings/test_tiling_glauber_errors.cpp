// Bad inputs to the Glauber samplers are refused with std::invalid_argument messages that say
// what is wrong; a CFTP that cannot finish within its horizon says so.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "../../common/expect_error.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/thurston.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;

TEST(TilingGlauberErrors, NonPositiveWeightsAreRefused) {
  const SquareDomain square = SquareDomain::rectangle(4, 4);
  expect_error<std::invalid_argument>(
      [&] {
        DominoGlauber<TestSpace> s(TestSpace(), square, DominoWeights::vertical_horizontal(0.0), 1);
      },
      {"vertical", "must be finite and positive"});
  expect_error<std::invalid_argument>(
      [&] {
        DominoGlauber<TestSpace> s(TestSpace(), square,
                                   DominoWeights::vertical_horizontal(1.0, -2.0), 1);
      },
      {"horizontal", "positive"});
  expect_error<std::invalid_argument>(
      [&] {
        DominoGlauber<TestSpace> s(TestSpace(), square,
                                   DominoWeights::two_periodic(1.0, std::nan("")), 1);
      },
      {"period cell", "positive"});
  DominoWeights bad_table = DominoWeights::uniform();
  bad_table.period_cols = 2;
  expect_error<std::invalid_argument>(
      [&] { DominoGlauber<TestSpace> s(TestSpace(), square, bad_table, 1); },
      {"entries", "period needs 2"});
  bad_table.period_cols = 0;
  expect_error<std::invalid_argument>(
      [&] { DominoGlauber<TestSpace> s(TestSpace(), square, bad_table, 1); },
      {"period", "at least 1 x 1"});
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 2);
  for (double q : {0.0, -1.0, std::numeric_limits<double>::infinity()}) {
    expect_error<std::invalid_argument>(
        [&] { LozengeGlauber<TestSpace> s(TestSpace(), hex, LozengeWeights{q}, 1); },
        {"volume weight q", "positive"});
  }
}

TEST(TilingGlauberErrors, CftpRefusesTheNonMonotoneRule) {
  DominoGlauber<TestSpace> d(TestSpace(), SquareDomain::aztec_diamond(3), DominoWeights::uniform(),
                             1, Start::maximal, UpdateRule::metropolis);
  expect_error<std::invalid_argument>([&] { d.exact_sample(1); },
                                      {"monotone", "metropolis", "heat_bath"});
  d.run_sweeps(10);  // forward runs with it are fine
  LozengeGlauber<TestSpace> l(TestSpace(), TriangularDomain::hexagon(2, 2, 2), LozengeWeights{2.0},
                              1, Start::minimal, UpdateRule::metropolis);
  expect_error<std::invalid_argument>([&] { l.exact_sample(1); }, {"not monotone"});
}

TEST(TilingGlauberErrors, UntileableDomainsGiveThurstonsReason) {
  // Balanced colours, simply connected, but no tiling (Thurston's condition fails).
  const SquareDomain domain = SquareDomain::from_mask(".#..\n####\n..#.\n");
  const DominoTileability report = domino_tileability(domain);
  ASSERT_FALSE(report.tileable);
  expect_error<std::invalid_argument>(
      [&] { DominoGlauber<TestSpace> s(TestSpace(), domain, DominoWeights::uniform(), 1); },
      {report.reason});
  // Colour imbalance.
  expect_error<std::invalid_argument>(
      [&] {
        DominoGlauber<TestSpace> s(TestSpace(), SquareDomain::rectangle(3, 3),
                                   DominoWeights::uniform(), 1);
      },
      {"not tileable", "colour imbalance"});
  const TriangularDomain lozenges = TriangularDomain::from_mask(
      "#.....\n"
      "######\n"
      ".....#\n");
  expect_error<std::invalid_argument>(
      [&] { LozengeGlauber<TestSpace> s(TestSpace(), lozenges, LozengeWeights{}, 1); },
      {"not tileable"});
}

TEST(TilingGlauberErrors, InvalidStartingTilingsAndCftpOptions) {
  const SquareDomain square = SquareDomain::rectangle(4, 4);
  DominoTiling broken = maximal_domino_tiling(square);
  broken.set(0, 0, direction::west);
  expect_error<std::invalid_argument>(
      [&] { DominoGlauber<TestSpace> s(TestSpace(), square, DominoWeights::uniform(), 1, broken); },
      {"invalid domino tiling", "face (0, 0)"});
  DominoGlauber<TestSpace> s(TestSpace(), SquareDomain::aztec_diamond(4), DominoWeights::uniform(),
                             1);
  CftpOptions zero;
  zero.initial_horizon = 0;
  expect_error<std::invalid_argument>([&] { s.exact_sample(1, zero); }, {"initial_horizon"});
  CftpOptions tight;  // AD(4) cannot coalesce in a single step
  tight.initial_horizon = tight.max_horizon = 1;
  expect_error<std::runtime_error>([&] { s.exact_sample(1, tight); },
                                   {"did not coalesce", "max_horizon 1"});
}

}  // namespace

// Tiled domino Glauber dynamics (domino_tiled_kernel.hpp): every launch against a sequential
// host re-implementation of the tiled chain (same shifts, classes and Philox words, every
// tile-interior vertex of the class updated), exact attempt counts, the weighted law reached by
// coupling from the past and by forward chains (chi-square over all tilings of small
// domains), heights stay valid, bad schedules rejected.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "chi_square.hpp"
#include "domino_laws.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"
#include "portamc/tilings/domino/thurston.hpp"
#include "test_space.hpp"
#include "tiled_launch_check.hpp"

namespace {

using namespace portamc::tilings;
namespace rng = portamc::rng;
using portamc::tilings::testing::chi_square;
using portamc::tilings::testing::ChiSquare;
using portamc::tilings::testing::domino_index;
using portamc::tilings::testing::domino_law;
using portamc::tilings::testing::launches_that_match;

// Host reference of one tiled launch starting at global step `first`; returns the attempts
// (class vertices of the domain off the tile edges, summed over sub-steps).
std::uint64_t host_tiled_launch(const SquareDomain& domain, const DominoWeights& weights,
                                UpdateRule rule, const TileSchedule& schedule, std::uint64_t seed,
                                std::uint64_t first, DominoTiling& tiling) {
  const auto thresholds = domino_move_thresholds(weights, rule);
  const rng::Block b = rng::draw(seed, rng::purpose_tiling_class, 1, first);
  const int row_shift = static_cast<int>(b[0] % static_cast<std::uint32_t>(schedule.tile_rows));
  const int col_shift = static_cast<int>(b[1] % static_cast<std::uint32_t>(schedule.tile_cols));
  const std::uint64_t bits = (static_cast<std::uint64_t>(b[3]) << 32) | b[2];
  std::uint64_t attempts = 0;
  for (int s = 0; s < schedule.substeps; ++s) {
    const int c = static_cast<int>((bits >> s) & 1u);
    const std::uint64_t t = first + static_cast<std::uint64_t>(s);
    for (int i = 1; i < domain.rows(); ++i) {
      if ((i + row_shift) % schedule.tile_rows == 0) continue;
      for (int j = 1; j < domain.cols(); ++j) {
        if ((j + col_shift) % schedule.tile_cols == 0) continue;
        if (SquareDomain::vertex_colour(i, j) != c || !domain.is_interior_vertex(i, j)) continue;
        ++attempts;
        const int dir = rotation_direction(domain, tiling, i, j);
        if (dir == 0) continue;
        const bool vertical = tiling.at(i - 1, j - 1) == direction::south;
        const std::uint32_t u =
            rng::draw(seed, rng::purpose_tiling_update, domain.vertex_index(i, j), t)[0];
        const int entry =
            2 * ((i % weights.period_rows) * weights.period_cols + j % weights.period_cols);
        if (ends_in_b(u, thresholds[entry + (vertical ? 1 : 0)]) != vertical) {
          EXPECT_TRUE(rotate(domain, tiling, i, j, dir));
        }
      }
    }
  }
  return attempts;
}

TEST(DominoTiled, LaunchesMatchTheHostReferenceAndCountAttemptsExactly) {
  const SquareDomain shapes[] = {SquareDomain::aztec_diamond(9), SquareDomain::rectangle(10, 13),
                                 SquareDomain::from_mask("#####..\n"
                                                         "#######\n"
                                                         "#######\n"
                                                         "#######\n"
                                                         "#######\n"
                                                         "..#####\n")};
  struct Case {
    DominoWeights weights;
    UpdateRule rule;
    TileSchedule schedule;
  };
  const Case cases[] = {
      {DominoWeights::uniform(), UpdateRule::heat_bath, {4, 8, 5}},
      {DominoWeights::vertical_horizontal(2.0, 0.7), UpdateRule::heat_bath, {8, 4, 16}},
      {DominoWeights::two_periodic(1.0, 0.3), UpdateRule::heat_bath, {4, 4, 64}},
      {DominoWeights::uniform(), UpdateRule::metropolis, {16, 16, 3}}};
  for (const SquareDomain& domain : shapes) {
    for (const Case& k : cases) {
      DominoGlauber<TestSpace> sampler(TestSpace(), domain, k.weights, 41, Start::maximal, k.rule);
      sampler.set_schedule(k.schedule);
      const int moved = launches_that_match(
          sampler, domain, 60,
          [&](std::uint64_t first, DominoTiling& t) {
            return host_tiled_launch(domain, k.weights, k.rule, k.schedule, 41, first, t);
          },
          to_string(k.rule));
      EXPECT_GT(moved, 20) << to_string(k.rule);  // the chain does move
      EXPECT_EQ(sampler.steps_done(), 60u * static_cast<std::uint64_t>(k.schedule.substeps));
    }
  }
}

// Tiles as small as the domains, so tile edges cut through them and only the shifts let every
// vertex move: the law must still come out exactly.
TEST(DominoTiled, CouplingFromThePastSamplesTheWeightedLaw) {
  struct Case {
    SquareDomain domain;
    DominoWeights weights;
    int samples;
  };
  const Case cases[] = {
      {SquareDomain::aztec_diamond(3), DominoWeights::uniform(), 3200},
      {SquareDomain::aztec_diamond(3), DominoWeights::two_periodic(1.0, 0.5), 3200},
      {SquareDomain::rectangle(4, 4), DominoWeights::vertical_horizontal(1.4, 0.8), 2000}};
  std::uint64_t seed = 9000;
  for (const Case& k : cases) {
    const std::vector<DominoTiling> tilings = list_domino_tilings(k.domain, 1000);
    const auto index = domino_index(tilings);
    DominoGlauber<TestSpace> sampler(TestSpace(), k.domain, k.weights, 1);
    sampler.set_schedule({4, 4, 4});
    std::vector<std::uint64_t> counts(tilings.size(), 0);
    for (int s = 0; s < k.samples; ++s) {
      const auto sample = sampler.exact_sample(seed++);
      ++counts[index.at(sample.tiling.partner)];
      EXPECT_EQ(sample.horizon % 4, 0u);
    }
    const ChiSquare test = chi_square(counts, domino_law(tilings, k.weights));
    EXPECT_GT(test.p_value, 1e-6) << "chi2 = " << test.statistic << " with "
                                  << test.degrees_of_freedom << " dof\n"
                                  << test.table;
  }
}

// Independent forward chains from the maximal tiling (Metropolis has no CFTP): 100 launches
// of 8 sub-steps each is far beyond the mixing time of these 64-tiling state spaces.
TEST(DominoTiled, ForwardChainsOfBothRulesReachTheWeightedLaw) {
  const SquareDomain domain = SquareDomain::aztec_diamond(3);
  const DominoWeights weights = DominoWeights::two_periodic(1.0, 0.6);
  const std::vector<DominoTiling> tilings = list_domino_tilings(domain, 1000);
  const auto index = domino_index(tilings);
  for (UpdateRule rule : {UpdateRule::heat_bath, UpdateRule::metropolis}) {
    std::vector<std::uint64_t> counts(tilings.size(), 0);
    for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
      DominoGlauber<TestSpace> chain(TestSpace(), domain, weights, seed, Start::maximal, rule);
      chain.set_schedule({4, 8, 8});
      chain.run_steps(800);
      ++counts[index.at(chain.tiling().partner)];
    }
    const ChiSquare test = chi_square(counts, domino_law(tilings, weights));
    EXPECT_GT(test.p_value, 1e-6) << to_string(rule) << ": chi2 = " << test.statistic << "\n"
                                  << test.table;
  }
}

TEST(DominoTiled, RunStepsRoundsUpToWholeLaunches) {
  DominoGlauber<TestSpace> sampler(TestSpace(), SquareDomain::aztec_diamond(6),
                                   DominoWeights::uniform(), 3);
  sampler.set_schedule({8, 8, 10});
  sampler.run_steps(25);
  EXPECT_EQ(sampler.steps_done(), 30u);
  sampler.set_schedule({});
  sampler.run_steps(3);
  EXPECT_EQ(sampler.steps_done(), 33u);
}

TEST(DominoTiled, BadSchedulesAreRejected) {
  DominoGlauber<TestSpace> sampler(TestSpace(), SquareDomain::aztec_diamond(4),
                                   DominoWeights::uniform(), 3);
  for (const TileSchedule& bad :
       {TileSchedule{6, 8, 4}, TileSchedule{8, 2, 4}, TileSchedule{2048, 8, 4},
        TileSchedule{8, 8, 0}, TileSchedule{8, 8, 65}}) {
    EXPECT_THROW(sampler.set_schedule(bad), std::invalid_argument);
  }
  EXPECT_FALSE(sampler.schedule().tiled());
}

}  // namespace

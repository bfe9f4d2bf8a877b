// Bit-sliced tiled domino chain (domino_bitsliced_kernel.hpp): every launch against a byte-level
// host re-implementation (same tile grid, classes and Philox blocks, one vertex at a time, the
// vertex class from SquareDomain::vertex_colour), exact attempt counts, the uniform law reached
// by coupling from the past (chi-square over all tilings of small domains, binomial law of the
// vertical-domino count of Aztec diamonds), and bad schedules rejected.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "chi_square.hpp"
#include "domino_laws.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"
#include "portamc/tilings/domino/thurston.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "test_space.hpp"
#include "tiled_launch_check.hpp"

namespace {

using namespace portamc::tilings;
namespace rng = portamc::rng;
using portamc::tilings::testing::binomial_pmf;
using portamc::tilings::testing::chi_square;
using portamc::tilings::testing::ChiSquare;
using portamc::tilings::testing::domino_index;
using portamc::tilings::testing::domino_law;
using portamc::tilings::testing::launches_that_match;
using portamc::tilings::testing::vertical_dominoes;

// Host reference of one bit-sliced launch from global step `first`; returns the attempts (class
// vertices of the domain whose block lies inside one tile and one 64-face word).
std::uint64_t host_bitsliced_launch(const SquareDomain& domain, const TileSchedule& schedule,
                                    std::uint64_t seed, std::uint64_t first, DominoTiling& tiling) {
  const int rows = schedule.tile_rows, cols = schedule.tile_cols, words = cols / 64;
  const rng::Block b = rng::draw(seed, rng::purpose_tiling_class, 1, first);
  const int row_shift = static_cast<int>(b[0] % static_cast<std::uint32_t>(rows));
  const int col_shift = static_cast<int>(b[1] % static_cast<std::uint32_t>(cols));
  const std::uint64_t class_bits = (static_cast<std::uint64_t>(b[3]) << 32) | b[2];
  const int across = (domain.cols() + col_shift + cols - 1) / cols;
  const int down = (domain.rows() + row_shift + rows - 1) / rows;
  const int tasks = rows / 2 * words;
  std::uint64_t attempts = 0;
  for (int band = 0; band < down; ++band) {
    for (int across_index = 0; across_index < across; ++across_index) {
      const int tile = band * across + across_index;
      const int r0 = band * rows - row_shift, c0 = across_index * cols - col_shift;
      for (int s = 0; s < schedule.substeps; ++s) {
        const int c = static_cast<int>((class_bits >> s) & 1u);
        const std::uint64_t t = first + static_cast<std::uint64_t>(s);
        for (int phase = 0; phase < 2; ++phase) {
          for (int k = 0; k < tasks; ++k) {
            const int i = 2 * (k / words) + 1 + phase, m = k % words;
            if (i >= rows) continue;
            const rng::Block w = rng::draw(
                seed, rng::purpose_tiling_bits,
                static_cast<std::uint64_t>(tile) * static_cast<std::uint64_t>(tasks) + k, t);
            const std::uint64_t bits = phase == 0 ? (static_cast<std::uint64_t>(w[1]) << 32) | w[0]
                                                  : (static_cast<std::uint64_t>(w[3]) << 32) | w[2];
            for (int x = 64 * m; x < 64 * m + 63; ++x) {  // x mod 64 = 63 waits
              const int gi = r0 + i, gj = c0 + x + 1;
              if (gi < 1 || gi >= domain.rows() || gj < 1 || gj >= domain.cols()) continue;
              if (SquareDomain::vertex_colour(gi, gj) != c || !domain.is_interior_vertex(gi, gj))
                continue;
              ++attempts;
              const int dir = rotation_direction(domain, tiling, gi, gj);
              if (dir == 0) continue;
              const bool vertical = tiling.at(gi - 1, gj - 1) == direction::south;
              const bool to_vertical = ((bits >> (x % 64)) & 1u) != 0;
              if (to_vertical != vertical) EXPECT_TRUE(rotate(domain, tiling, gi, gj, dir));
            }
          }
        }
      }
    }
  }
  return attempts;
}

TEST(DominoBitsliced, LaunchesMatchTheHostReferenceAndCountAttemptsExactly) {
  const SquareDomain shapes[] = {SquareDomain::aztec_diamond(9), SquareDomain::aztec_diamond(70),
                                 SquareDomain::rectangle(10, 150),
                                 SquareDomain::from_mask("#####..\n"
                                                         "#######\n"
                                                         "#######\n"
                                                         "#######\n"
                                                         "#######\n"
                                                         "..#####\n")};
  const TileSchedule schedules[] = {{4, 64, 5, true}, {8, 128, 16, true}, {32, 256, 64, true}};
  for (const SquareDomain& domain : shapes) {
    for (const TileSchedule& schedule : schedules) {
      DominoGlauber<TestSpace> sampler(TestSpace(), domain, DominoWeights::uniform(), 41);
      sampler.set_schedule(schedule);
      const int moved = launches_that_match(
          sampler, domain, 40,
          [&](std::uint64_t first, DominoTiling& t) {
            return host_bitsliced_launch(domain, schedule, 41, first, t);
          },
          "tiles " + std::to_string(schedule.tile_rows) + " x " +
              std::to_string(schedule.tile_cols));
      EXPECT_GT(moved, 20);  // the chain does move
    }
  }
}

// One 64-column word per tile row is the smallest tile, so word and tile edges cut through
// every domain; only the random shifts let every vertex move: the law must still come out.
TEST(DominoBitsliced, CouplingFromThePastSamplesTheUniformLaw) {
  struct Case {
    SquareDomain domain;
    TileSchedule schedule;
    int samples;
  };
  const Case cases[] = {{SquareDomain::aztec_diamond(2), {4, 64, 4, true}, 1600},
                        {SquareDomain::aztec_diamond(3), {4, 64, 8, true}, 3200},
                        {SquareDomain::rectangle(4, 4), {8, 128, 4, true}, 2000}};
  std::uint64_t seed = 7000;
  for (const Case& k : cases) {
    const std::vector<DominoTiling> tilings = list_domino_tilings(k.domain, 1000);
    const auto index = domino_index(tilings);
    DominoGlauber<TestSpace> sampler(TestSpace(), k.domain, DominoWeights::uniform(), 1);
    sampler.set_schedule(k.schedule);
    std::vector<std::uint64_t> counts(tilings.size(), 0);
    for (int s = 0; s < k.samples; ++s) {
      const auto sample = sampler.exact_sample(seed++);
      ++counts[index.at(sample.tiling.partner)];
    }
    const ChiSquare test = chi_square(counts, domino_law(tilings, DominoWeights::uniform()));
    EXPECT_GT(test.p_value, 1e-6) << "chi2 = " << test.statistic << " with "
                                  << test.degrees_of_freedom << " dof\n"
                                  << test.table;
  }
}

// Uniform Aztec diamonds: v/2 ~ Binomial(n(n+1)/2, 1/2) (test_tiling_cftp_observables.cpp).
TEST(DominoBitsliced, AztecVerticalCountIsBinomial) {
  const int samples = 800;
  for (int n : {5, 9}) {
    const int m = n * (n + 1) / 2;
    DominoGlauber<TestSpace> sampler(TestSpace(), SquareDomain::aztec_diamond(n),
                                     DominoWeights::uniform(), 1);
    sampler.set_schedule({8, 64, 16, true});
    std::vector<std::uint64_t> counts(m + 1, 0);
    for (int s = 0; s < samples; ++s) {
      const int v = vertical_dominoes(sampler.exact_sample(300000 * n + s).tiling);
      ASSERT_EQ(v % 2, 0);
      ++counts[v / 2];
    }
    std::vector<double> p(m + 1);
    for (int k = 0; k <= m; ++k) p[k] = binomial_pmf(m, k, 0.5);
    const ChiSquare test = chi_square(counts, p);
    EXPECT_GT(test.p_value, 1e-6) << "n = " << n << ", chi2 = " << test.statistic << " with "
                                  << test.degrees_of_freedom << " dof\n"
                                  << test.table;
  }
}

TEST(DominoBitsliced, BadSchedulesAreRejected) {
  DominoGlauber<TestSpace> uniform(TestSpace(), SquareDomain::aztec_diamond(4),
                                   DominoWeights::uniform(), 3);
  EXPECT_THROW(uniform.set_schedule({8, 32, 4, true}), std::invalid_argument);  // < 64 columns
  EXPECT_THROW(uniform.set_schedule({0, 0, 1, true}), std::invalid_argument);   // not tiled
  EXPECT_NO_THROW(uniform.set_schedule({8, 64, 4, true}));
  DominoGlauber<TestSpace> weighted(TestSpace(), SquareDomain::aztec_diamond(4),
                                    DominoWeights::vertical_horizontal(2.0, 1.0), 3);
  EXPECT_THROW(weighted.set_schedule({8, 64, 4, true}), std::invalid_argument);
  DominoGlauber<TestSpace> metropolis(TestSpace(), SquareDomain::aztec_diamond(4),
                                      DominoWeights::uniform(), 3, Start::maximal,
                                      UpdateRule::metropolis);
  EXPECT_THROW(metropolis.set_schedule({8, 64, 4, true}), std::invalid_argument);
  LozengeGlauber<TestSpace> lozenge(TestSpace(), TriangularDomain::hexagon(2, 2, 2),
                                    LozengeWeights{}, 3);
  EXPECT_THROW(lozenge.set_schedule({8, 64, 4, true}), std::invalid_argument);
  EXPECT_FALSE(weighted.schedule().tiled());
}

}  // namespace

// Coupling from the past gives exact samples: chi-square of the sampled tilings against the
// exact (weighted) distribution from enumerating every tiling, for uniform and weighted
// dominoes and lozenges, in random and cyclic class order; forward chains of both update rules
// reach the same law. Fixed seeds;
// each test fails a correct sampler with probability below 1e-6 (chi_square.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "chi_square.hpp"
#include "domino_laws.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using portamc::tilings::testing::chi_square;
using portamc::tilings::testing::ChiSquare;

// Samples exact tilings with CFTP seeds first_seed, first_seed + 1, ... and counts how often
// each listed tiling comes up (a tiling outside the list fails the test).
template <class Sampler, class Tiling, class Bytes>
std::vector<std::uint64_t> cftp_counts(Sampler& sampler, const std::vector<Tiling>& tilings,
                                       Bytes bytes, int samples, std::uint64_t first_seed) {
  std::map<std::vector<std::uint8_t>, std::size_t> index;
  for (std::size_t k = 0; k < tilings.size(); ++k) index[bytes(tilings[k])] = k;
  std::vector<std::uint64_t> counts(tilings.size(), 0);
  for (int s = 0; s < samples; ++s) {
    const auto sample = sampler.exact_sample(first_seed + static_cast<std::uint64_t>(s));
    const auto it = index.find(bytes(sample.tiling));
    EXPECT_NE(it, index.end()) << "CFTP returned something that is not a tiling";
    if (it != index.end()) ++counts[it->second];
    EXPECT_EQ(sample.steps_run, 16 * ((std::uint64_t{1} << sample.passes) - 1));
    EXPECT_EQ(sample.horizon, std::uint64_t{16} << (sample.passes - 1));
  }
  return counts;
}

void expect_domino_law(const SquareDomain& domain, const DominoWeights& weights, int samples,
                       std::uint64_t seed, ClassOrder order = ClassOrder::random,
                       const TileSchedule& schedule = {}) {
  const std::vector<DominoTiling> tilings = list_domino_tilings(domain, 1000);
  const std::vector<double> p = portamc::tilings::testing::domino_law(tilings, weights);
  DominoGlauber<TestSpace> sampler(TestSpace(), domain, weights, 1);
  sampler.set_class_order(order);
  sampler.set_schedule(schedule);
  const auto counts = cftp_counts(
      sampler, tilings, [](const DominoTiling& t) { return t.partner; }, samples, seed);
  const ChiSquare test = chi_square(counts, p);
  EXPECT_GT(test.p_value, 1e-6) << to_string(order) << ", chi2 = " << test.statistic << " with "
                                << test.degrees_of_freedom << " dof\n"
                                << test.table;
}

void expect_lozenge_law(const TriangularDomain& domain, double q, int samples, std::uint64_t seed,
                        ClassOrder order = ClassOrder::random) {
  const std::vector<LozengeTiling> tilings = list_lozenge_tilings(domain, 1000);
  std::vector<double> p;
  double z = 0;
  for (const LozengeTiling& t : tilings) {
    p.push_back(std::pow(q, static_cast<double>(volume_above_minimum(domain, t))));
    z += p.back();
  }
  for (double& x : p) x /= z;
  LozengeGlauber<TestSpace> sampler(TestSpace(), domain, LozengeWeights{q}, 1);
  sampler.set_class_order(order);
  const auto counts = cftp_counts(
      sampler, tilings, [](const LozengeTiling& t) { return t.partners(); }, samples, seed);
  const ChiSquare test = chi_square(counts, p);
  EXPECT_GT(test.p_value, 1e-6) << to_string(order) << ", q = " << q
                                << ", chi2 = " << test.statistic << " with "
                                << test.degrees_of_freedom << " dof\n"
                                << test.table;
}

TEST(TilingExactLaws, AztecDiamondsAreUniform) {
  expect_domino_law(SquareDomain::aztec_diamond(2), DominoWeights::uniform(), 800, 1000);
  expect_domino_law(SquareDomain::aztec_diamond(3), DominoWeights::uniform(), 3200, 2000);
}

TEST(TilingExactLaws, HexagonIsUniform) {
  expect_lozenge_law(TriangularDomain::hexagon(2, 2, 2), 1.0, 1000, 3000);
}

TEST(TilingExactLaws, WeightedDominoesFollowTheirWeights) {
  expect_domino_law(SquareDomain::rectangle(4, 4), DominoWeights::vertical_horizontal(1.4, 0.8),
                    3000, 4000);
  expect_domino_law(SquareDomain::aztec_diamond(3), DominoWeights::two_periodic(1.0, 0.5), 4000,
                    5000);
}

TEST(TilingExactLaws, VolumeWeightedLozengesFollowQToTheVolume) {
  expect_lozenge_law(TriangularDomain::hexagon(2, 2, 2), 0.6, 2000, 6000);
  expect_lozenge_law(TriangularDomain::hexagon(2, 2, 2), 1.7, 2000, 7000);
}

// Cyclic class order (class_order.hpp) for every domino chain that runs coupling from the
// past (one launch per step, byte tiles, bit-sliced tiles) and for lozenges (three classes).
TEST(TilingExactLaws, CyclicClassOrderIsExact) {
  expect_domino_law(SquareDomain::aztec_diamond(3), DominoWeights::uniform(), 3200, 91000,
                    ClassOrder::cyclic);
  expect_domino_law(SquareDomain::aztec_diamond(3), DominoWeights::two_periodic(1.0, 0.5), 4000,
                    92000, ClassOrder::cyclic, TileSchedule{4, 4, 8, false});
  expect_domino_law(SquareDomain::rectangle(4, 4), DominoWeights::uniform(), 2000, 93000,
                    ClassOrder::cyclic, TileSchedule{8, 128, 4, true});
  expect_lozenge_law(TriangularDomain::hexagon(2, 2, 2), 0.6, 2000, 94000, ClassOrder::cyclic);
}

// Independent forward chains (one per seed) from the maximal tiling, 150 sweeps each: on these
// 20- and 36-tiling state spaces that is far beyond the mixing time, so the final states are
// independent draws of the weighted law up to a negligible bias.
TEST(TilingExactLaws, ForwardChainsOfBothRulesReachTheWeightedLaw) {
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 2);
  const std::vector<LozengeTiling> tilings = list_lozenge_tilings(hex, 1000);
  const double q = 1.7;
  std::vector<double> p;
  double z = 0;
  for (const LozengeTiling& t : tilings) {
    p.push_back(std::pow(q, static_cast<double>(volume_above_minimum(hex, t))));
    z += p.back();
  }
  for (double& x : p) x /= z;
  std::map<std::vector<std::uint8_t>, std::size_t> index;
  for (std::size_t k = 0; k < tilings.size(); ++k) index[tilings[k].partners()] = k;
  for (UpdateRule rule : {UpdateRule::heat_bath, UpdateRule::metropolis}) {
    std::vector<std::uint64_t> counts(tilings.size(), 0);
    for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
      LozengeGlauber<TestSpace> chain(TestSpace(), hex, LozengeWeights{q}, seed, Start::maximal,
                                      rule);
      chain.run_sweeps(150);
      ++counts[index.at(chain.tiling().partners())];
    }
    const ChiSquare test = chi_square(counts, p);
    EXPECT_GT(test.p_value, 1e-6) << to_string(rule) << ": chi2 = " << test.statistic << "\n"
                                  << test.table;
  }
}

TEST(TilingExactLaws, ChiSquareRejectsAWrongLaw) {
  // The statistic has power: samples of the q = 1.7 law tested against the uniform law fail.
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 2);
  const std::vector<LozengeTiling> tilings = list_lozenge_tilings(hex, 1000);
  LozengeGlauber<TestSpace> sampler(TestSpace(), hex, LozengeWeights{1.7}, 1);
  const auto counts = cftp_counts(
      sampler, tilings, [](const LozengeTiling& t) { return t.partners(); }, 2000, 7000);
  const std::vector<double> uniform(tilings.size(), 1.0 / static_cast<double>(tilings.size()));
  EXPECT_LT(chi_square(counts, uniform).p_value, 1e-6);
}

}  // namespace

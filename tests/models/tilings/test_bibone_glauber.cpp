// Glauber dynamics of bibone tilings on each backend of the build (TestSpace): the matching stays
// valid after every step; the step equals a sequential host re-implementation bit for bit (on
// every backend, so the backends agree with each other bit for bit too); long runs are uniform over
// all matchings of small regions (chi-square on thinned samples, and the same counts reject a
// visibly wrong law), with periodic and with Kokkos Kernels colour classes (move_colouring.hpp);
// bad inputs and CFTP are refused.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "chi_square.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/bibone/bibone_enumeration.hpp"
#include "portamc/tilings/engine/detail/bibone_glauber.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
namespace rng = portamc::rng;

// Host reference of step t: the chosen pair's alternating cycles, one after the other, end in
// state A iff u < 2^31.
void host_step(const BiboneMoveSet& moves, ClassOrder order, std::uint64_t seed, std::uint64_t t,
               std::vector<std::uint8_t>& bytes) {
  const int p = step_class(order, seed, t, moves.pairs());
  const int f = moves.pair_family[p];
  for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
    const int a = moves.anchors[k];
    if (bibone_cycle_state(bytes, moves.shapes[f], a) < 0) continue;
    const std::uint64_t entity = static_cast<std::uint64_t>(f) * moves.box_sites + a;
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update, entity, t)[0];
    bibone_set_cycle(bytes, moves.shapes[f], a, u < (1u << 31) ? 0 : 1);
  }
}

TEST(BiboneGlauber, MatchingStaysValidAfterEveryStep) {
  const BiboneDomain d = BiboneDomain::from_mask(
      "..####\n"
      ".#####\n"
      "######\n"
      "#####.\n"
      "####..\n");
  BiboneGlauber<TestSpace> sampler(TestSpace(), d, 11);
  int changed = 0;
  BiboneMatching last = sampler.matching();
  for (int s = 0; s < 3000; ++s) {
    sampler.run_steps(1);
    const BiboneMatching now = sampler.matching();
    ASSERT_NO_THROW(validate_matching(d, now)) << "after step " << s + 1;
    changed += !(now == last);
    last = now;
  }
  EXPECT_GT(changed, 100);
  EXPECT_EQ(sampler.steps_done(), 3000u);
}

TEST(BiboneGlauber, StepsMatchTheHostReference) {
  const BiboneDomain d = BiboneDomain::hexagon(9, 10, 7);
  ASSERT_EQ(d.site_count() % 2, 0);
  const std::uint64_t seed = 0x5eed'b1b0'0e00'0001ULL;
  for (const ClassOrder order : {ClassOrder::random, ClassOrder::cyclic}) {
    BiboneGlauber<TestSpace> device(TestSpace(), d, seed);
    device.set_class_order(order);
    std::vector<std::uint8_t> reference = device.matching().bytes();
    const BiboneMoveSet& moves = device.move_set();
    std::uint64_t t = 0;
    for (int block = 0; block < 20; ++block) {
      device.run_steps(40);
      for (int s = 0; s < 40; ++s) host_step(moves, order, seed, ++t, reference);
      ASSERT_EQ(device.matching().bytes(), reference) << to_string(order) << ", step " << t;
    }
    EXPECT_NE(reference, bibone_initial_matching(d).bytes());
  }
}

// Counts of the thinned states of one long run, per matching (sorted enumeration order).
std::vector<std::uint64_t> sample_counts(const BiboneDomain& d,
                                         const std::vector<BiboneMatching>& all, std::uint64_t seed,
                                         int samples, int thin_sweeps, MoveColouring colouring) {
  BiboneGlauber<TestSpace> sampler(TestSpace(), d, seed, colouring);
  sampler.run_sweeps(50);  // burn-in
  std::vector<std::uint64_t> counts(all.size(), 0);
  for (int i = 0; i < samples; ++i) {
    sampler.run_sweeps(static_cast<std::uint64_t>(thin_sweeps));
    const BiboneMatching m = sampler.matching();
    const auto it = std::lower_bound(all.begin(), all.end(), m);
    EXPECT_TRUE(it != all.end() && *it == m);
    ++counts[static_cast<std::size_t>(it - all.begin())];
  }
  return counts;
}

// colouring: the chain's colour classes (both kinds are tested; a sweep is one step per pair).
void expect_uniform(const BiboneDomain& d, std::uint64_t seed, int samples,
                    MoveColouring colouring) {
  if (!move_colouring_available(colouring)) GTEST_SKIP() << "no Kokkos Kernels in this build";
  const auto all = enumerate_bibone_matchings(d);
  ASSERT_GE(all.size(), 3u);
  const auto counts = sample_counts(d, all, seed, samples, 6, colouring);
  const std::vector<double> uniform(all.size(), 1.0 / static_cast<double>(all.size()));
  const auto fit = portamc::tilings::testing::chi_square(counts, uniform);
  EXPECT_GT(fit.p_value, 1e-6) << d.to_mask() << fit.table;
  // A visibly wrong law: the first half of the matchings twice as likely as the rest.
  std::vector<double> wrong(all.size());
  double total = 0;
  for (std::size_t i = 0; i < all.size(); ++i) total += wrong[i] = i < all.size() / 2 ? 2.0 : 1.0;
  for (double& w : wrong) w /= total;
  EXPECT_LT(portamc::tilings::testing::chi_square(counts, wrong).p_value, 1e-6);
  std::printf("%zu matchings, %d samples, %s classes (%d pairs): chi2 %.1f, %d dof, p %.3g\n",
              all.size(), samples, to_string(colouring), bibone_move_set(d, colouring).pairs(),
              fit.statistic, fit.degrees_of_freedom, fit.p_value);
}

TEST(BiboneGlauber, UniformOnAParallelogram) {
  expect_uniform(BiboneDomain::parallelogram(3, 4), 2024, 20000, MoveColouring::periodic);
}

// An irregular region.
TEST(BiboneGlauber, UniformOnAnIrregularRegion) {
  expect_uniform(BiboneDomain::from_mask("###.\n####\n.###\n..##\n"), 77, 20000,
                 MoveColouring::kokkos_kernels);
}

TEST(BiboneGlauber, UniformOnATriangle) {
  expect_uniform(BiboneDomain::triangle(4), 5, 20000, MoveColouring::kokkos_kernels);
}

// One of its three matchings is left only by a butterfly flip.
TEST(BiboneGlauber, UniformOnTheHourglass) {
  expect_uniform(BiboneDomain::from_mask(".###..\n..##..\n..###.\n....##\n"), 9, 20000,
                 MoveColouring::periodic);
}

TEST(BiboneGlauber, UniformOnALargerHexagon) {
  expect_uniform(BiboneDomain::hexagon(3, 4, 2), 31, 20000, MoveColouring::kokkos_kernels);
}

TEST(BiboneGlauber, UniformOnALargerHexagonWithPeriodicClasses) {
  expect_uniform(BiboneDomain::hexagon(3, 4, 2), 32, 20000, MoveColouring::periodic);
}

TEST(BiboneGlauber, RefusesBadInputsAndCftp) {
  const BiboneDomain star = BiboneDomain::from_mask("#..\n.##\n.#.\n");
  try {
    BiboneGlauber<TestSpace> sampler(TestSpace(), star, 1);
    FAIL() << "untileable region accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not tileable"), std::string::npos) << e.what();
  }
  const BiboneDomain d = BiboneDomain::parallelogram(2, 2);
  EXPECT_THROW(BiboneGlauber<TestSpace>(TestSpace(), d, 1, BiboneMatching({0, 3, 0, 6})),
               std::invalid_argument);
  BiboneGlauber<TestSpace> sampler(TestSpace(), d, 1);
  try {
    sampler.exact_sample(3);
    FAIL() << "coupling from the past accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no monotone coupling"), std::string::npos);
  }
}

}  // namespace

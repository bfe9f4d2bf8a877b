// Forward heat-bath Glauber dynamics of the six-vertex model: every step keeps a valid height
// function with the fixed boundary and moves only faces of its colour class, the non-monotone
// weights c < a sample the exact Gibbs measure, and bad inputs are refused; on each backend of
// the build (TestSpace). That one seed gives bitwise the same states on every backend:
// test_tilings_backends.cpp.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"
#include "chi_square.hpp"
#include "portamc/tilings/engine/detail/six_vertex_glauber.hpp"
#include "portamc/tilings/six_vertex/six_vertex_enumeration.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;
using portamc::tilings::testing::chi_square;

const char* const irregular_boundary =
    "0 1 2 1 2 3 4 5\n"
    "1 . . . . . . 4\n"
    "2 . . . . . . 3\n"
    "1 . . . . . . 2\n"
    "0 . . . . . . 1\n"
    "1 0 1 0 1 2 1 0\n";

// Faces of class `c` in the 2 x 2 parity pattern (4 classes) or the checkerboard (2 classes).
bool in_class(int i, int j, int c, int classes) {
  return classes == 4 ? (i % 2) * 2 + j % 2 == c : (i + j) % 2 == c;
}

TEST(SixVertexGlauber, EveryStepKeepsAValidStateAndMovesOnlyItsClass) {
  const SixVertexBoundary b = SixVertexBoundary::from_text(irregular_boundary);
  for (const SixVertexWeights& w : {SixVertexWeights{1, 1, 1}, SixVertexWeights{1.6, 0.8, 0.7}}) {
    SixVertexGlauber<TestSpace> glauber(TestSpace(), b, w, 17, minimal_six_vertex_heights(b), 3);
    EXPECT_EQ(glauber.class_count(), w.a == w.c ? 2 : 4);
    std::vector<SixVertexHeights> before = glauber.states();
    std::set<int> classes_seen;
    int changed = 0;
    for (int step = 0; step < 400; ++step) {
      glauber.step();
      const std::vector<SixVertexHeights> after = glauber.states();
      classes_seen.insert(glauber.last_class());
      for (int chain = 0; chain < 3; ++chain) {
        ASSERT_NO_THROW(validate_six_vertex_heights(b, after[chain])) << "step " << step;
        for (int i = 0; i <= b.rows(); ++i) {
          for (int j = 0; j <= b.cols(); ++j) {
            const int d = after[chain].at(i, j) - before[chain].at(i, j);
            if (d == 0) continue;
            ++changed;
            EXPECT_EQ(std::abs(d), 2);
            EXPECT_TRUE(in_class(i, j, glauber.last_class(), glauber.class_count()));
          }
        }
      }
      before = after;
    }
    EXPECT_EQ(static_cast<int>(classes_seen.size()), glauber.class_count());
    EXPECT_GT(changed, 400);
    EXPECT_EQ(glauber.step_count(), 400u);
  }
}

// Forward dynamics at c < a (not monotone: no CFTP) against exact enumeration. 1024 chains,
// 20 sweeps of burn-in, then 40 samples 25 sweeps apart: on these 4 and 9 interior faces
// the chain forgets in a few sweeps, so the samples are independent for the chi-square test.
void expect_exact_measure(int n, const SixVertexWeights& w, std::uint64_t seed) {
  const SixVertexBoundary b = SixVertexBoundary::domain_wall(n);
  const SixVertexExactDistribution exact(b, w);
  const int chains = 1024;
  SixVertexGlauber<TestSpace> glauber(TestSpace(), b, w, seed, chains);
  glauber.run_sweeps(20);
  std::vector<std::uint64_t> counts(exact.size(), 0);
  for (int sample = 0; sample < 40; ++sample) {
    glauber.run_sweeps(25);
    glauber.accumulate();
    for (const SixVertexHeights& h : glauber.states()) ++counts[exact.index_of(h)];
  }
  const auto chi2 = chi_square(counts, exact.probabilities());
  EXPECT_GT(chi2.p_value, 1e-6) << "chi2 " << chi2.statistic << " dof " << chi2.degrees_of_freedom;
  // The same counts tell these weights from the uniform measure: the test has power.
  const SixVertexExactDistribution uniform(b, {1, 1, 1});
  EXPECT_LT(chi_square(counts, uniform.probabilities()).p_value, 1e-6);
  // The device averages: every face's mean height and every vertex's c density within
  // 5.5 standard errors of the exact values (two-sided 4e-8 per check; under 100 checks).
  const SixVertexAverages averages = glauber.averages();
  const double samples = static_cast<double>(averages.samples);
  ASSERT_EQ(averages.samples, 40u * chains);
  const std::vector<double> mean = exact.mean_heights(), variance = exact.height_variances();
  for (std::size_t f = 0; f < mean.size(); ++f) {
    if (variance[f] < 1e-12) {  // boundary faces and the domain-wall corners: fixed
      EXPECT_NEAR(averages.mean_heights[f], mean[f], 1e-9);
    } else {
      EXPECT_NEAR(averages.mean_heights[f], mean[f], 5.5 * std::sqrt(variance[f] / samples)) << f;
    }
  }
  const std::vector<double> density = exact.type_densities();
  for (std::size_t k = 0; k < density.size(); ++k) {
    const double p = density[k];
    EXPECT_NEAR(averages.type_densities[k], p, 5.5 * std::sqrt(p * (1 - p) / samples) + 1e-12) << k;
  }
}

TEST(SixVertexGlauber, NonMonotoneWeightsSampleTheExactMeasure) {
  expect_exact_measure(3, {1.6, 0.8, 0.7}, 11);
  expect_exact_measure(4, {1.6, 0.8, 0.7}, 12);
}

TEST(SixVertexGlauber, BadInputsAreRefused) {
  const SixVertexBoundary b = SixVertexBoundary::domain_wall(3);
  const SixVertexGlauber<TestSpace> two(TestSpace(), b, {1, 1, 1}, 1, 2);
  EXPECT_EQ(two.state(1).values(), maximal_six_vertex_heights(b).values());
  EXPECT_THROW(two.state(2), std::out_of_range);
  EXPECT_THROW(two.state(-1), std::out_of_range);
  expect_error<std::invalid_argument>(
      [&] {
        SixVertexGlauber<TestSpace>(TestSpace(), b, {0, 1, 1}, 1);
      },
      {"weight a", "positive"});
  expect_error<std::invalid_argument>(
      [&] {
        SixVertexGlauber<TestSpace>(TestSpace(), b, {1, 1, 1}, 1, 0);
      },
      {"0 chains"});
  SixVertexHeights wrong = maximal_six_vertex_heights(b);
  wrong.set(1, 1, wrong.at(1, 1) + 2);
  expect_error<std::invalid_argument>(
      [&] {
        SixVertexGlauber<TestSpace>(TestSpace(), b, {1, 1, 1}, 1, wrong);
      },
      {"(1, 1)", "differ by exactly 1"});
  // 2^31 entries do not fit 32-bit kernel indices.
  expect_error<std::invalid_argument>(
      [] {
        SixVertexGlauber<TestSpace>(TestSpace(), SixVertexBoundary::domain_wall(1000), {1, 1, 1}, 1,
                                    3000);
      },
      {"32-bit"});
  // Heights beyond the int16 arrays.
  expect_error<std::invalid_argument>(
      [] {
        SixVertexGlauber<TestSpace>(
            TestSpace(), SixVertexBoundary::from_steps(2, 2, "++--++--", 40000), {1, 1, 1}, 1);
      },
      {"40002", "int16"});
}

}  // namespace

// Coupling from the past for the six-vertex model: exact samples of domain-wall blocks agree
// with exact enumeration (uniform ASMs and weighted c >= max(a, b)) by chi-square, the
// horizons behave as Propp-Wilson says, results do not depend on the execution space, and
// non-monotone weights are refused.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"
#include "chi_square.hpp"
#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/six_vertex/six_vertex_enumeration.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using portamc::testing::expect_error;
using portamc::tilings::testing::chi_square;

std::vector<std::uint64_t> state_counts(const SixVertexExactDistribution& exact,
                                        const SixVertexCftpResult& result) {
  std::vector<std::uint64_t> counts(exact.size(), 0);
  for (const SixVertexHeights& h : result.samples) ++counts[exact.index_of(h)];
  return counts;
}

// Samples `copies` exact states and compares them with the enumeration (p > 1e-6), and with a
// visibly different measure (p < 1e-6) to show the test can fail.
void expect_exact_samples(const SixVertexBoundary& b, const SixVertexWeights& w,
                          const SixVertexWeights& other, int copies, std::uint64_t seed) {
  const SixVertexExactDistribution exact(b, w), wrong(b, other);
  const SixVertexCftpResult result = six_vertex_cftp(TestSpace(), b, w, seed, copies);
  ASSERT_EQ(result.samples.size(), static_cast<std::size_t>(copies));
  const std::vector<std::uint64_t> counts = state_counts(exact, result);
  const auto chi2 = chi_square(counts, exact.probabilities());
  EXPECT_GT(chi2.p_value, 1e-6) << "chi2 " << chi2.statistic << " dof " << chi2.degrees_of_freedom;
  EXPECT_LT(chi_square(counts, wrong.probabilities()).p_value, 1e-6);
}

TEST(SixVertexCftp, UniformDomainWallSamplesAreUniformAlternatingSignMatrices) {
  expect_exact_samples(SixVertexBoundary::domain_wall(3), {1, 1, 1}, {1, 1, 1.6}, 20000, 3);
  expect_exact_samples(SixVertexBoundary::domain_wall(4), {1, 1, 1}, {1, 1, 1.3}, 40000, 4);
}

TEST(SixVertexCftp, WeightedSamplesFollowTheGibbsMeasure) {
  expect_exact_samples(SixVertexBoundary::domain_wall(3), {1, 0.7, 1.5}, {0.7, 1, 1.5}, 20000, 5);
  expect_exact_samples(SixVertexBoundary::domain_wall(4), {1, 0.7, 1.5}, {1, 1, 1}, 40000, 6);
}

TEST(SixVertexCftp, HorizonsAndBookkeeping) {
  const SixVertexBoundary b = SixVertexBoundary::domain_wall(6);
  CftpOptions options;
  options.initial_horizon = 4;
  const SixVertexCftpResult result = six_vertex_cftp(TestSpace(), b, {1, 1, 1}, 9, 64, options);
  // Horizons double from 4: the last pass is the common one, every copy met at one of them.
  EXPECT_EQ(result.horizon, 4u << (result.passes - 1));
  EXPECT_EQ(result.steps_run, 4u * ((1u << result.passes) - 1));
  EXPECT_EQ(
      *std::max_element(result.coalescence_horizons.begin(), result.coalescence_horizons.end()),
      result.horizon);
  for (std::uint64_t h : result.coalescence_horizons) {
    EXPECT_GE(h, 4u);
    EXPECT_EQ(h & (h - 1), 0u);
  }
  for (const SixVertexHeights& h : result.samples) validate_six_vertex_heights(b, h);
  // One copy with the same seed is the first copy of the batch: its chains use entity = face.
  const SixVertexCftpResult single = six_vertex_cftp(TestSpace(), b, {1, 1, 1}, 9, 1, options);
  EXPECT_EQ(single.horizon, result.coalescence_horizons[0]);
  EXPECT_EQ(single.samples[0], result.samples[0]);
}

TEST(SixVertexCftp, RefusesWhatItCannotDo) {
  const SixVertexBoundary b = SixVertexBoundary::domain_wall(3);
  expect_error<std::invalid_argument>(
      [&] {
        six_vertex_cftp(TestSpace(), b, {1.5, 1, 1}, 1);
      },
      {"coupling from the past", "c >= max(a, b)", "a = 1.5"});
  expect_error<std::invalid_argument>(
      [&] {
        six_vertex_cftp(TestSpace(), b, {1, 1, -2}, 1);
      },
      {"weight c"});
  CftpOptions bad;
  bad.initial_horizon = 0;
  expect_error<std::invalid_argument>(
      [&] {
        six_vertex_cftp(TestSpace(), b, {1, 1, 1}, 1, 1, bad);
      },
      {"initial_horizon"});
  expect_error<std::invalid_argument>(
      [&] {
        six_vertex_cftp(TestSpace(), b, {1, 1, 1}, 1, 0);
      },
      {"0 copies"});
  CftpOptions short_horizon;
  short_horizon.initial_horizon = 1;
  short_horizon.max_horizon = 2;
  expect_error<std::runtime_error>(
      [&] {
        six_vertex_cftp(TestSpace(), SixVertexBoundary::domain_wall(20), {1, 1, 1}, 1, 1,
                        short_horizon);
      },
      {"did not coalesce", "max_horizon 2"});
}

}  // namespace

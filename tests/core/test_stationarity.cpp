// Stationarity of production blocks (first third against last third) and the block
// autocorrelation that jackknife_with_tau reports beside each jackknife error.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "portamc/stationarity.hpp"
#include "portamc/statistics.hpp"

namespace {

using namespace portamc::stats;

// B blocks of K noisy components around 1, plus `drift` * exp(-b / 20) in component 0.
std::vector<std::vector<double>> blocks_with_drift(int b_count, int k, double drift,
                                                   std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> noise(0.0, 0.01);
  std::vector<std::vector<double>> blocks(b_count, std::vector<double>(k));
  for (int b = 0; b < b_count; ++b)
    for (int c = 0; c < k; ++c)
      blocks[b][c] = 1.0 + noise(gen) + (c == 0 ? drift * std::exp(-b / 20.0) : 0.0);
  return blocks;
}

TEST(Stationarity, StationaryBlocksPass) {
  int failures = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto check = compare_thirds(blocks_with_drift(100, 16, 0.0, seed));
    failures += !check.passed;
    EXPECT_EQ(check.z.size(), 16u);
  }
  EXPECT_EQ(failures, 0);  // a false alarm rate of ~1e-3 per run: none in 20 fixed seeds
}

TEST(Stationarity, ARelaxingComponentFails) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto check = compare_thirds(blocks_with_drift(100, 16, 0.05, seed));
    EXPECT_FALSE(check.passed) << "seed " << seed << " max |z| " << check.max_abs_z;
    EXPECT_EQ(std::abs(check.z[0]), check.max_abs_z);
    EXPECT_LT(check.z[0], 0.0);  // the component falls: the last third lies below the first
  }
}

TEST(Stationarity, StronglyCorrelatedBlocksFail) {
  // Stationary, but each block repeats most of the last: the thirds' scatter understates the
  // error of their means, which is what a jackknife over such blocks would do too.
  std::mt19937_64 gen(9);
  std::normal_distribution<double> noise(0.0, 1.0);
  int failures = 0;
  for (int run = 0; run < 10; ++run) {
    std::vector<std::vector<double>> blocks;
    double v = 0;
    for (int b = 0; b < 100; ++b) {
      v = 0.995 * v + noise(gen);
      blocks.push_back({v});
    }
    failures += !compare_thirds(blocks).passed;
  }
  EXPECT_GE(failures, 5);
}

TEST(Stationarity, ConstantAndBadInput) {
  const std::vector<std::vector<double>> constant(9, std::vector<double>{2.0, 3.0});
  const auto check = compare_thirds(constant);
  EXPECT_TRUE(check.passed);
  EXPECT_EQ(check.max_abs_z, 0.0);
  EXPECT_THROW(compare_thirds({{1.0}, {2.0}}), std::invalid_argument);
  EXPECT_THROW(compare_thirds({{1.0}, {2.0}, {1.0}, {1.0}, {1.0}, {1.0, 2.0}}),
               std::invalid_argument);
}

TEST(JackknifeWithTau, IndependentAndCorrelatedBlocks) {
  // The mean of each block's single value: pseudovalues are the block values themselves.
  std::mt19937_64 gen(5);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<std::vector<double>> independent, correlated;
  double v = 0;
  for (int b = 0; b < 400; ++b) {
    independent.push_back({noise(gen), 1.0});
    v = 0.9 * v + noise(gen);
    correlated.push_back({v, 1.0});
  }
  const auto mean = [](const std::vector<double>& s) { return std::vector<double>{s[0] / s[1]}; };
  const auto ind = jackknife_with_tau(independent, mean).front();
  const auto cor = jackknife_with_tau(correlated, mean).front();
  // tau_int from 400 blocks scatters by about 0.1 (independent) and 5 (rho = 0.9, 9.5).
  EXPECT_GT(ind.tau_int, 0.2);
  EXPECT_LT(ind.tau_int, 0.8);
  EXPECT_NEAR(ind.effective_blocks, 400 / (2 * ind.tau_int), 1e-9);
  EXPECT_GT(cor.tau_int, 4.0);  // AR(1) with rho = 0.9: 9.5
  EXPECT_DOUBLE_EQ(ind.error, jackknife(independent, mean).front().error);
}

}  // namespace

#include "portamc/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using portamc::stats::binned_mean;
using portamc::stats::binning_analysis;
using portamc::stats::BinningRow;
using portamc::stats::Estimate;
using portamc::stats::integrated_autocorrelation_time;
using portamc::stats::jackknife;
using portamc::stats::jackknife_error;

// std::normal_distribution is implementation-defined, so the fixed-seed streams would differ
// between standard libraries; mt19937_64 plus our own Box-Muller is specified bit for bit.
class NormalStream {
 public:
  explicit NormalStream(std::uint64_t seed) : engine_(seed) {}

  double operator()() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    const double angle = 2.0 * kPi * uniform();
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;

  // In (0, 1] so that log() stays finite; 53 bits fill the mantissa exactly.
  double uniform() { return static_cast<double>((engine_() >> 11) + 1) * 0x1.0p-53; }

  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

// Unit-variance AR(1); the first sample is drawn from the stationary law so there is no burn-in.
std::vector<double> ar1_series(double phi, std::size_t n, std::uint64_t seed) {
  NormalStream normal(seed);
  const double innovation_scale = std::sqrt(1.0 - phi * phi);
  std::vector<double> x(n);
  x[0] = normal();
  for (std::size_t t = 1; t < n; ++t) x[t] = phi * x[t - 1] + innovation_scale * normal();
  return x;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPhi = 0.9;
constexpr double kExactTau = (1.0 + kPhi) / (2.0 * (1.0 - kPhi));  // 9.5
constexpr std::size_t kLongN = std::size_t{1} << 20;

// Shared so that the 2^20-sample series is generated once for all tests that use it.
const std::vector<double>& correlated_series() {
  static const std::vector<double> series = ar1_series(kPhi, kLongN, 20240611);
  return series;
}

double sample_variance(const std::vector<double>& x) {
  double mean = 0.0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double sum = 0.0;
  for (double v : x) sum += (v - mean) * (v - mean);
  return sum / static_cast<double>(x.size() - 1);
}

// ---------------------------------------------------------------------------------------------
// binned_mean

TEST(BinnedMean, SingleSampleBinsGiveTheTextbookStandardError) {
  const Estimate e = binned_mean({1.0, 2.0, 3.0, 4.0}, 1);
  EXPECT_DOUBLE_EQ(e.value, 2.5);
  // Deviations +-1.5, +-0.5: variance 5/3, standard error sqrt(5/3 / 4).
  EXPECT_DOUBLE_EQ(e.error, std::sqrt(5.0 / 12.0));
}

TEST(BinnedMean, TrailingPartialBinIsDropped) {
  // Bins (1,2), (3,4), (5,6) have means 1.5, 3.5, 5.5; the 1000 must not leak into anything.
  const Estimate e = binned_mean({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 1000.0}, 2);
  EXPECT_DOUBLE_EQ(e.value, 3.5);
  // Bin-mean variance (4 + 0 + 4) / 2 = 4, over 3 bins.
  EXPECT_DOUBLE_EQ(e.error, std::sqrt(4.0 / 3.0));
}

TEST(BinnedMean, TwoBinsAreEnough) {
  const Estimate e = binned_mean({0.0, 2.0, 4.0, 6.0, 7.0}, 2);  // bin means 1 and 5
  EXPECT_DOUBLE_EQ(e.value, 3.0);
  EXPECT_DOUBLE_EQ(e.error, 2.0);  // variance 8, sqrt(8 / 2)
}

TEST(BinnedMean, ThrowsWithFewerThanTwoBins) {
  EXPECT_THROW(binned_mean({}, 1), std::invalid_argument);
  EXPECT_THROW(binned_mean({1.0}, 1), std::invalid_argument);
  EXPECT_THROW(binned_mean({1.0, 2.0, 3.0, 4.0, 5.0}, 3), std::invalid_argument);
  EXPECT_THROW(binned_mean({1.0, 2.0, 3.0}, 0), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// binning_analysis

TEST(BinningAnalysis, TableLayoutAndConsistencyWithBinnedMean) {
  const std::vector<double> series = ar1_series(0.5, 100, 7);
  const std::vector<BinningRow> rows = binning_analysis(series, 10);
  // 100, 50, 25, 12 bins; 16-sample bins would leave only 6.
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k].bin_size, std::size_t{1} << k);
    EXPECT_EQ(rows[k].bins, series.size() / rows[k].bin_size);
    const double direct = binned_mean(series, rows[k].bin_size).error;
    EXPECT_NEAR(rows[k].error, direct, 1e-12 * direct);
  }
}

TEST(BinningAnalysis, ShortSeriesGivesEmptyTable) {
  EXPECT_TRUE(binning_analysis({1.0, 2.0, 3.0}, 32).empty());
  // min_bins below 2 cannot produce an error, so the table still stops at 2 bins.
  const std::vector<BinningRow> rows = binning_analysis({1.0, 2.0, 3.0, 4.0}, 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows.back().bins, 2u);
}

TEST(BinningAnalysis, BinSizeOneIsTheNaiveError) {
  const std::vector<double>& series = correlated_series();
  const std::vector<BinningRow> rows = binning_analysis(series);
  ASSERT_FALSE(rows.empty());
  const double n = static_cast<double>(series.size());
  const double naive = std::sqrt(sample_variance(series) / n);
  EXPECT_NEAR(rows.front().error, naive, 1e-10 * naive);
  // The sample variance of this series scatters by ~0.2% around sigma^2 = 1, so 1% is ~4.5 sd.
  EXPECT_NEAR(rows.front().error, std::sqrt(1.0 / n), 0.01 * std::sqrt(1.0 / n));
}

TEST(BinningAnalysis, PlateauReachesTheAutocorrelationCorrectedError) {
  const std::vector<double>& series = correlated_series();
  const double expected = std::sqrt(2.0 * kExactTau / static_cast<double>(series.size()));
  // Asking for >= 512 bins keeps the largest rows statistically sharp: the error of an error
  // from 512..2048 bins scatters by 1.6-3.1%, and the residual binning bias of AR(1) at bin
  // sizes >= 512 is below 1%, so 10% is > 3 sd even for the noisiest row checked.
  const std::vector<BinningRow> rows = binning_analysis(series, 512);
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(rows.back().bin_size, 2048u);
  for (std::size_t k = rows.size() - 3; k < rows.size(); ++k) {
    EXPECT_NEAR(rows[k].error, expected, 0.1 * expected) << "bin size " << rows[k].bin_size;
  }
  // Without binning, correlations hide a factor sqrt(2 tau) ~ 4.4 of the error.
  EXPECT_LT(rows.front().error, 0.5 * expected);
}

// ---------------------------------------------------------------------------------------------
// integrated_autocorrelation_time

TEST(Autocorrelation, Ar1MatchesExactTau) {
  const auto result = integrated_autocorrelation_time(correlated_series());
  EXPECT_TRUE(result.window_converged);
  EXPECT_GE(static_cast<double>(result.window), 6.0 * result.tau_int);
  EXPECT_LT(result.tau_error, 0.5);
  EXPECT_GT(result.tau_error, 0.0);
  EXPECT_LT(std::abs(result.tau_int - kExactTau), 3.0 * result.tau_error)
      << "tau_int " << result.tau_int << " +- " << result.tau_error;
}

TEST(Autocorrelation, UncorrelatedSeriesGivesOneHalf) {
  const auto result = integrated_autocorrelation_time(ar1_series(0.0, std::size_t{1} << 18, 3));
  EXPECT_TRUE(result.window_converged);
  EXPECT_LE(result.window, 6u);
  EXPECT_LT(std::abs(result.tau_int - 0.5), 3.0 * result.tau_error)
      << "tau_int " << result.tau_int << " +- " << result.tau_error;
}

TEST(Autocorrelation, WindowScalesWithC) {
  const auto narrow = integrated_autocorrelation_time(correlated_series(), 3.0);
  const auto wide = integrated_autocorrelation_time(correlated_series(), 10.0);
  EXPECT_LT(narrow.window, wide.window);
  EXPECT_GE(static_cast<double>(wide.window), 10.0 * wide.tau_int);
}

TEST(Autocorrelation, ConstantSeries) {
  // 0.1 is not representable, so the computed mean is off by rounding; must still count as
  // constant.
  for (const std::vector<double>& series :
       {std::vector<double>(1000, 0.1), std::vector<double>(1, 3.0)}) {
    const auto result = integrated_autocorrelation_time(series);
    EXPECT_EQ(result.tau_int, 0.5);
    EXPECT_EQ(result.tau_error, 0.0);
    EXPECT_EQ(result.window, 0u);
    EXPECT_TRUE(result.window_converged);
  }
}

TEST(Autocorrelation, SlowRampDoesNotConverge) {
  // A linear trend looks correlated at every lag shorter than the series, so the window
  // condition cannot be met before N/2.
  std::vector<double> ramp(200);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<double>(i);
  const auto result = integrated_autocorrelation_time(ramp);
  EXPECT_FALSE(result.window_converged);
  EXPECT_EQ(result.window, ramp.size() / 2);
  EXPECT_TRUE(std::isfinite(result.tau_int));
  EXPECT_TRUE(std::isfinite(result.tau_error));
}

TEST(Autocorrelation, TinySeriesDoNotCrash) {
  for (const std::vector<double>& series :
       {std::vector<double>{1.0, 2.0}, std::vector<double>{1.0, 2.0, 0.5}}) {
    const auto result = integrated_autocorrelation_time(series);
    EXPECT_LE(result.window, series.size() / 2);
    EXPECT_FALSE(result.window_converged);
    EXPECT_TRUE(std::isfinite(result.tau_int));
  }
}

TEST(Autocorrelation, RejectsInvalidInput) {
  EXPECT_THROW(integrated_autocorrelation_time({}), std::invalid_argument);
  EXPECT_THROW(integrated_autocorrelation_time({1.0, 2.0, 3.0}, 0.0), std::invalid_argument);
  EXPECT_THROW(integrated_autocorrelation_time({1.0, std::nan(""), 3.0}), std::invalid_argument);
  EXPECT_THROW(integrated_autocorrelation_time({1.0, kInf, 3.0}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// jackknife

TEST(JackknifeError, KnownValues) {
  // Mean 2, squared deviations 2, (B-1)/B = 2/3.
  EXPECT_DOUBLE_EQ(jackknife_error({1.0, 2.0, 3.0}), std::sqrt(4.0 / 3.0));
  EXPECT_EQ(jackknife_error({4.0, 4.0}), 0.0);
  EXPECT_TRUE(std::isnan(jackknife_error({1.0, kInf, 3.0})));
  EXPECT_THROW(jackknife_error({1.0}), std::invalid_argument);
}

TEST(Jackknife, MeanEstimatorReproducesTheStandardError) {
  // Each block carries (sum, count), so the estimator knows how many blocks a sum contains.
  constexpr std::size_t kBlocks = 50;
  NormalStream normal(11);
  std::vector<double> x(kBlocks);
  std::vector<std::vector<double>> blocks;
  for (double& v : x) {
    v = 3.0 + 2.0 * normal();
    blocks.push_back({v, 1.0});
  }
  const auto result =
      jackknife(blocks, [](const std::vector<double>& s) { return std::vector{s[0] / s[1]}; });
  ASSERT_EQ(result.size(), 1u);

  double mean = 0.0;
  for (double v : x) mean += v;
  mean /= kBlocks;
  const double standard_error = std::sqrt(sample_variance(x) / kBlocks);
  EXPECT_NEAR(result[0].value, mean, 1e-12 * std::abs(mean));
  EXPECT_NEAR(result[0].error, standard_error, 1e-12 * standard_error);
}

TEST(Jackknife, RatioEstimatorMatchesTheDeltaMethod) {
  constexpr std::size_t kBlocks = 64;
  NormalStream normal(12);
  std::vector<std::vector<double>> blocks;
  double sum_a = 0.0;
  double sum_b = 0.0;
  for (std::size_t i = 0; i < kBlocks; ++i) {
    // Correlated numerator and denominator with a 20% spread make the ratio visibly nonlinear.
    const double z1 = normal();
    const double z2 = normal();
    blocks.push_back({10.0 + 2.0 * z1, 5.0 + 0.6 * z1 + 0.8 * z2});
    sum_a += blocks.back()[0];
    sum_b += blocks.back()[1];
  }
  const auto result =
      jackknife(blocks, [](const std::vector<double>& s) { return std::vector{s[0] / s[1]}; });

  // First-order propagation: var(A/B) ~ var(a - R b) / (n * mean(b)^2).
  const double ratio = sum_a / sum_b;
  double residual_squares = 0.0;
  for (const auto& block : blocks) {
    residual_squares += (block[0] - ratio * block[1]) * (block[0] - ratio * block[1]);
  }
  const double mean_b = sum_b / kBlocks;
  const double delta_error = std::sqrt(residual_squares / (kBlocks * (kBlocks - 1.0))) / mean_b;
  EXPECT_DOUBLE_EQ(result[0].value, ratio);
  EXPECT_NEAR(result[0].error, delta_error, 0.1 * delta_error);
}

TEST(Jackknife, NonFiniteLeaveOneOutGivesNaNForThatComponentOnly) {
  // Component 0 lives only in block 2, so leaving that block out takes log(0) = -inf.
  const std::vector<std::vector<double>> blocks = {{0.0, 1.0}, {0.0, 2.0}, {5.0, 3.0}, {0.0, 4.0}};
  const auto result = jackknife(blocks, [](const std::vector<double>& s) {
    return std::vector{std::log(s[0]), s[1]};
  });
  ASSERT_EQ(result.size(), 2u);
  EXPECT_DOUBLE_EQ(result[0].value, std::log(5.0));
  EXPECT_TRUE(std::isnan(result[0].error));
  // Leave-one-out sums 9, 8, 7, 6: squared deviations 5, times 3/4.
  EXPECT_DOUBLE_EQ(result[1].value, 10.0);
  EXPECT_DOUBLE_EQ(result[1].error, std::sqrt(3.75));
}

TEST(Jackknife, ThrowsForTooFewOrRaggedBlocks) {
  const auto identity = [](const std::vector<double>& s) { return s; };
  EXPECT_THROW(jackknife({}, identity), std::invalid_argument);
  EXPECT_THROW(jackknife({{1.0, 2.0}}, identity), std::invalid_argument);
  EXPECT_THROW(jackknife({{1.0, 2.0}, {3.0}}, identity), std::invalid_argument);
  EXPECT_THROW(jackknife({{1.0, 2.0}, {3.0, 4.0}, {5.0}}, identity), std::invalid_argument);
}

TEST(Jackknife, ThrowsWhenEstimatorLengthChanges) {
  const auto unstable = [](const std::vector<double>& s) {
    return s[0] > 7.0 ? std::vector{1.0, 2.0} : std::vector{1.0};
  };
  EXPECT_THROW(jackknife({{3.0}, {3.0}, {3.0}}, unstable), std::invalid_argument);
}

}  // namespace

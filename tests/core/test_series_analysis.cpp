// The core statistics service: equilibration detection, tau_int for any length, bin choice,
// the analysis of one series, and the error-calibration chi^2 that every model's calibration
// test uses. Series are AR(1) processes x_t = rho x_{t-1} + noise, whose tau_int is known
// exactly: (1 + rho) / (2 (1 - rho)).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../common/ar1_series.hpp"
#include "portamc/error_calibration.hpp"
#include "portamc/series_analysis.hpp"

namespace {

using namespace portamc::stats;

using portamc::testing::ar1_series;
double ar1_tau(double rho) {
  return portamc::testing::ar1_tau_int(rho);
}

TEST(ChiSquare, QuantilesMatchTables) {
  // Abramowitz & Stegun, Table 26.8.
  EXPECT_NEAR(chi_square_quantile(0.95, 1), 3.841459, 1e-5);
  EXPECT_NEAR(chi_square_quantile(0.001, 9), 1.152, 1e-3);
  EXPECT_NEAR(chi_square_quantile(0.999, 9), 27.877, 1e-3);
  EXPECT_NEAR(chi_square_quantile(0.5, 10), 9.341818, 1e-5);
  EXPECT_NEAR(chi_square_cdf(chi_square_quantile(0.3, 37.5), 37.5), 0.3, 1e-10);
  // Far tails keep their relative precision: Q(1/2, 50) = erfc(sqrt(50)).
  EXPECT_NEAR(regularized_gamma_q(0.5, 50.0) / std::erfc(std::sqrt(50.0)), 1.0, 1e-10);
  EXPECT_NEAR(regularized_gamma_p(3.0, 2.0) + regularized_gamma_q(3.0, 2.0), 1.0, 1e-15);
}

TEST(FDistribution, MatchesReferenceValues) {
  // Reference values from SciPy 1.10 (scipy.special.betainc, scipy.stats.f).
  EXPECT_NEAR(regularized_beta(4.5, 7.5, 0.3), 0.3108672652327821, 1e-12);
  EXPECT_NEAR(regularized_beta(0.5, 0.5, 0.2), 0.29516723530086664, 1e-12);
  EXPECT_NEAR(regularized_beta(10.0, 3.0, 0.9), 0.889130022255, 1e-11);
  EXPECT_NEAR(f_cdf(2.0, 9, 15), 0.8869092937703272, 1e-12);
  EXPECT_NEAR(f_cdf(0.5, 3, 40), 0.31558622338085796, 1e-12);
  EXPECT_NEAR(f_quantile(0.999, 9, 15), 6.255880292367395, 1e-9);
  EXPECT_NEAR(f_quantile(0.001, 9, 15), 0.10824773780099466, 1e-10);
  // Symmetry I_x(a, b) = 1 - I_(1-x)(b, a), and F -> chi^2 / d1 as d2 grows.
  EXPECT_NEAR(regularized_beta(2.5, 7.0, 0.4) + regularized_beta(7.0, 2.5, 0.6), 1.0, 1e-14);
  EXPECT_NEAR(9 * f_quantile(0.999, 9, 1e7), chi_square_quantile(0.999, 9), 1e-3);
}

TEST(ErrorCalibration, NoisyErrorsWidenTheRange) {
  // Ten means whose chi^2 is 30 with 9 dof: outside the chi^2 range, inside the range for
  // errors estimated with 15 dof (9 F(9, 15): [0.974, 56.3]).
  std::vector<double> means(10, 0.0), errors(10, 1.0);
  means[0] = std::sqrt(30.0 * 10.0 / 9.0);  // chi^2 around the mean = 30
  const auto exact_errors = calibrate_errors(means, errors);
  const auto noisy_errors = calibrate_errors(means, errors, std::nullopt, 1e-3, 15.0);
  EXPECT_NEAR(exact_errors.chi_square, 30.0, 1e-9);
  EXPECT_FALSE(exact_errors.pass) << exact_errors.summary;
  EXPECT_TRUE(noisy_errors.pass) << noisy_errors.summary;
  EXPECT_NEAR(noisy_errors.high, 56.30292263130655, 1e-6);
  EXPECT_NEAR(noisy_errors.low, 0.9742296402089519, 1e-8);
  EXPECT_THROW(calibrate_errors(means, errors, std::nullopt, 1e-3, 0.0), std::invalid_argument);
}

TEST(ErrorCalibration, HonestErrorsPassAndWrongOnesFail) {
  std::mt19937_64 gen(7);
  std::normal_distribution<double> unit(0.0, 1.0);
  std::vector<double> means, errors;
  for (int i = 0; i < 12; ++i) {
    errors.push_back(0.1 * (1 + i % 3));
    means.push_back(5.0 + errors.back() * unit(gen));
  }
  EXPECT_TRUE(calibrate_errors(means, errors).pass) << calibrate_errors(means, errors).summary;
  EXPECT_TRUE(calibrate_errors(means, errors, 5.0).pass);
  std::vector<double> too_small = errors, too_large = errors;
  for (double& e : too_small) e /= 3.0;
  for (double& e : too_large) e *= 3.0;
  EXPECT_FALSE(calibrate_errors(means, too_small).pass);
  EXPECT_FALSE(calibrate_errors(means, too_large).pass);
  EXPECT_FALSE(calibrate_errors(means, errors, 5.5).pass);  // a bias shows against the exact value
  EXPECT_THROW(calibrate_errors({1.0}, {1.0}), std::invalid_argument);
  EXPECT_THROW(calibrate_errors({1.0, 2.0}, {1.0, 0.0}), std::invalid_argument);
}

TEST(SeriesAnalysis, Ar1TauAndErrorMatchTheory) {
  const double rho = 0.9;
  const auto x = ar1_series(40000, rho, 11);
  const SeriesAnalysis a = analyse_series(x);
  EXPECT_NEAR(a.tau.tau_int, ar1_tau(rho), 4 * a.tau.tau_error);
  EXPECT_NEAR(a.effective_samples, a.used / (2 * a.tau.tau_int), 1e-9);
  EXPECT_GE(a.bins.bin_size, static_cast<std::size_t>(std::ceil(20 * a.tau.tau_int)));
  EXPECT_TRUE(a.reliable) << a.warning;
  // Exact error of the mean of a stationary AR(1) of unit variance: sqrt(2 tau / N).
  const double exact = std::sqrt(2 * ar1_tau(rho) / a.used);
  EXPECT_NEAR(a.mean.error / exact, 1.0, 0.35);
  EXPECT_LT(a.discarded, x.size() / 4);  // a stationary series loses little
}

TEST(SeriesAnalysis, LongSeriesTauByBinning) {
  const double rho = 0.95;
  const auto x = ar1_series(300000, rho, 3);
  const Autocorrelation direct = integrated_autocorrelation_time(x);
  const Autocorrelation binned = autocorrelation_time(x);
  EXPECT_NEAR(binned.tau_int, ar1_tau(rho), 0.15 * ar1_tau(rho));
  EXPECT_NEAR(binned.tau_int, direct.tau_int, 0.15 * direct.tau_int);
}

TEST(SeriesAnalysis, PlantedTransientIsRemoved) {
  const double rho = 0.8, sigma = 1.0;
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    auto x = ar1_series(20000, rho, seed);
    // An exponential relaxation from 30 sigma with time constant 300: below 0.05 sigma
    // after t = 300 ln 600 ~ 1900.
    for (std::size_t t = 0; t < x.size(); ++t) x[t] += 30 * sigma * std::exp(-double(t) / 300);
    const SeriesAnalysis kept_all = analyse_series_from(x, 0);
    const SeriesAnalysis a = analyse_series(x);
    EXPECT_GE(a.discarded, 600u) << "seed " << seed;
    EXPECT_LE(a.discarded, 10000u) << "seed " << seed;
    // The exact mean is 0 and the equilibrated estimate covers it. Kept, the transient reads
    // as long correlation: tau_int several times the true 4.5, and fewer effective samples.
    EXPECT_LT(std::abs(a.mean.value) / a.mean.error, 4.0) << "seed " << seed;
    EXPECT_NEAR(a.tau.tau_int, ar1_tau(rho), 4 * a.tau.tau_error) << "seed " << seed;
    EXPECT_GT(kept_all.tau.tau_int, 3 * ar1_tau(rho)) << "seed " << seed;
    EXPECT_GT(a.effective_samples, 2 * kept_all.effective_samples) << "seed " << seed;
  }
}

TEST(SeriesAnalysis, ErrorsAreCalibratedOverSeeds) {
  // Each series starts with a transient; the analysis must remove it and give errors whose
  // scatter over seeds matches them, against the exact mean 0.
  const double rho = 0.9;
  std::vector<double> means, errors;
  for (std::uint64_t seed = 100; seed < 116; ++seed) {
    auto x = ar1_series(8000, rho, seed);
    for (std::size_t t = 0; t < x.size(); ++t) x[t] += 10 * std::exp(-double(t) / 100);
    const SeriesAnalysis a = analyse_series(x);
    means.push_back(a.mean.value);
    errors.push_back(a.mean.error);
  }
  const ErrorCalibration c = calibrate_errors(means, errors, 0.0);
  EXPECT_TRUE(c.pass) << c.summary;
}

TEST(SeriesAnalysis, ShortAndDegenerateSeriesAreFlagged) {
  const SeriesAnalysis short_one = analyse_series(ar1_series(60, 0.9, 1));
  EXPECT_FALSE(short_one.reliable);
  EXPECT_NE(short_one.warning.find("effective samples"), std::string::npos) << short_one.warning;
  const SeriesAnalysis one = analyse_series({1.0});
  EXPECT_TRUE(std::isnan(one.mean.error));
  EXPECT_FALSE(one.reliable);
  const SeriesAnalysis constant = analyse_series(std::vector<double>(1000, 0.25));
  EXPECT_DOUBLE_EQ(constant.mean.value, 0.25);
  EXPECT_EQ(constant.mean.error, 0.0);
  EXPECT_EQ(constant.discarded, 0u);
  // Four anticorrelated samples: Sokal's sum is meaningless there, tau_int is unknown.
  const SeriesAnalysis tiny = analyse_series({1.0, -1.0, 1.0, -1.0});
  EXPECT_TRUE(std::isnan(tiny.tau.tau_int));
  EXPECT_TRUE(std::isnan(tiny.effective_samples));
  EXPECT_FALSE(tiny.reliable);
  EXPECT_NE(tiny.warning.find("too few samples"), std::string::npos) << tiny.warning;
  const SeriesAnalysis nan = analyse_series({1.0, NAN, 2.0});
  EXPECT_TRUE(std::isnan(nan.mean.value));
  EXPECT_FALSE(nan.warning.empty());
}

TEST(SeriesAnalysis, BinChoiceFollowsTau) {
  const BinChoice c = choose_bins(10000, 9.5);
  EXPECT_EQ(c.bin_size, 190u);
  EXPECT_EQ(c.bins, 52u);
  EXPECT_TRUE(c.long_enough);
  const BinChoice tight = choose_bins(1000, 9.5);  // 190 wanted, 62 allowed by 16 bins
  EXPECT_EQ(tight.bin_size, 62u);
  EXPECT_EQ(tight.bins, 16u);
  EXPECT_FALSE(tight.long_enough);
  EXPECT_EQ(choose_bins(1, 0.5).bins, 0u);
}

}  // namespace

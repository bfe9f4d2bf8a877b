// The autocorrelation function and its 1/e time against the AR(1) process, whose C(dt) = a^dt
// is exact, plus hand-computable series and the degenerate cases.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "portamc/cvf/autocorrelation.hpp"
#include "portamc/rng.hpp"

namespace cvf = portamc::cvf;
namespace rng = portamc::rng;

namespace {

// x_{k+1} = a x_k + sqrt(1 - a^2) g_k, started in the stationary law N(0, 1).
std::vector<double> ar1(double a, std::size_t samples, std::uint64_t seed) {
  std::vector<double> x(samples);
  const double kick = std::sqrt(1 - a * a);
  for (std::size_t k = 0; k < samples; ++k) {
    const double g = rng::normal_pair(rng::draw(seed, rng::purpose_test, 0, k)).first;
    x[k] = k == 0 ? g : a * x[k - 1] + kick * g;
  }
  return x;
}

// Bartlett's variance of the estimated C(k) of an AR(1) process from n samples.
double bartlett_error(double a, std::size_t k, std::size_t n) {
  const double a2k = std::pow(a, 2.0 * static_cast<double>(k));
  const double var = ((1 + a * a) * (1 - a2k) / (1 - a * a) - 2.0 * k * a2k) / n;
  return std::sqrt(var);
}

}  // namespace

class CvfAutocorrelationAr1 : public ::testing::TestWithParam<double> {};

TEST_P(CvfAutocorrelationAr1, MatchesTheExactExponential) {
  const double a = GetParam();
  const std::size_t samples = 200000;
  const double tau = -1 / std::log(a);
  const std::size_t max_lag = static_cast<std::size_t>(4 * tau) + 2;
  const auto x = ar1(a, samples, 77);
  const auto r = cvf::autocorrelation_function(x, max_lag);

  ASSERT_FALSE(r.constant);
  ASSERT_EQ(r.c.size(), max_lag + 1);
  EXPECT_EQ(r.c[0], 1.0);
  // The overall-mean estimator is biased by about -2 tau_int / samples at every lag.
  const double tau_int_exact = (1 + a) / (2 * (1 - a));
  const double bias = 2 * tau_int_exact / samples;
  for (std::size_t dt = 1; dt <= max_lag; ++dt) {
    EXPECT_NEAR(r.c[dt], std::pow(a, double(dt)), 5 * bartlett_error(a, dt, samples) + bias)
        << "dt = " << dt;
  }

  // tau_e: an error dC in C near 1/e moves the crossing by dC / |C'| = e tau dC.
  std::vector<double> exact(max_lag + 1);
  for (std::size_t dt = 0; dt <= max_lag; ++dt) exact[dt] = std::pow(a, double(dt));
  const double interpolated_exact = cvf::one_over_e_time(exact);
  const std::size_t near = static_cast<std::size_t>(tau + 1);
  const double tau_error = std::exp(1.0) * tau * (bartlett_error(a, near, samples) + bias);
  ASSERT_TRUE(r.tau_e_reached);
  EXPECT_NEAR(r.tau_e, interpolated_exact, 5 * tau_error);
  // Linear interpolation of a^dt overshoots -1/ln a by less than 0.09 lags (a = 0.5, the
  // coarsest case), less for slower decays.
  EXPECT_NEAR(interpolated_exact, tau, 0.09);
  EXPECT_GE(interpolated_exact, tau);

  // tau_int of AR(1) is (1 + a) / (2 (1 - a)).
  EXPECT_TRUE(r.tau_int.window_converged);
  EXPECT_NEAR(r.tau_int.tau_int, tau_int_exact, 5 * r.tau_int.tau_error);
}

INSTANTIATE_TEST_SUITE_P(SeveralDecayRates, CvfAutocorrelationAr1,
                         ::testing::Values(0.5, 0.8, 0.95));

TEST(CvfAutocorrelation, HandComputedAlternatingSeries) {
  // Mean 0, variance 1; lag 1 pairs give -1, lag 2 pairs +1.
  const std::vector<double> x{1, -1, 1, -1};
  const auto r = cvf::autocorrelation_function(x, 3);
  EXPECT_DOUBLE_EQ(r.c[1], -1.0);
  EXPECT_DOUBLE_EQ(r.c[2], 1.0);
  EXPECT_DOUBLE_EQ(r.c[3], -1.0);
  // C falls from 1 to -1 between lags 0 and 1: crossing at (1 - 1/e) / 2.
  EXPECT_DOUBLE_EQ(r.tau_e, (1 - std::exp(-1.0)) / 2);

  // Lagged sums divided by the number of pairs: x = {0, 0, 1, 2}: mean 3/4, deviations
  // {-3, -3, 1, 5}/4, variance 44/64; C(1) = (9 - 3 + 5)/16/3 / (44/64) = 1/3.
  const auto s = cvf::autocorrelation_function({0, 0, 1, 2}, 1);
  EXPECT_NEAR(s.c[1], (11.0 / 48.0) / (44.0 / 64.0), 1e-15);
}

TEST(CvfAutocorrelation, FftAgreesWithDirectSums) {
  for (std::size_t samples : {1000u, 4097u, 6000u}) {
    const auto x = ar1(0.9, samples, 5 + samples);
    const std::size_t max_lag = samples / 3;
    const auto direct = cvf::autocorrelation_function(x, max_lag, cvf::CorrelationMethod::direct);
    const auto fft = cvf::autocorrelation_function(x, max_lag, cvf::CorrelationMethod::fft);
    for (std::size_t dt = 0; dt <= max_lag; ++dt) {
      EXPECT_NEAR(fft.c[dt], direct.c[dt], 1e-11) << samples << " samples, dt = " << dt;
    }
    EXPECT_NEAR(fft.tau_e, direct.tau_e, 1e-9);
  }
}

TEST(CvfAutocorrelation, LongSeriesUseTheFftAutomatically) {
  // (max_lag + 1) * samples = 5e10 direct multiply-adds would take a minute; the FFT is fast.
  const auto x = ar1(0.99, 1000000, 3);
  const auto r = cvf::autocorrelation_function(x, 50000);
  ASSERT_TRUE(r.tau_e_reached);
  const double tau = -1 / std::log(0.99);
  // Bartlett error near dt = tau for a = 0.99 from 1e6 samples: about 0.014, times e tau.
  EXPECT_NEAR(r.tau_e, tau, 5 * std::exp(1.0) * tau * bartlett_error(0.99, 100, 1000000));
}

TEST(CvfAutocorrelation, ConstantSeriesAreFlaggedNotFatal) {
  for (double value : {0.0, 0.1, -3.7}) {
    const std::vector<double> x(500, value);
    const auto r = cvf::autocorrelation_function(x, 10);
    EXPECT_TRUE(r.constant);
    ASSERT_EQ(r.c.size(), 11u);
    for (double c : r.c) EXPECT_TRUE(std::isnan(c));
    EXPECT_FALSE(r.tau_e_reached);
    EXPECT_TRUE(std::isnan(r.tau_e));
    EXPECT_EQ(r.tau_int.tau_int, 0.5);
  }
}

TEST(CvfAutocorrelation, SlowDecayReportsNotReached) {
  const auto x = ar1(0.99, 20000, 9);  // tau_e ~ 100 samples
  const auto r = cvf::autocorrelation_function(x, 10);
  EXPECT_FALSE(r.constant);
  EXPECT_FALSE(r.tau_e_reached);
  EXPECT_TRUE(std::isnan(r.tau_e));
  EXPECT_GT(r.c[10], std::exp(-1.0));
}

TEST(CvfAutocorrelation, InvalidInputIsRejected) {
  EXPECT_THROW(cvf::autocorrelation_function({}, 0), std::invalid_argument);
  EXPECT_THROW(cvf::autocorrelation_function({1, 2, 3}, 3), std::invalid_argument);
  EXPECT_THROW(cvf::autocorrelation_function({1, std::numeric_limits<double>::quiet_NaN(), 3}, 1),
               std::invalid_argument);
  EXPECT_THROW(cvf::autocorrelation_function({1, std::numeric_limits<double>::infinity(), 3}, 1),
               std::invalid_argument);
  EXPECT_NO_THROW(cvf::autocorrelation_function({1, 2, 3}, 2));
}

// t0 and w0 (flow_scales.hpp): exact on a curve with known scales, convergent in the record
// spacing, NaN when the reference is not reached, and jackknife errors that match the scatter
// of the estimates over independent data sets.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "portamc/su2/flow_scales.hpp"

namespace {

using portamc::su2::estimate_flow_scales;
using portamc::su2::flow_scales;

std::vector<double> grid(double step, double end) {
  std::vector<double> t;
  for (int k = 0; k * step <= end + 1e-12; ++k) t.push_back(k * step);
  return t;
}

// t^2 E = k t^3 / (1 + t): t0 and w0 solve k t0^3 / (1 + t0) = r and
// W(t) = k t^3 (3 + 2 t) / (1 + t)^2 = r at t = w0^2 (found here by bisection).
double solve(double (*f)(double), double r) {
  double lo = 0, hi = 10;
  for (int i = 0; i < 200; ++i) (f(0.5 * (lo + hi)) < r ? lo : hi) = 0.5 * (lo + hi);
  return 0.5 * (lo + hi);
}
constexpr double k = 0.08;
double curve(double t) {
  return k * t * t * t / (1 + t);
}
double w_of_t(double t) {
  return k * t * t * t * (3 + 2 * t) / ((1 + t) * (1 + t));
}

TEST(FlowScales, FindKnownScalesAndConvergeInTheSpacing) {
  const double t0 = solve(curve, 0.1), w0 = std::sqrt(solve(w_of_t, 0.1));
  double previous_error = 1;
  for (double h : {0.04, 0.02, 0.01}) {
    std::vector<double> t = grid(h, 3.0), y;
    for (double s : t) y.push_back(curve(s));
    const auto scales = flow_scales(t, y);
    const double error = std::fabs(scales.t0 - t0) + std::fabs(scales.w0 - w0);
    EXPECT_LT(error, 2e-3) << "h = " << h;
    // Second order: halving h divides the error by about 4.
    if (h < 0.04) EXPECT_LT(error, 0.35 * previous_error) << "h = " << h;
    previous_error = error;
  }
}

TEST(FlowScales, NaNWhenTheReferenceIsNotReachedAndBadInputRefused) {
  std::vector<double> t = grid(0.1, 1.0), y;
  for (double s : t) y.push_back(curve(s));  // t^2 E reaches 0.04 at t = 1
  const auto scales = flow_scales(t, y);
  EXPECT_TRUE(std::isnan(scales.t0));
  EXPECT_TRUE(std::isnan(scales.w0));
  EXPECT_THROW(flow_scales({0.0}, {0.0}), std::invalid_argument);
  EXPECT_THROW(flow_scales({0.0, 0.0}, {0.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(flow_scales({0.0, 1.0}, {0.0}), std::invalid_argument);
}

TEST(FlowScales, JackknifeErrorsMatchTheScatterOverDataSets) {
  // 300 data sets of 40 independent configurations, E(t) = (1 + 0.2 xi) curve(t) / t^2: the
  // pulls of t0 and w0 against the noiseless scales must have unit variance.
  const std::vector<double> t = grid(0.02, 3.0);
  std::vector<double> y;
  for (double s : t) y.push_back(curve(s));
  const auto exact = flow_scales(t, y);
  std::mt19937_64 rng(17);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int sets = 300;
  double pull2_t0 = 0, pull2_w0 = 0;
  for (int s = 0; s < sets; ++s) {
    std::vector<std::vector<double>> configurations;
    for (int c = 0; c < 40; ++c) {
      const double factor = 1 + 0.2 * normal(rng);
      std::vector<double> e;
      for (double time : t) e.push_back(time > 0 ? factor * curve(time) / (time * time) : 0.0);
      configurations.push_back(e);
    }
    const auto est = estimate_flow_scales(t, configurations);
    pull2_t0 += std::pow((est.t0.value - exact.t0) / est.t0.error, 2);
    pull2_w0 += std::pow((est.w0.value - exact.w0) / est.w0.error, 2);
  }
  // Mean of a chi^2_1 over 300 sets: 1 with standard error sqrt(2/300) = 0.082; 4 of them.
  EXPECT_NEAR(pull2_t0 / sets, 1.0, 4 * 0.082);
  EXPECT_NEAR(pull2_w0 / sets, 1.0, 4 * 0.082);
}

}  // namespace

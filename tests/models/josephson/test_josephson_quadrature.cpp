// Tests of the adaptive Gauss–Kronrod quadrature: the degree of exactness of the single-panel
// rule (which checks every tabulated node and weight), integrals with known values including
// endpoint singularities, honesty of the error estimate, and the reporting of failures.
#include "portamc/josephson/detail/quadrature.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "../../common/expect_error.hpp"

namespace {

namespace jj = portamc::josephson;

TEST(JosephsonQuadrature, SinglePanelIsExactForPolynomialsUpToDegree31) {
  jj::QuadratureOptions one_panel;
  one_panel.max_subdivisions = 1;
  for (int k = 0; k <= 31; ++k) {
    const auto monomial = [k](double x) { return std::pow(x, k); };
    // [0, 1] maps odd and even powers onto every weight; [-1, 1] gives the even powers the
    // largest possible weight on the outermost nodes.
    const jj::QuadratureResult half = jj::adaptive_integral(monomial, 0.0, 1.0, one_panel);
    const jj::QuadratureResult full = jj::adaptive_integral(monomial, -1.0, 1.0, one_panel);
    EXPECT_NEAR(half.value, 1.0 / (k + 1), 4e-16) << "degree " << k;
    EXPECT_NEAR(full.value, k % 2 == 0 ? 2.0 / (k + 1) : 0.0, 4e-16) << "degree " << k;
    EXPECT_EQ(half.evaluations, 21);
  }
  // Degree 32 is beyond the Kronrod rule: the single panel is visibly inexact (error about
  // 4e-12), so the loop above is a real check of the exactness degree.
  const auto x32 = [](double x) { return std::pow(x, 32); };
  EXPECT_GT(std::fabs(jj::adaptive_integral(x32, -1.0, 1.0, one_panel).value - 2.0 / 33.0), 1e-13);
}

TEST(JosephsonQuadrature, GaussRuleIsExactToDegree19SoTheErrorEstimateVanishesThere) {
  jj::QuadratureOptions one_panel;
  one_panel.max_subdivisions = 1;
  const auto x18 = [](double x) { return std::pow(x, 18); };
  const auto x20 = [](double x) { return std::pow(x, 20); };
  const jj::QuadratureResult exact = jj::adaptive_integral(x18, -1.0, 1.0, one_panel);
  const jj::QuadratureResult beyond = jj::adaptive_integral(x20, -1.0, 1.0, one_panel);
  EXPECT_LT(exact.error_estimate, 1e-13);
  EXPECT_GT(beyond.error_estimate, 1e-6);
}

TEST(JosephsonQuadrature, SmoothAndSingularIntegrandsReachTheRequestedAccuracy) {
  struct Case {
    double (*f)(double);
    double a, b, exact;
  };
  const Case cases[] = {
      {[](double x) { return std::exp(x); }, 0.0, 2.0, std::exp(2.0) - 1.0},
      {[](double x) { return std::sqrt(x); }, 0.0, 1.0, 2.0 / 3.0},
      {[](double x) { return std::log(x); }, 0.0, 1.0, -1.0},
      {[](double x) { return 1.0 / std::sqrt(x); }, 0.0, 1.0, 2.0},
      {[](double x) { return 1.0 / (1.0 + 1e4 * (x - 0.3) * (x - 0.3)); }, 0.0, 1.0,
       (std::atan(70.0) + std::atan(30.0)) / 100.0},
  };
  for (const Case& c : cases) {
    jj::QuadratureOptions options;
    options.relative_tolerance = 1e-10;
    const jj::QuadratureResult r = jj::adaptive_integral(c.f, c.a, c.b, options);
    EXPECT_TRUE(r.converged) << c.exact;
    EXPECT_NEAR(r.value, c.exact, 1e-10 * std::fabs(c.exact)) << c.exact;
    // The estimate must bound the actual error (it is conservative by design).
    EXPECT_LE(std::fabs(r.value - c.exact), r.error_estimate + 4e-16 * std::fabs(c.exact));
  }
}

TEST(JosephsonQuadrature, ReversedLimitsChangeTheSign) {
  const auto f = [](double x) { return std::cos(x); };
  EXPECT_NEAR(jj::adaptive_integral(f, 1.0, 0.0).value, -std::sin(1.0), 1e-15);
  EXPECT_EQ(jj::adaptive_integral(f, 0.5, 0.5).value, 0.0);
}

TEST(JosephsonQuadrature, ReportsNonConvergenceAndBadInput) {
  using portamc::testing::expect_error;
  const auto singular = [](double x) { return 1.0 / std::sqrt(std::fabs(x - 0.3)); };
  jj::QuadratureOptions few;
  few.max_subdivisions = 3;
  EXPECT_FALSE(jj::adaptive_integral(singular, 0.0, 1.0, few).converged);
  expect_error<std::runtime_error>(
      [&] { jj::adaptive_integral_or_throw(singular, 0.0, 1.0, few, "demo"); },
      {"demo", "tolerance"});
  const auto nan_at_half = [](double x) {
    return x == 0.5 ? std::numeric_limits<double>::quiet_NaN() : x;
  };
  expect_error<std::domain_error>([&] { jj::adaptive_integral(nan_at_half, 0.0, 1.0); }, {"0.5"});
  const auto one = [](double) { return 1.0; };
  expect_error<std::invalid_argument>(
      [&] { jj::adaptive_integral(one, 0.0, std::numeric_limits<double>::infinity()); },
      {"limits"});
  jj::QuadratureOptions zero;
  zero.relative_tolerance = 0.0;
  expect_error<std::invalid_argument>([&] { jj::adaptive_integral(one, 0.0, 1.0, zero); },
                                      {"tolerances"});
  jj::QuadratureOptions none;
  none.max_subdivisions = 0;
  expect_error<std::invalid_argument>([&] { jj::adaptive_integral(one, 0.0, 1.0, none); },
                                      {"max_subdivisions"});
}

}  // namespace

// Tests of the Pontryagin mean first-passage time: a linear potential (exact closed form), a
// harmonic potential against an independent evaluation (the inner integral in closed form as an
// erfc, the outer by a composite Simpson rule), and the washboard at low noise against the
// overdamped Kramers rate, including the leading correction derived below.
#include "portamc/josephson/first_passage_exact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "../../common/expect_error.hpp"
#include "portamc/josephson/kramers.hpp"
#include "portamc/josephson/washboard.hpp"

namespace {

namespace jj = portamc::josephson;
constexpr double kPi = 3.14159265358979323846;

TEST(JosephsonFirstPassageExact, LinearPotentialGivesDistanceOverDriftVelocity) {
  // U = -F phi: the drift is F / beta whatever the noise, and T = beta (b - x0) / F exactly.
  for (double theta : {0.05, 0.25, 2.0}) {
    const double force = 0.7;
    jj::FirstPassageProblem p;
    p.start = -1.0;
    p.threshold = 2.0;
    p.beta = 2.0;
    p.theta = theta;
    p.lower_limit = p.start - 70.0 * theta / force;
    p.max_panel_width = 0.1;
    const jj::MeanFirstPassageTime t =
        jj::mean_first_passage_time([force](double x) { return -force * x; }, p);
    const double exact = p.beta * (p.threshold - p.start) / force;
    EXPECT_NEAR(t.value, exact, 1e-8 * exact) << theta;
    EXPECT_NEAR(t.log_value, std::log(exact), 1e-8) << theta;
    EXPECT_LE(t.relative_error_estimate, 1e-8);
    EXPECT_NEAR(t.error_estimate, t.value * t.relative_error_estimate, 1e-15 * t.value);
    EXPECT_GT(t.potential_evaluations, 0);
  }
}

// T for U = k z^2 / 2 by a different route: int_{-inf}^{y} e^{-k z^2 / (2 theta)} dz =
// sqrt(pi theta / (2k)) erfc(-y sqrt(k / (2 theta))), then Simpson over y.
double harmonic_reference(double k, double beta, double theta, double x0, double b) {
  const auto integrand = [&](double y) {
    return std::exp(k * y * y / (2.0 * theta)) * std::erfc(-y * std::sqrt(k / (2.0 * theta)));
  };
  const int n = 200000;  // even
  const double h = (b - x0) / n;
  double sum = integrand(x0) + integrand(b);
  for (int i = 1; i < n; ++i) sum += (i % 2 == 1 ? 4.0 : 2.0) * integrand(x0 + i * h);
  return beta / theta * std::sqrt(kPi * theta / (2.0 * k)) * sum * h / 3.0;
}

TEST(JosephsonFirstPassageExact, HarmonicPotentialMatchesAnIndependentEvaluation) {
  const double k = 2.0, beta = 1.5, theta = 0.3;
  const auto harmonic = [k](double z) { return 0.5 * k * z * z; };
  // The second threshold lies 10 theta up the parabola: T ~ e^10, testing the scaling.
  for (double b : {1.2, 1.732}) {
    jj::FirstPassageProblem p;
    p.start = -0.5;
    p.threshold = b;
    p.beta = beta;
    p.theta = theta;
    p.lower_limit = -5.0;  // U(-5) - U(-0.5) = 24.75 = 82 theta
    p.max_panel_width = 0.05;
    const double reference = harmonic_reference(k, beta, theta, p.start, b);
    const jj::MeanFirstPassageTime t = jj::mean_first_passage_time(harmonic, p);
    EXPECT_NEAR(t.value, reference, 1e-8 * reference) << b;
  }
}

// Near the saddle x_b, U - U_b = -(omega_b^2 / 2) s^2 - (V0 gamma / 6) s^3 + O(s^4), s = y - x_b.
// The outer integral up to the saddle is then half a Gaussian plus the cubic term's
// (V0 gamma / 6 theta) int_0^inf t^3 e^{-omega_b^2 t^2 / 2 theta} dt = V0 gamma theta /
// (3 omega_b^4), so T r_overdamped = (1/2) (1 + kappa sqrt(theta)) + O(theta / DeltaU) with
// kappa = sqrt(2/pi) V0 gamma / (3 omega_b^3): the correction to "half the Kramers time" is of
// order sqrt(theta / DeltaU), not theta / DeltaU. A threshold well past the saddle sees the full
// Kramers time, with a correction of order theta / DeltaU.
TEST(JosephsonFirstPassageExact, WashboardApproachesTheKramersTimeAtLowNoise) {
  const double v0 = 1.0, gamma = 0.5, beta = 1.0;
  const double barrier = jj::barrier_height(v0, gamma);
  const double omega_b = jj::barrier_frequency(v0, gamma);
  const double kappa = std::sqrt(2.0 / kPi) * v0 * gamma / (3.0 * std::pow(omega_b, 3));
  double previous_top = 1.0, previous_past = 1.0;
  for (double ratio : {10.0, 20.0, 40.0, 80.0, 160.0, 400.0}) {
    const double theta = barrier / ratio;
    const double rate = jj::escape_rate(jj::RateFormula::overdamped, v0, beta, theta, gamma);
    const double top = jj::washboard_mean_first_passage_time(
                           v0, gamma, beta, theta, jj::well_bottom(gamma), jj::saddle_point(gamma))
                           .value *
                       rate;
    const double past_point = jj::saddle_point(gamma) + 8.0 * std::sqrt(theta) / omega_b;
    const double past = jj::washboard_mean_first_passage_time(v0, gamma, beta, theta,
                                                              jj::well_bottom(gamma), past_point)
                            .value *
                        rate;
    EXPECT_NEAR(top, 0.5 * (1.0 + kappa * std::sqrt(theta)), 0.3 / ratio) << ratio;
    EXPECT_NEAR(past, 1.0, 0.5 / ratio) << ratio;
    EXPECT_LT(std::fabs(top - 0.5), previous_top) << ratio;
    EXPECT_LT(std::fabs(past - 1.0), previous_past) << ratio;
    previous_top = std::fabs(top - 0.5);
    previous_past = std::fabs(past - 1.0);
  }
}

TEST(JosephsonFirstPassageExact, LogValueSurvivesTimesBeyondTheDoubleRange) {
  // DeltaU / theta = 1000: T ~ e^1000 overflows, ln T does not; it must agree with the Kramers
  // estimate ln T = ln(1/2) - ln(prefactor) + DeltaU / theta up to the small correction above.
  const double v0 = 1.0, gamma = 0.5, beta = 0.7;
  const double theta = jj::barrier_height(v0, gamma) / 1000.0;
  const jj::MeanFirstPassageTime t = jj::washboard_mean_first_passage_time(
      v0, gamma, beta, theta, jj::well_bottom(gamma), jj::saddle_point(gamma));
  EXPECT_TRUE(std::isinf(t.value));
  const double kramers =
      std::log(0.5) -
      std::log(jj::escape_rate_prefactor(jj::RateFormula::overdamped, v0, beta, theta, gamma)) +
      1000.0;
  EXPECT_NEAR(t.log_value, kramers, 0.01);
}

TEST(JosephsonFirstPassageExact, ScalesLinearlyWithDamping) {
  // beta only rescales time in the overdamped equation.
  const auto t = [](double beta) {
    return jj::washboard_mean_first_passage_time(2.0, 0.3, beta, 0.2, 0.0, 2.5).value;
  };
  EXPECT_NEAR(t(3.0) / t(1.0), 3.0, 3e-8);
}

TEST(JosephsonFirstPassageExact, RejectsBadInput) {
  using portamc::testing::expect_error;
  const auto wb = [](double gamma, double theta, double x0, double b) {
    jj::washboard_mean_first_passage_time(1.0, gamma, 1.0, theta, x0, b);
  };
  expect_error<std::invalid_argument>([&] { wb(0.0, 0.1, 0.0, 2.0); }, {"gamma", "positive"});
  expect_error<std::invalid_argument>([&] { wb(-0.2, 0.1, 0.0, 2.0); }, {"gamma"});
  expect_error<std::invalid_argument>([&] { wb(0.5, 0.0, 0.0, 2.0); }, {"theta"});
  expect_error<std::invalid_argument>([&] { wb(0.5, -1.0, 0.0, 2.0); }, {"theta"});
  expect_error<std::invalid_argument>([&] { wb(0.5, 0.1, 2.0, 2.0); }, {"threshold", "start"});
  expect_error<std::invalid_argument>([&] { wb(0.5, 0.1, 2.0, 1.0); }, {"threshold"});
  expect_error<std::invalid_argument>(
      [] { jj::washboard_mean_first_passage_time(1.0, 0.5, 0.0, 0.1, 0.0, 2.0); }, {"beta"});
  jj::FirstPassageProblem p;
  p.start = 0.0;
  p.threshold = 1.0;
  p.lower_limit = -1.0;  // U(-1) - U(0) = 1 = 1 theta, far below the cutoff
  const auto linear = [](double x) { return -x; };
  expect_error<std::invalid_argument>([&] { jj::mean_first_passage_time(linear, p); },
                                      {"lower_limit", "truncation_cutoff"});
  p.lower_limit = -100.0;
  p.max_panel_width = 0.0;
  expect_error<std::invalid_argument>([&] { jj::mean_first_passage_time(linear, p); },
                                      {"max_panel_width"});
}

}  // namespace

// Tests of the washboard geometry against the potential itself (finite differences, direct
// root finding and a crude fine-grid sum for the action) and against the closed-form limits:
// the pendulum separatrix at gamma = 0 and the cubic potential as gamma -> 1.
#include "portamc/josephson/washboard.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "../../common/expect_error.hpp"

namespace {

namespace jj = portamc::josephson;
constexpr double kPi = 3.14159265358979323846;

double potential(double v0, double gamma, double phi) {
  return -v0 * (std::cos(phi) + gamma * phi);
}

TEST(JosephsonWashboard, StationaryPointsAreWhereTheForceVanishes) {
  for (double gamma : {0.0, 0.2, 0.5, 0.9, 0.999}) {
    const double v0 = 3.0;
    EXPECT_NEAR(jj::washboard_force(v0, gamma, jj::well_bottom(gamma)), 0.0, 1e-14);
    EXPECT_NEAR(jj::washboard_force(v0, gamma, jj::saddle_point(gamma)), 0.0, 1e-14);
    EXPECT_LT(jj::well_bottom(gamma), jj::saddle_point(gamma));
    EXPECT_EQ(jj::default_escape_threshold(gamma), jj::saddle_point(gamma));
    EXPECT_DOUBLE_EQ(jj::washboard_potential(v0, gamma, 0.7), potential(v0, gamma, 0.7));
  }
  EXPECT_DOUBLE_EQ(jj::saddle_point(0.0), kPi);
}

TEST(JosephsonWashboard, BarrierIsThePotentialDifferenceBetweenSaddleAndWell) {
  for (double gamma : {0.0, 0.1, 0.5, 0.8, 0.95}) {
    const double v0 = 2.5;
    const double direct = potential(v0, gamma, jj::saddle_point(gamma)) -
                          potential(v0, gamma, jj::well_bottom(gamma));
    EXPECT_NEAR(jj::barrier_height(v0, gamma), direct, 1e-13 * v0) << gamma;
  }
  EXPECT_DOUBLE_EQ(jj::barrier_height(1.0, 0.0), 2.0);
  // The paper's Fig. 10 bias: 2 (sqrt(3)/2 - pi/6) = 0.684853...
  EXPECT_NEAR(jj::barrier_height(1.0, 0.5), std::sqrt(3.0) - kPi / 3.0, 1e-15);
}

TEST(JosephsonWashboard, BarrierApproachesTheCubicLimitWithItsFirstCorrection) {
  // With x = 1 - gamma: arccos(1 - x) = sqrt(2x) (1 + x/12 + ...), so
  // DeltaU = (4 sqrt2 / 3) V0 x^(3/2) (1 + x/20 + O(x^2)). At x = 1e-8 the closed form would
  // have lost half of its digits to cancellation; the series must not.
  const double v0 = 5.0;
  for (double nominal : {1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10}) {
    const double gamma = 1.0 - nominal;
    const double x = 1.0 - gamma;  // exact, unlike nominal, which gamma does not represent
    const double cubic = 4.0 * std::sqrt(2.0) / 3.0 * v0 * std::pow(x, 1.5);
    const double ratio = jj::barrier_height(v0, gamma) / cubic;
    EXPECT_NEAR(ratio, 1.0 + x / 20.0, 0.01 * x * x + 1e-12) << "x = " << x;
  }
}

TEST(JosephsonWashboard, FrequenciesAreTheCurvaturesOfThePotential) {
  const double h = 1e-4;
  for (double gamma : {0.0, 0.3, 0.7, 0.95}) {
    const double v0 = 4.0;
    const auto second_derivative = [&](double phi) {
      return (potential(v0, gamma, phi + h) - 2.0 * potential(v0, gamma, phi) +
              potential(v0, gamma, phi - h)) /
             (h * h);
    };
    const double w0 = jj::well_frequency(v0, gamma);
    const double wb = jj::barrier_frequency(v0, gamma);
    EXPECT_NEAR(w0 * w0, second_derivative(jj::well_bottom(gamma)), 1e-6) << gamma;
    EXPECT_NEAR(wb * wb, -second_derivative(jj::saddle_point(gamma)), 1e-6) << gamma;
    EXPECT_NEAR(w0, std::sqrt(v0) * std::pow(1.0 - gamma * gamma, 0.25), 1e-14) << gamma;
  }
}

TEST(JosephsonWashboard, TurningPointLiesAtTheSaddleEnergyLeftOfTheWell) {
  EXPECT_NEAR(jj::saddle_orbit_turning_point(1.0, 0.0), -kPi, 1e-15);
  for (double gamma : {0.05, 0.4, 0.8, 0.99}) {
    const double v0 = 2.0;
    const double turn = jj::saddle_orbit_turning_point(v0, gamma);
    const double saddle = jj::saddle_point(gamma);
    EXPECT_LT(turn, jj::well_bottom(gamma));
    EXPECT_GT(turn, saddle - 2.0 * kPi);
    EXPECT_NEAR(potential(v0, gamma, turn), potential(v0, gamma, saddle), 1e-13 * v0) << gamma;
  }
}

// Independent action: midpoint sum of sqrt(2 (U_s - U)) over a fine grid between a turning point
// found here by bisection on the naive potential and the saddle. The square-root zero at the
// turning point limits the midpoint rule to an error of order step^(3/2).
double crude_action(double v0, double gamma) {
  const double saddle = kPi - std::asin(gamma);
  const double top = potential(v0, gamma, saddle);
  double low = saddle - 2.0 * kPi, high = std::asin(gamma);
  for (int i = 0; i < 100; ++i) {
    const double middle = 0.5 * (low + high);
    (potential(v0, gamma, middle) > top ? low : high) = middle;
  }
  const int n = 2000000;
  const double step = (saddle - high) / n;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double phi = high + (i + 0.5) * step;
    sum += std::sqrt(std::fmax(2.0 * (top - potential(v0, gamma, phi)), 0.0));
  }
  return 2.0 * sum * step;
}

TEST(JosephsonWashboard, ActionMatchesADirectFineGridSum) {
  for (double gamma : {0.1, 0.5, 0.8}) {
    const double v0 = 3.0;
    const double action = jj::saddle_orbit_action(v0, gamma);
    EXPECT_NEAR(action, crude_action(v0, gamma), 1e-7 * action) << gamma;
  }
}

TEST(JosephsonWashboard, ActionIsThePendulumSeparatrixAtZeroBias) {
  // 2 int_{-pi}^{pi} sqrt(2 V0 (1 + cos phi)) dphi = 16 sqrt(V0).
  for (double v0 : {0.05, 1.0, 211.0}) {
    EXPECT_NEAR(jj::saddle_orbit_action(v0, 0.0), 16.0 * std::sqrt(v0), 1e-11 * std::sqrt(v0));
  }
}

TEST(JosephsonWashboard, ActionApproachesTheCubicPotentialLimit) {
  // S_b -> 36 DeltaU / (5 omega0); the relative correction turns out to be of second order in
  // x = 1 - gamma (about 0.015 x^2 measured here), so the bound 0.02 x^2 is tight enough that a
  // wrong prefactor or a loss of accuracy as gamma -> 1 would show.
  const double v0 = 7.0;
  double previous_deviation = 1.0;
  for (double nominal : {1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8}) {
    const double gamma = 1.0 - nominal;
    const double x = 1.0 - gamma;
    const double cubic =
        36.0 * jj::barrier_height(v0, gamma) / (5.0 * jj::well_frequency(v0, gamma));
    const double deviation = std::fabs(jj::saddle_orbit_action(v0, gamma) / cubic - 1.0);
    EXPECT_LT(deviation, 0.02 * x * x + 1e-13) << "x = " << x;
    EXPECT_LE(deviation, previous_deviation) << "x = " << x;
    previous_deviation = deviation;
  }
}

TEST(JosephsonWashboard, RejectsBadInput) {
  using portamc::testing::expect_error;
  expect_error<std::invalid_argument>([] { jj::barrier_height(0.0, 0.5); }, {"V0", "positive"});
  expect_error<std::invalid_argument>([] { jj::barrier_height(-1.0, 0.5); }, {"V0"});
  expect_error<std::invalid_argument>(
      [] { jj::barrier_height(std::numeric_limits<double>::quiet_NaN(), 0.5); }, {"V0"});
  expect_error<std::invalid_argument>([] { jj::barrier_height(1.0, 1.0); }, {"gamma", "[0, 1)"});
  expect_error<std::invalid_argument>([] { jj::well_frequency(1.0, -0.1); }, {"gamma"});
  expect_error<std::invalid_argument>([] { jj::saddle_orbit_action(1.0, 1.5); }, {"gamma"});
  expect_error<std::invalid_argument>([] { jj::saddle_point(2.0); }, {"gamma", "saddle_point"});
}

}  // namespace

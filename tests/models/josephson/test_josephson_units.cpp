// Tests of the unit conversion with the paper's Fig. 11 junction (Li et al.: R = 250 ohm,
// C = 88 fF, I_c = 0.748 uA, T = 1.2 K, 200 Hz sweep), every normalised number recomputed here
// from the SI constants by a differently arranged formula, plus round trips, the identities
// between derived quantities, and bad input.
#include "portamc/josephson/units.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "../../common/expect_error.hpp"

namespace {

namespace jj = portamc::josephson;

// CODATA 2018 / SI 2019 exact values, typed in again rather than taken from the header.
constexpr double kE = 1.602176634e-19, kH = 6.62607015e-34, kKB = 1.380649e-23;
constexpr double kPi = 3.14159265358979323846;

jj::PhysicalJunction li2007() {
  jj::PhysicalJunction j;
  j.resistance = 250.0;
  j.capacitance = 88e-15;
  j.critical_current = 0.748e-6;
  j.temperature = 1.2;
  j.bias_ramp_rate = jj::ramp_rate_from_sweep_frequency(j.critical_current, 200.0);
  return j;
}

TEST(JosephsonUnits, LiJunctionGivesThePapersNormalisedParameters) {
  const jj::NormalisedJunction n = jj::normalise(li2007());
  // V0 = hbar I_c C / (8 e^3), beta = hbar / (4 e^2 R), theta = k_B T C / (4 e^2),
  // t0 = hbar C / (4 e^2), with hbar = h / 2 pi.
  const double hbar = kH / (2.0 * kPi);
  const double v0 = hbar * 0.748e-6 * 88e-15 / (8.0 * kE * kE * kE);
  const double beta = hbar / (4.0 * kE * kE * 250.0);
  const double theta = kKB * 1.2 * 88e-15 / (4.0 * kE * kE);
  const double t0 = hbar * 88e-15 / (4.0 * kE * kE);
  EXPECT_NEAR(n.v0, v0, 1e-13 * v0);
  EXPECT_NEAR(n.beta, beta, 1e-13 * beta);
  EXPECT_NEAR(n.theta, theta, 1e-13 * theta);
  EXPECT_NEAR(n.time_unit, t0, 1e-13 * t0);
  // The values quoted for this junction: V0 ~ 211, beta ~ 4.11, theta ~ 14.2.
  EXPECT_NEAR(n.v0, 211.0, 0.5);
  EXPECT_NEAR(n.beta, 4.11, 0.01);
  EXPECT_NEAR(n.theta, 14.2, 0.05);
  EXPECT_NEAR(n.time_unit, 9.04e-11, 0.01e-11);
  // A 200 Hz sawtooth: nu = f t0 ~ 1.8e-8, so a step h = 1e-4 raises the bias by ~1.8e-12,
  // the paper's "about 1e-12".
  ASSERT_TRUE(n.nu.has_value());
  EXPECT_NEAR(*n.nu, 200.0 * t0, 1e-13 * 200.0 * t0);
  EXPECT_GT(*n.nu * 1e-4, 1e-12);
  EXPECT_LT(*n.nu * 1e-4, 3e-12);
  // "h = 1e-4 corresponds to about 2e-4 of the natural oscillating period" 2 pi / sqrt(V0).
  EXPECT_NEAR(1e-4 / (2.0 * kPi / std::sqrt(n.v0)), 2.3e-4, 0.1e-4);
}

TEST(JosephsonUnits, DerivedQuantitiesAreConsistent) {
  const jj::NormalisedJunction n = jj::normalise(li2007());
  // omega_p t0 = sqrt(V0); Q = omega_p R C = sqrt(V0) / beta; E_J / E_C = V0.
  EXPECT_NEAR(n.plasma_frequency * n.time_unit, std::sqrt(n.v0), 1e-12 * std::sqrt(n.v0));
  EXPECT_NEAR(n.quality_factor, n.plasma_frequency * 250.0 * 88e-15, 1e-12 * n.quality_factor);
  EXPECT_NEAR(n.josephson_energy / n.charging_energy, n.v0, 1e-12 * n.v0);
  // The paper's noise amplitude, eq. (8): D = beta theta = k_B T hbar / (R (2e)^2 E_C).
  const double hbar = kH / (2.0 * kPi);
  EXPECT_NEAR(n.beta * n.theta, kKB * 1.2 * hbar / (250.0 * 4.0 * kE * kE * n.charging_energy),
              1e-12 * n.beta * n.theta);
  EXPECT_FALSE(jj::normalise([] {
                 jj::PhysicalJunction j = li2007();
                 j.bias_ramp_rate.reset();
                 return j;
               }())
                   .nu.has_value());
}

TEST(JosephsonUnits, ConversionsBackToPhysicalUnitsRoundTrip) {
  const jj::NormalisedJunction n = jj::normalise(li2007());
  const double seconds = jj::seconds_from_normalised_time(n, 1.0 / *n.nu);
  EXPECT_NEAR(seconds, 1.0 / 200.0, 1e-15);  // one sawtooth period reaches gamma = 1
  EXPECT_NEAR(jj::normalised_time_from_seconds(n, seconds), 1.0 / *n.nu, 1e-6);
  EXPECT_NEAR(jj::current_from_gamma(n, 0.5), 0.374e-6, 1e-20);
  EXPECT_NEAR(jj::kelvin_from_theta(n, n.theta), 1.2, 1e-14);
}

TEST(JosephsonUnits, RejectsBadInput) {
  using portamc::testing::expect_error;
  const auto with = [](auto change) {
    jj::PhysicalJunction j = li2007();
    change(j);
    return j;
  };
  expect_error<std::invalid_argument>(
      [&] { jj::normalise(with([](jj::PhysicalJunction& j) { j.resistance = 0.0; })); },
      {"resistance", "positive"});
  expect_error<std::invalid_argument>(
      [&] { jj::normalise(with([](jj::PhysicalJunction& j) { j.capacitance = -1e-15; })); },
      {"capacitance"});
  expect_error<std::invalid_argument>(
      [&] { jj::normalise(with([](jj::PhysicalJunction& j) { j.critical_current = 0.0; })); },
      {"critical_current"});
  expect_error<std::invalid_argument>(
      [&] {
        jj::normalise(with([](jj::PhysicalJunction& j) {
          j.temperature = std::numeric_limits<double>::quiet_NaN();
        }));
      },
      {"temperature"});
  expect_error<std::invalid_argument>(
      [&] { jj::normalise(with([](jj::PhysicalJunction& j) { j.temperature = 0.0; })); },
      {"temperature"});
  expect_error<std::invalid_argument>(
      [&] { jj::normalise(with([](jj::PhysicalJunction& j) { j.bias_ramp_rate = -1.0; })); },
      {"bias_ramp_rate"});
  // Valid inputs whose normalised values leave the double range.
  expect_error<std::domain_error>(
      [&] { jj::normalise(with([](jj::PhysicalJunction& j) { j.capacitance = 1e-320; })); },
      {"plasma frequency", "not finite"});
  expect_error<std::invalid_argument>([] { jj::ramp_rate_from_sweep_frequency(1e-6, 0.0); },
                                      {"frequency"});
  expect_error<std::invalid_argument>(
      [] { jj::seconds_from_normalised_time(jj::NormalisedJunction{}, 1.0); }, {"time_unit"});
}

}  // namespace

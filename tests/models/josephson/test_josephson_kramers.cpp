// Tests of the escape-rate formulas: values against the formulas written out here from the
// closed-form barrier and frequencies, the limits that connect the formulas (Smoluchowski,
// transition-state theory, energy diffusion, the turnover), the Mel'nikov–Meshkov factor against
// a crude fine-grid sum of its defining integral and its analytic small- and large-delta
// asymptotics, monotonicity, and bad input.
#include "portamc/josephson/kramers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/josephson/washboard.hpp"

namespace {

namespace jj = portamc::josephson;
using jj::RateFormula;
constexpr double kPi = 3.14159265358979323846;

const RateFormula kAllFormulas[] = {RateFormula::overdamped, RateFormula::kramers_moderate,
                                    RateFormula::energy_diffusion, RateFormula::melnikov_meshkov};

// The barrier and frequency in their textbook closed forms (fine away from gamma -> 1).
double closed_barrier(double v0, double g) {
  return 2.0 * v0 * (std::sqrt(1.0 - g * g) - g * std::acos(g));
}
double closed_omega(double v0, double g) {
  return std::sqrt(v0 * std::sqrt(1.0 - g * g));
}

TEST(JosephsonKramers, RatesMatchTheFormulasWrittenOut) {
  const double v0 = 1.0, gamma = 0.5, beta = 0.05, theta = 0.2;  // the paper's D = 0.01
  const double w = closed_omega(v0, gamma);
  const double arrhenius = std::exp(-closed_barrier(v0, gamma) / theta);
  const double kappa = beta / (2.0 * w);
  const double action = jj::saddle_orbit_action(v0, gamma);
  const double expected[] = {
      w * w / (2.0 * kPi * beta) * arrhenius,
      w / (2.0 * kPi) * (std::sqrt(1.0 + kappa * kappa) - kappa) * arrhenius,
      w / (2.0 * kPi) * beta * action / theta * arrhenius,
  };
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(jj::escape_rate(kAllFormulas[i], v0, beta, theta, gamma), expected[i],
                1e-12 * expected[i])
        << jj::rate_formula_name(kAllFormulas[i]);
  }
  EXPECT_NEAR(jj::escape_rate(RateFormula::melnikov_meshkov, v0, beta, theta, gamma),
              jj::melnikov_meshkov_factor(beta * action / theta) * expected[1],
              1e-12 * expected[1]);
}

TEST(JosephsonKramers, ModerateDampingTendsToSmoluchowskiAtStrongDamping) {
  // 2 kappa (sqrt(1 + kappa^2) - kappa) = 1 - 1/(4 kappa^2) + O(kappa^-4), 1/(4 kappa^2) =
  // (omega_b / beta)^2.
  const double v0 = 1.0, gamma = 0.5, theta = 0.1;
  for (double beta : {10.0, 30.0, 100.0}) {
    const double eps2 = std::pow(jj::barrier_frequency(v0, gamma) / beta, 2);
    const double ratio = jj::escape_rate(RateFormula::kramers_moderate, v0, beta, theta, gamma) /
                         jj::escape_rate(RateFormula::overdamped, v0, beta, theta, gamma);
    EXPECT_NEAR(ratio, 1.0 - eps2, 2.0 * eps2 * eps2) << beta;
  }
}

TEST(JosephsonKramers, ModerateDampingTendsToTransitionStateTheoryAtWeakDamping) {
  const double v0 = 2.0, gamma = 0.3, theta = 0.2;
  const double tst =
      closed_omega(v0, gamma) / (2.0 * kPi) * std::exp(-closed_barrier(v0, gamma) / theta);
  for (double beta : {1e-2, 1e-4, 1e-6}) {
    const double ratio =
        jj::escape_rate(RateFormula::kramers_moderate, v0, beta, theta, gamma) / tst;
    EXPECT_NEAR(ratio, 1.0 - beta / (2.0 * closed_omega(v0, gamma)), beta * beta) << beta;
  }
}

TEST(JosephsonKramers, TurnoverFormulaConnectsEnergyDiffusionAndSpatialDiffusion) {
  const double v0 = 1.0, gamma = 0.5, theta = 0.05;
  // delta = beta S_b / theta; S_b(1, 0.5) is about 5.3, so beta = 1e-7 gives delta ~ 1e-5 and
  // beta = 5 gives delta ~ 500.
  const double weak = 1e-7;
  const double ratio_weak = jj::escape_rate(RateFormula::melnikov_meshkov, v0, weak, theta, gamma) /
                            jj::escape_rate(RateFormula::energy_diffusion, v0, weak, theta, gamma);
  EXPECT_NEAR(ratio_weak, 1.0, 0.01);
  const double strong = 5.0;
  const double ratio_strong =
      jj::escape_rate(RateFormula::melnikov_meshkov, v0, strong, theta, gamma) /
      jj::escape_rate(RateFormula::kramers_moderate, v0, strong, theta, gamma);
  EXPECT_NEAR(ratio_strong, 1.0, 1e-12);
  // A(delta) <= min(1, delta) and the spatial rate never exceeds transition-state theory, so the
  // turnover rate lies below both limiting formulas; it rises and then falls with beta.
  std::vector<double> rates;
  for (double beta = 1e-5; beta < 1e3; beta *= 2.0) {
    const double mm = jj::escape_rate(RateFormula::melnikov_meshkov, v0, beta, theta, gamma);
    EXPECT_LE(mm, jj::escape_rate(RateFormula::kramers_moderate, v0, beta, theta, gamma));
    EXPECT_LE(mm, jj::escape_rate(RateFormula::energy_diffusion, v0, beta, theta, gamma));
    rates.push_back(mm);
  }
  std::size_t peak = 0;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    if (rates[i] > rates[peak]) peak = i;
  }
  EXPECT_GT(peak, 5u);
  EXPECT_LT(peak, rates.size() - 5);
  for (std::size_t i = 0; i + 1 < rates.size(); ++i) {
    if (i < peak) EXPECT_LT(rates[i], rates[i + 1]) << i;
    if (i >= peak) EXPECT_GT(rates[i], rates[i + 1]) << i;
  }
}

// The defining integral of ln A, by a midpoint sum over x in [0, X] with X where the integrand
// has fallen below e^-60 (smooth integrand: error of order step^2).
double crude_log_factor(double delta) {
  const double x_max = std::sqrt(60.0 / delta) + 10.0;
  const int n = 4000000;
  const double step = x_max / n;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = (i + 0.5) * step;
    const double q = x * x + 0.25;
    sum += std::log(1.0 - std::exp(-delta * q)) / q;
  }
  return sum * step / kPi;
}

TEST(JosephsonKramers, MelnikovMeshkovFactorMatchesItsDefiningIntegral) {
  for (double delta : {0.05, 1.0, 8.0}) {
    EXPECT_NEAR(std::log(jj::melnikov_meshkov_factor(delta)), crude_log_factor(delta), 1e-7)
        << delta;
  }
}

TEST(JosephsonKramers, MelnikovMeshkovFactorHasItsAsymptotics) {
  // Small delta: ln A - ln delta = (1/pi) int ln((1 - e^-y) / y) / q dx, y = delta q, is
  // dominated by x ~ delta^-1/2; scaling x = t / sqrt(delta) and integrating by parts gives
  // sqrt(delta) / pi * int_0^inf s^(-1/2) (1/(e^s - 1) - 1/s) ds = sqrt(delta / pi) zeta(1/2).
  const double zeta_half = -1.4603545088095868;
  for (double delta : {1e-8, 1e-6, 1e-4}) {
    const double a = jj::melnikov_meshkov_factor(delta);
    EXPECT_NEAR(a / delta, 1.0 + zeta_half * std::sqrt(delta / kPi), delta) << delta;
  }
  // Large delta: 1 - A = (2 / sqrt(pi delta)) exp(-delta/4) (1 + O(1/delta)).
  for (double delta : {40.0, 100.0}) {
    const double tail = 2.0 / std::sqrt(kPi * delta) * std::exp(-delta / 4.0);
    EXPECT_NEAR(1.0 - jj::melnikov_meshkov_factor(delta), tail, 6.0 / delta * tail) << delta;
  }
  EXPECT_EQ(jj::melnikov_meshkov_factor(0.0), 0.0);
  EXPECT_EQ(jj::melnikov_meshkov_factor(std::numeric_limits<double>::infinity()), 1.0);
  double previous = 0.0;
  for (double delta = 1e-6; delta < 1e3; delta *= 1.5) {
    const double a = jj::melnikov_meshkov_factor(delta);
    // Strictly increasing until A rounds to 1 (from delta ~ 150 on).
    if (a < 1.0) EXPECT_GT(a, previous) << delta;
    EXPECT_GE(a, previous) << delta;
    EXPECT_LE(a, std::fmin(1.0, delta)) << delta;
    previous = a;
  }
}

TEST(JosephsonKramers, RatesGrowWithTemperatureAndBiasWhileTheBarrierIsHigh) {
  const double v0 = 5.0, beta = 0.3;
  for (RateFormula f : kAllFormulas) {
    double previous = 0.0;
    for (double theta = 0.05; theta < 0.5; theta *= 1.3) {
      const double r = jj::escape_rate(f, v0, beta, theta, 0.5);
      EXPECT_GT(r, previous) << jj::rate_formula_name(f) << " theta " << theta;
      previous = r;
    }
    previous = 0.0;
    for (double gamma = 0.0; gamma < 0.85; gamma += 0.05) {
      const double r = jj::escape_rate(f, v0, beta, 0.1, gamma);
      EXPECT_GT(r, previous) << jj::rate_formula_name(f) << " gamma " << gamma;
      previous = r;
    }
  }
}

TEST(JosephsonKramers, MeanTimeIsTheInverseRateAndPrefactorSplitsOffTheArrheniusFactor) {
  for (RateFormula f : kAllFormulas) {
    const double r = jj::escape_rate(f, 1.0, 0.05, 0.2, 0.5);
    EXPECT_DOUBLE_EQ(jj::mean_escape_time(f, 1.0, 0.05, 0.2, 0.5), 1.0 / r);
    EXPECT_NEAR(jj::escape_rate_prefactor(f, 1.0, 0.05, 0.2, 0.5) *
                    std::exp(-jj::barrier_height(1.0, 0.5) / 0.2),
                r, 1e-14 * r);
    // DeltaU / theta = 2000 / 0.1: the rate underflows, the time is infinite, the prefactor
    // still finite and positive.
    EXPECT_EQ(jj::escape_rate(f, 1000.0, 0.05, 0.1, 0.0), 0.0);
    EXPECT_TRUE(std::isinf(jj::mean_escape_time(f, 1000.0, 0.05, 0.1, 0.0)));
    EXPECT_GT(jj::escape_rate_prefactor(f, 1000.0, 0.05, 0.1, 0.0), 0.0);
  }
}

TEST(JosephsonKramers, RatesStayFiniteAsTheBarrierVanishes) {
  for (RateFormula f : kAllFormulas) {
    for (double x : {1e-6, 1e-10, 1e-15}) {
      const double r = jj::escape_rate(f, 200.0, 4.0, 14.0, 1.0 - x);
      EXPECT_TRUE(std::isfinite(r)) << jj::rate_formula_name(f) << " x " << x;
      EXPECT_GE(r, 0.0);
    }
  }
}

TEST(JosephsonKramers, RejectsBadInput) {
  using portamc::testing::expect_error;
  const auto f = RateFormula::kramers_moderate;
  expect_error<std::invalid_argument>([&] { jj::escape_rate(f, 0.0, 1.0, 1.0, 0.5); }, {"V0"});
  expect_error<std::invalid_argument>([&] { jj::escape_rate(f, 1.0, -0.1, 1.0, 0.5); },
                                      {"beta", "-0.1"});
  expect_error<std::invalid_argument>([&] { jj::escape_rate(f, 1.0, 1.0, 0.0, 0.5); },
                                      {"theta", "positive"});
  expect_error<std::invalid_argument>([&] { jj::mean_escape_time(f, 1.0, 1.0, 1.0, 1.0); },
                                      {"gamma"});
  expect_error<std::invalid_argument>(
      [&] { jj::escape_rate(f, 1.0, std::numeric_limits<double>::infinity(), 1.0, 0.5); },
      {"beta"});
  expect_error<std::invalid_argument>([] { jj::melnikov_meshkov_factor(-1.0); }, {"delta"});
  expect_error<std::invalid_argument>(
      [] { jj::escape_rate(static_cast<RateFormula>(17), 1.0, 1.0, 1.0, 0.5); }, {"RateFormula"});
  EXPECT_EQ(std::string(jj::rate_formula_name(RateFormula::melnikov_meshkov)), "melnikov_meshkov");
}

}  // namespace

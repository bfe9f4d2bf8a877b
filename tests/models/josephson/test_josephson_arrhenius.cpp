// Tests of the weighted Arrhenius fits: exact recovery of both forms from noiseless data, the
// distribution of pulls and of chi^2 over many noisy synthetic data sets with known errors
// (fixed seed, tolerances from the number of data sets), and bad input.
#include "portamc/josephson/arrhenius.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "../../common/expect_error.hpp"

namespace {

namespace jj = portamc::josephson;
using jj::ArrheniusForm;

const std::vector<double> kTheta = {0.05, 0.06, 0.07, 0.08, 0.1, 0.12, 0.15};

double model_time(ArrheniusForm form, double a, double barrier, double theta) {
  const double t = std::exp(a + barrier / theta);
  return form == ArrheniusForm::theta_prefactor ? t / theta : t;
}

TEST(JosephsonArrhenius, RecoversExactParametersOfBothForms) {
  for (ArrheniusForm form : {ArrheniusForm::plain, ArrheniusForm::theta_prefactor}) {
    std::vector<double> tau, error;
    for (double th : kTheta) {
      tau.push_back(model_time(form, 1.3, 0.6849, th));
      error.push_back(0.01 * tau.back() * (1.0 + 10.0 * th));  // unequal weights
    }
    const jj::ArrheniusFit fit = jj::fit_arrhenius(kTheta, tau, error, form);
    EXPECT_NEAR(fit.barrier, 0.6849, 1e-12);
    EXPECT_NEAR(fit.intercept, 1.3, 1e-11);
    EXPECT_NEAR(fit.chi_squared, 0.0, 1e-18);
    EXPECT_EQ(fit.degrees_of_freedom, static_cast<int>(kTheta.size()) - 2);
  }
  // The same data read with the other form: the slope absorbs the 1/theta prefactor and moves.
  std::vector<double> tau, error;
  for (double th : kTheta) {
    tau.push_back(model_time(ArrheniusForm::theta_prefactor, 1.3, 0.6849, th));
    error.push_back(0.01 * tau.back());
  }
  EXPECT_GT(std::fabs(jj::fit_arrhenius(kTheta, tau, error, ArrheniusForm::plain).barrier - 0.6849),
            0.01);
}

TEST(JosephsonArrhenius, ErrorsAreTheFormulaForTwoPoints) {
  // Two points: the line goes through both, the slope error is sqrt(s1^2 + s2^2) / (x2 - x1).
  const std::vector<double> theta = {0.1, 0.2};
  const std::vector<double> tau = {100.0, 10.0};
  const std::vector<double> error = {3.0, 0.2};
  const jj::ArrheniusFit fit = jj::fit_arrhenius(theta, tau, error, ArrheniusForm::plain);
  EXPECT_NEAR(fit.barrier, std::log(10.0) / 5.0, 1e-14);
  EXPECT_NEAR(fit.barrier_error, std::sqrt(0.03 * 0.03 + 0.02 * 0.02) / 5.0, 1e-14);
  EXPECT_EQ(fit.degrees_of_freedom, 0);
  EXPECT_NEAR(fit.chi_squared, 0.0, 1e-20);
}

// Standard normal deviates by Box–Muller from the exactly specified mt19937_64 (std::
// normal_distribution is implementation-defined), so the data sets are the same everywhere.
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : engine_(seed) {}
  double operator()() {
    const double u1 = ((engine_() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = (engine_() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  std::mt19937_64 engine_;
};

TEST(JosephsonArrhenius, PullsAndChiSquaredOfNoisyDataHaveTheirDistributions) {
  // Relative errors of 0.5-2% (as from a few thousand escape times); 4000 data sets. The pull
  // mean has standard error 1/sqrt(4000) = 0.016, the pull variance about sqrt(2/4000) = 0.022,
  // <chi^2/dof> about sqrt(2/(5*4000)) = 0.01: tolerances are five of those.
  const int sets = 4000;
  const double a = -0.4, barrier = 0.6849;
  Normal normal(20240607);
  for (ArrheniusForm form : {ArrheniusForm::plain, ArrheniusForm::theta_prefactor}) {
    double pull_sum = 0.0, pull_sq = 0.0, a_pull_sum = 0.0, a_pull_sq = 0.0, chi_sum = 0.0;
    for (int s = 0; s < sets; ++s) {
      std::vector<double> tau, error;
      for (std::size_t i = 0; i < kTheta.size(); ++i) {
        const double exact = model_time(form, a, barrier, kTheta[i]);
        const double relative = 0.005 * (1.0 + i % 4);
        tau.push_back(exact * (1.0 + relative * normal()));
        error.push_back(relative * exact);
      }
      const jj::ArrheniusFit fit = jj::fit_arrhenius(kTheta, tau, error, form);
      const double pull = (fit.barrier - barrier) / fit.barrier_error;
      const double a_pull = (fit.intercept - a) / fit.intercept_error;
      pull_sum += pull;
      pull_sq += pull * pull;
      a_pull_sum += a_pull;
      a_pull_sq += a_pull * a_pull;
      chi_sum += fit.chi_squared / fit.degrees_of_freedom;
    }
    EXPECT_NEAR(pull_sum / sets, 0.0, 0.08);
    EXPECT_NEAR(pull_sq / sets, 1.0, 0.11);
    EXPECT_NEAR(a_pull_sum / sets, 0.0, 0.08);
    EXPECT_NEAR(a_pull_sq / sets, 1.0, 0.11);
    EXPECT_NEAR(chi_sum / sets, 1.0, 0.05);
  }
}

TEST(JosephsonArrhenius, RejectsBadInput) {
  using portamc::testing::expect_error;
  const auto plain = ArrheniusForm::plain;
  expect_error<std::invalid_argument>([&] { jj::fit_arrhenius({0.1}, {2.0}, {0.1}, plain); },
                                      {"at least 2"});
  expect_error<std::invalid_argument>(
      [&] {
        jj::fit_arrhenius({0.1, 0.2}, {2.0}, {0.1, 0.1}, plain);
      },
      {"same length"});
  expect_error<std::invalid_argument>(
      [&] {
        jj::fit_arrhenius({0.1, 0.2}, {2.0, 0.0}, {0.1, 0.1}, plain);
      },
      {"mean_time"});
  expect_error<std::invalid_argument>(
      [&] {
        jj::fit_arrhenius({0.1, 0.2}, {2.0, 1.0}, {0.1, -0.1}, plain);
      },
      {"error", "-0.1"});
  expect_error<std::invalid_argument>(
      [&] {
        jj::fit_arrhenius({0.1, 0.0}, {2.0, 1.0}, {0.1, 0.1}, plain);
      },
      {"theta"});
  expect_error<std::invalid_argument>(
      [&] {
        jj::fit_arrhenius({0.1, std::numeric_limits<double>::quiet_NaN()}, {2.0, 1.0}, {0.1, 0.1},
                          plain);
      },
      {"theta"});
  expect_error<std::invalid_argument>(
      [&] {
        jj::fit_arrhenius({0.1, 0.1}, {2.0, 1.0}, {0.1, 0.1}, plain);
      },
      {"different"});
}

}  // namespace

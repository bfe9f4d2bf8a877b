// Simulated escape statistics against theory (issue #4's validation list):
//  - overdamped mean first-passage time against the exact Pontryagin integral within 2 %,
//    with a time-step convergence check;
//  - the low-noise escape time of the underdamped equation against Kramers' formula;
//  - the switching-bias distribution under a slow ramp against Fulton–Dunkleberger built on
//    the exact quasi-stationary escape rate, by a Kolmogorov–Smirnov distance.
// Each runs an Ensemble on every backend of the build (TestSpace) with a fixed seed; tolerances
// come from the runs' own standard errors (or the DKW bound for a distribution) plus the stated
// systematic error of the theory.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "portamc/josephson/ensemble.hpp"
#include "portamc/josephson/first_passage_exact.hpp"
#include "portamc/josephson/kramers.hpp"
#include "portamc/josephson/switching_theory.hpp"
#include "portamc/josephson/washboard.hpp"
#include "test_space.hpp"

namespace portamc_test {

namespace jj = portamc::josephson;

struct Sample {
  double mean = 0, error = 0;
  std::size_t escaped = 0, censored = 0;
};

Sample mean_escape_time(const jj::LangevinParameters& p) {
  jj::Ensemble<TestSpace, double> ensemble(TestSpace(), p);
  ensemble.run();
  const auto results = ensemble.results();
  const auto times = results.escape_times();
  Sample s;
  s.escaped = times.size();
  s.censored = results.count(jj::Outcome::censored);
  double sum = 0, sum2 = 0;
  for (double t : times) sum += t, sum2 += t * t;
  const double n = static_cast<double>(times.size());
  s.mean = sum / n;
  s.error = std::sqrt((sum2 / n - s.mean * s.mean) / (n - 1));
  return s;
}

// Overdamped, V0 = 1, beta = 1, gamma = 0.5, theta = 0.25 (DeltaU / theta = 2.74), from the
// well bottom to 1.5 radians past the saddle, 1.05 below it in energy (4.2 theta): there the
// drift carries every trajectory on, so the mean time hardly depends on where exactly the
// threshold is crossed, and the bias of checking only at the steps is about 0.75 % sqrt(h)
// (at the saddle itself it is about 53 % sqrt(h): +3.8 % at h = 0.005, +7.5 % at h = 0.02).
TEST(JosephsonValidation, OverdampedMeanFirstPassageTimeMatchesPontryagin) {
  jj::LangevinParameters p;
  p.dynamics = jj::Dynamics::overdamped;
  p.V0 = 1.0;
  p.beta = 1.0;
  p.gamma0 = 0.5;
  p.theta = 0.25;
  p.threshold = jj::saddle_point(0.5) + 1.5;
  p.realisations = 40000;
  p.seed = 20261121;
  const double exact = jj::washboard_mean_first_passage_time(p.V0, p.gamma0, p.beta, p.theta,
                                                             p.start_phase(), *p.threshold)
                           .value;

  std::vector<Sample> samples;
  for (double h : {0.02, 0.005}) {
    p.h = h;
    p.max_steps = static_cast<std::uint64_t>(100 * exact / h);  // censoring ~ e^-100
    const Sample s = mean_escape_time(p);
    ASSERT_EQ(s.censored, 0u);
    std::printf("overdamped MFPT: h = %g: %.4f +- %.4f, exact %.4f (%+.2f %%)\n", h, s.mean,
                s.error, exact, 100 * (s.mean / exact - 1));
    // within 2 %, with a statistical error small enough for that to mean something
    EXPECT_LT(std::fabs(s.mean - exact), 0.02 * exact);
    EXPECT_LT(s.error, 0.006 * exact);
    samples.push_back(s);
  }
  // Converged in the time step: a 4x smaller step changes the mean by less than 4 sigma.
  const double change = std::fabs(samples[1].mean - samples[0].mean);
  EXPECT_LT(change, 4 * std::hypot(samples[0].error, samples[1].error));
}

// Underdamped dynamics at moderate damping (beta = 1: Kramers' spatial-diffusion regime,
// the Mel'nikov–Meshkov factor is 1 to 1e-6 here), gamma = 0.5, escape counted one radian
// past the saddle so that recrossings do not count. Kramers' rate is the leading term of
// an expansion in theta / DeltaU, whose next term is a few per cent here: at
// DeltaU / theta = 4 and 5 the simulated mean escape time must lie within 10 % + 4 sigma of
// 1/r_K (measured: +2.8 % and +2.7 %, sigma 1.8 %).
TEST(JosephsonValidation, LowNoiseEscapeTimeApproachesKramers) {
  jj::LangevinParameters p;
  p.dynamics = jj::Dynamics::underdamped;
  p.integrator = jj::Integrator::heun;
  p.V0 = 1.0;
  p.beta = 1.0;
  p.gamma0 = 0.5;
  p.h = 0.02;
  p.threshold = jj::saddle_point(0.5) + 1.0;
  p.realisations = 3000;
  p.seed = 7;
  const double barrier = jj::barrier_height(p.V0, p.gamma0);
  for (double barrier_over_theta : {4.0, 5.0}) {
    p.theta = barrier / barrier_over_theta;
    const double kramers =
        jj::mean_escape_time(jj::RateFormula::melnikov_meshkov, p.V0, p.beta, p.theta, p.gamma0);
    p.max_steps = static_cast<std::uint64_t>(30 * kramers / p.h);
    const Sample s = mean_escape_time(p);
    ASSERT_EQ(s.censored, 0u);
    std::printf("underdamped escape: DeltaU/theta = %g: %.1f +- %.1f, Kramers %.1f (%+.1f %%)\n",
                barrier_over_theta, s.mean, s.error, kramers, 100 * (s.mean / kramers - 1));
    EXPECT_LT(std::fabs(s.mean - kramers), 0.10 * kramers + 4 * s.error);
  }
}

// Overdamped switching under a slow ramp (V0 = 1, beta = 1, theta = 0.2, nu = 2e-4 per unit
// time, threshold fixed half a radian past the initial saddle). Fulton–Dunkleberger with the
// exact quasi-stationary rate r(gamma) = 1 / T_Pontryagin(gamma) from the moving well bottom
// to the same threshold is the adiabatic limit; the empirical CDF of the switching bias must
// be within the DKW band sqrt(ln(2/alpha) / 2n) (alpha = 1e-3) of it, plus 0.01 for the
// non-adiabatic and non-exponential corrections.
TEST(JosephsonValidation, SlowRampSwitchingMatchesFultonDunkleberger) {
  jj::LangevinParameters p;
  p.dynamics = jj::Dynamics::overdamped;
  p.V0 = 1.0;
  p.beta = 1.0;
  p.theta = 0.2;
  p.h = 0.01;
  p.gamma0 = 0.0;
  p.nu = 2e-4;
  p.threshold = jj::saddle_point(0.0) + 0.5;
  p.realisations = 4000;
  p.seed = 99;
  const double threshold = *p.threshold;
  // ln r on a grid of biases (each point one Pontryagin quadrature), interpolated linearly:
  // the CDF integrals then cost nothing, and ln r is smooth on this scale.
  const double step = 0.005;
  std::vector<double> log_rate;
  for (double gamma = step; gamma < 0.995; gamma += step)
    log_rate.push_back(-jj::washboard_mean_first_passage_time(p.V0, gamma, p.beta, p.theta,
                                                              jj::well_bottom(gamma), threshold)
                            .log_value);
  const jj::BiasDependentRate exact_rate = [&](double gamma) {
    const double x = gamma / step - 1;
    if (x <= 0) return std::exp(log_rate.front()) * std::max(gamma / step, 0.0);
    const std::size_t i = std::min(static_cast<std::size_t>(x), log_rate.size() - 2);
    const double w = std::min(x - static_cast<double>(i), 1.0);
    return std::exp((1 - w) * log_rate[i] + w * log_rate[i + 1]);
  };
  const jj::LinearRamp ramp{0.0, p.nu};
  // start the ramp where escape is still negligible (probability < 1e-6 before it)
  p.gamma0 = jj::negligible_escape_bias(exact_rate, ramp, 1e-6);
  p.threshold = threshold;
  p.max_steps = static_cast<std::uint64_t>((1.0 - p.gamma0) / (p.nu * p.h)) + 1;

  jj::Ensemble<TestSpace, double> ensemble(TestSpace(), p);
  ensemble.run();
  auto biases = ensemble.results().escape_biases();
  ASSERT_EQ(biases.size(), p.realisations);
  std::sort(biases.begin(), biases.end());
  const double n = static_cast<double>(biases.size());
  double distance = 0;
  for (std::size_t i = 0; i < biases.size(); ++i) {
    const double f = jj::switching_cdf(exact_rate, ramp, biases[i]);
    distance = std::max({distance, std::fabs(f - i / n), std::fabs(f - (i + 1) / n)});
  }
  const double band = std::sqrt(std::log(2.0 / 1e-3) / (2 * n));
  const auto theory = jj::switching_moments(exact_rate, ramp);
  std::printf("switching: gamma0 = %.3f, KS distance %.4f (band %.4f), median %.4f, FD mean %.4f\n",
              p.gamma0, distance, band, biases[biases.size() / 2], theory.mean);
  EXPECT_LT(distance, band + 0.01);
}

}  // namespace portamc_test

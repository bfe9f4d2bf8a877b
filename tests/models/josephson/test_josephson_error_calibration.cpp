// Are the reported errors of josephson means calibrated? The same small overdamped escape run,
// repeated with k = 24 seeds through the app's library path (resolve, Simulation, analyse_run),
// gives k mean escape times m_i with their reported standard errors e_i. If the errors are
// right (the realisations are independent, so s / sqrt(n) is the whole error),
//   chi^2 = sum_i (m_i - mbar)^2 / e_i^2,  mbar = the error-weighted mean,
// follows chi^2 with k - 1 degrees of freedom, and must lie between its 0.1 % and 99.9 %
// quantiles (a two-sided test at 0.2 %, stats::calibrate_errors): 7.53 and 49.73 for 23
// degrees of freedom. Errors too
// small by a factor 1.5 or too large by 1.7 push a typical chi^2 (23) out of that range. The
// seeds are fixed, so the test is
// deterministic. The means must also agree with the exact Pontryagin mean first-passage time:
// the threshold lies 1.5 rad past the saddle, where the bias of checking it only at the steps is
// about 0.75 % sqrt(h) (docs/models/josephson.md), 0.1 % at h = 0.02, allowed for explicitly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "portamc/error_calibration.hpp"
#include "portamc/josephson/first_passage_exact.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_analysis.hpp"
#include "portamc/josephson/washboard.hpp"
#include "test_space.hpp"

namespace {

namespace jj = portamc::josephson;

TEST(JosephsonErrorCalibration, MeanEscapeTimeErrorsMatchTheScatterOverSeeds) {
  constexpr int k = 24;
  // V0 = beta = 1, gamma = 0.5, theta = 0.25 (DeltaU / theta = 2.7): <tau> = 128.6, 6400 steps
  // at h = 0.02; 250 realisations per seed, ~4e7 steps in all (under two seconds on one core).
  jj::RunParameters p;
  p.mode = jj::RunMode::escape;
  p.dynamics = jj::Dynamics::overdamped;
  p.V0 = 1.0;
  p.beta = 1.0;
  p.theta = 0.25;
  p.gamma = 0.5;
  p.h = 0.02;
  p.threshold = jj::saddle_point(0.5) + 1.5;
  p.max_steps = std::nullopt;  // 100 mean times: censoring has probability ~e^-100
  p.realisations = 250;
  p.ensemble.steps_per_launch = 1u << 20;

  std::vector<double> mean(k), error(k);
  for (int i = 0; i < k; ++i) {
    p.seed = 1000 + static_cast<std::uint64_t>(i);
    const jj::ResolvedRun run = jj::resolve(p);
    jj::Simulation<TestSpace> simulation(TestSpace(), run);
    while (!simulation.done()) simulation.advance();
    const jj::RunAnalysis analysis = jj::analyse_run(run, simulation.points());
    const jj::SampleSummary& s = analysis.samples.front();
    ASSERT_EQ(s.censored, 0u) << "seed " << p.seed;
    ASSERT_EQ(s.escaped, p.realisations);
    mean[i] = s.mean;
    error[i] = s.mean_error;
    ASSERT_GT(error[i], 0.0);
  }
  const portamc::stats::ErrorCalibration c = portamc::stats::calibrate_errors(mean, error);
  double weights = 0;
  for (int i = 0; i < k; ++i) weights += 1 / (error[i] * error[i]);
  const double mbar = c.weighted_mean, mbar_error = 1 / std::sqrt(weights);
  std::printf("%d seeds: mean %.3f +- %.3f, %s\n", k, mbar, mbar_error, c.summary.c_str());
  EXPECT_TRUE(c.pass) << c.summary;
  EXPECT_NEAR(c.low, 7.5292398, 1e-6);    // scipy.stats.chi2.ppf(0.001, 23)
  EXPECT_NEAR(c.high, 49.7282325, 1e-6);  // chi2.ppf(0.999, 23)

  // Against the exact mean first-passage time, with the discrete-threshold bias of the docs.
  const double exact = jj::washboard_mean_first_passage_time(p.V0, p.gamma, p.beta, p.theta,
                                                             std::asin(p.gamma), *p.threshold)
                           .value;
  const double expected = exact * (1 + 0.0075 * std::sqrt(p.h));
  std::printf("exact %.3f (with the step bias %.3f): %+.2f sigma\n", exact, expected,
              (mbar - expected) / mbar_error);
  EXPECT_NEAR(exact, 128.55, 0.01);
  EXPECT_LT(std::fabs(mbar - expected), 4 * mbar_error);
  // The test has power: the combined error is ~1.3 % of the mean.
  EXPECT_LT(mbar_error, 0.02 * exact);
}

}  // namespace

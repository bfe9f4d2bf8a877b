// Are portamc-tilings' error bars honest? The same small run is repeated with k = 10 seeds and
// the scatter of the k means of the per-sample observable is compared with their reported
// errors (observable_statistics, as written to /tilings/summary) by stats::calibrate_errors:
// chi^2 with k = 10 degrees of freedom around the exact value must lie in its pass range, the
// 1e-3 and 1 - 1e-3 quantiles [1.48, 29.6]; with honest errors the test fails with
// probability 2e-3, with errors off by a factor 2 almost always. The seeds are fixed: the test
// is deterministic.
//
// Observable: the volume (cubes above the minimal tiling) of a uniform lozenge tiling of the
// 3 x 3 x 3 hexagon. Complementing the stack of cubes inside the box is a bijection of the
// tilings, so the exact mean is abc / 2 = 13.5.
//
// Glauber chains (correlated samples: equilibration detection, tau_int, binned error) and
// CFTP (independent exact samples: plain standard error, tau_int = 1/2, N_eff = samples) are
// both checked. A chain on the 8 x 8 x 8 hexagon started from the maximal tiling (volume 512,
// 16 standard deviations above the exact mean 256) without thermalisation is a planted
// transient of some hundred sweeps that the equilibration rule must detect and remove before
// the mean agrees with the exact value (|z| < 4). (On the 3 x 3 x 3 hexagon the chain relaxes
// from the maximal tiling within ~15 sweeps, a bias far below the error, which the rule
// rightly leaves in.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/config.hpp"
#include "portamc/error_calibration.hpp"
#include "portamc/tilings/run.hpp"
#include "portamc/tilings/run_output.hpp"
#include "test_space.hpp"
#include "tilings/keys.hpp"  // apps/: portamc-tilings' keys

namespace {

using namespace portamc::tilings;
namespace stats = portamc::stats;

constexpr double kExactVolume = 3 * 3 * 3 / 2.0;

// A run configured as the app would be, from YAML, on this file's backend (TestSpace).
RunResults run(const std::string& yaml) {
  const auto keys = portamc::tilings_bindings();
  const auto config = portamc::config::load_string(keys.schema(), yaml, "test.yaml");
  const std::string backend = portamc::backend_name<TestSpace>();
  const PreparedRun prepared = prepare_run(keys.parameters(config), backend);
  return run_sampling(
      prepared, [](double, const std::string&) { return true; }, portamc::parallel::Communicator(),
      backend);
}

std::string hexagon(const std::string& mode, std::uint64_t seed) {
  return "model: lozenge\nmode: " + mode + "\nseed: " + std::to_string(seed) +
         "\ndomain: {shape: hexagon, a: 3, b: 3, c: 3}\n";
}

TEST(TilingsErrorCalibration, GlauberChainErrorsMatchTheScatterOverSeeds) {
  std::vector<double> means, errors, naive;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const RunResults r = run(hexagon("glauber", 500 + seed) +
                             "glauber: {start: maximal, thermalisation: 100, samples: 10000, "
                             "sweeps_between_samples: 1}\n");
    ASSERT_EQ(r.observable, "volume");
    ASSERT_EQ(r.observable_values.size(), 10000u);
    const auto s = observable_statistics(SamplingMode::glauber, r.observable_values);
    EXPECT_TRUE(s.reliable) << "seed " << seed << ": " << s.warning;
    EXPECT_GT(s.tau.tau_int, 0.5) << "consecutive sweeps are correlated";
    EXPECT_NEAR(s.effective_samples, static_cast<double>(s.used) / (2 * s.tau.tau_int), 1e-9);
    means.push_back(s.mean.value);
    errors.push_back(s.mean.error);
    // The standard error of the same samples that ignores their autocorrelation (what the
    // output used to give).
    const std::vector<double> used(r.observable_values.begin() + s.discarded,
                                   r.observable_values.end());
    naive.push_back(observable_statistics(SamplingMode::cftp, used).mean.error);
  }
  const auto c = stats::calibrate_errors(means, errors, kExactVolume);
  EXPECT_TRUE(c.pass) << c.summary;
  // The check has teeth: the naive error, too small by about sqrt(2 tau_int) = 5, fails it,
  // and so do errors a factor 2.5 too small or 3 too large.
  EXPECT_FALSE(stats::calibrate_errors(means, naive, kExactVolume).pass);
  for (double factor : {0.4, 3.0}) {
    std::vector<double> scaled = errors;
    for (double& e : scaled) e *= factor;
    EXPECT_FALSE(stats::calibrate_errors(means, scaled, kExactVolume).pass)
        << "errors x " << factor;
  }
}

TEST(TilingsErrorCalibration, CftpSamplesAreIndependentWithPlainStandardErrors) {
  std::vector<double> means, errors;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const RunResults r = run(hexagon("cftp", 900 + seed) + "cftp: {samples: 150}\n");
    const auto s = observable_statistics(SamplingMode::cftp, r.observable_values);
    ASSERT_EQ(s.samples, 150u);
    EXPECT_EQ(s.discarded, 0u);
    EXPECT_EQ(s.tau.tau_int, 0.5);
    EXPECT_EQ(s.effective_samples, 150.0);
    EXPECT_TRUE(s.reliable) << s.warning;
    // The plain standard error of the mean.
    double mean = 0, ss = 0;
    for (double v : r.observable_values) mean += v / 150;
    for (double v : r.observable_values) ss += (v - mean) * (v - mean);
    EXPECT_NEAR(s.mean.value, mean, 1e-12);
    EXPECT_NEAR(s.mean.error, std::sqrt(ss / 149 / 150), 1e-12);
    means.push_back(s.mean.value);
    errors.push_back(s.mean.error);
  }
  const auto c = stats::calibrate_errors(means, errors, kExactVolume);
  EXPECT_TRUE(c.pass) << c.summary;
}

TEST(TilingsErrorCalibration, TransientFromTheMaximalTilingIsDetectedAndRemoved) {
  const RunResults r = run(
      "model: lozenge\nmode: glauber\nseed: 4242\ndomain: {shape: hexagon, a: 8, b: 8, c: 8}\n"
      "glauber: {start: maximal, thermalisation: 0, samples: 2000, sweeps_between_samples: 1}\n");
  const auto& v = r.observable_values;
  ASSERT_GE(v.front(), 500.0);  // one sweep from the maximal tiling (512): still far up
  const auto s = observable_statistics(SamplingMode::glauber, v);
  EXPECT_GT(s.discarded, 0u);
  EXPECT_LE(s.discarded, v.size() / 2);
  EXPECT_EQ(s.used, v.size() - s.discarded);
  const double exact = 8 * 8 * 8 / 2.0;
  const double z = (s.mean.value - exact) / s.mean.error;
  EXPECT_LT(std::abs(z), 4.0) << s.mean.value << " +- " << s.mean.error << ", exact " << exact;
  // Kept in, the transient biases the mean upwards.
  const auto all = stats::analyse_series_from(v, 0);
  EXPECT_GT(all.mean.value, s.mean.value);
}

}  // namespace

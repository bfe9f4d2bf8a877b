// End-to-end: portamc-josephson on tiny inputs in each mode; the HDF5 file it writes, checked
// against itself (outcomes, censoring, ECDFs) and against the theory; physical units;
// checkpoint and resume (in the library, deterministic, and through a signal to the app); the
// shipped inputs; its error paths.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../common/app_test.hpp"
#include "../common/foreign_checkpoint.hpp"
#include "../common/resume_refusals.hpp"
#include "portamc/hdf5_file.hpp"
#include "portamc/josephson/arrhenius.hpp"
#include "portamc/josephson/first_passage_exact.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_output.hpp"
#include "portamc/josephson/switching_theory.hpp"
#include "portamc/josephson/units.hpp"
#include "portamc/josephson/washboard.hpp"
#include "portamc/muca/io.hpp"

namespace {

namespace fs = std::filesystem;
namespace pj = portamc::josephson;
using portamc::h5::InputFile;

class JosephsonApp : public portamc::testing::AppTest {
 protected:
  JosephsonApp() : AppTest(PORTAMC_JOSEPHSON_APP, "josephson") {}
};

// theta = 0.3: <tau> ~ 170, i.e. ~4e4 steps; the cap of 5e4 steps censors about a third.
const char* escape_input =
    "mode: escape\n"
    "junction: {V0: 1.0, beta: 0.05, theta: 0.3}\n"
    "bias: {gamma: 0.5}\n"
    "model: {h: 0.004}\n"
    "run: {realisations: 256, max_steps: 50000, seed: 21}\n"
    "analysis: {histogram_bins: 20, theory_points: 50}\n";

TEST_F(JosephsonApp, RealisationsBeyondTheHostMemoryAreBadInput) {
  const auto output = path("huge.h5");
  EXPECT_EQ(run(write_input("in.yaml", escape_input) +
                " --set run.realisations=" + std::to_string(1LL << 40) + " -o " + output),
            2)
      << log();
  EXPECT_NE(log().find("run.realisations over all ensembles needs"), std::string::npos) << log();
  EXPECT_NE(log().find("MiB of host memory"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
}

bool monotone(const std::vector<double>& v) {
  return std::is_sorted(v.begin(), v.end());
}

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

TEST_F(JosephsonApp, EscapeTimesAreConsistentWithOutcomesAndCensoring) {
  const auto output = path("escape.h5");
  ASSERT_EQ(run(write_input("escape.yaml", escape_input) + " -o " + output), 0) << log();
  EXPECT_NE(log().find("censored"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output + ".checkpoint"));
  InputFile f(output);
  EXPECT_EQ(f.read_string("/provenance/software"), "portamc");
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/provenance/seed"), 21u);
  EXPECT_NE(f.read_string("/config").find("mode: escape"), std::string::npos);
  EXPECT_EQ(f.attribute_string("/josephson", "mode"), "escape");
  EXPECT_EQ(f.attribute_string("/josephson", "precision"), "double");
  EXPECT_EQ(f.attribute_string("/josephson", "rate_formula"), "melnikov_meshkov");
  EXPECT_DOUBLE_EQ(f.read_scalar<double>("/josephson/parameters/theta"), 0.3);
  EXPECT_DOUBLE_EQ(f.read_scalar<double>("/josephson/parameters/noise_strength"), 0.05 * 0.3);
  EXPECT_NEAR(f.read_scalar<double>("/josephson/parameters/threshold"),
              std::acos(-1.0) - std::asin(0.5), 1e-15);

  const std::string g = "/josephson/escape/";
  const auto steps = f.read<std::uint64_t>(g + "steps");
  const auto outcome = f.read<std::uint8_t>(g + "outcome");
  const auto times = f.read<double>(g + "escape_times");
  ASSERT_EQ(steps.size(), 256u);
  ASSERT_EQ(outcome.size(), 256u);
  std::vector<double> expected_times;
  std::uint64_t censored = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ASSERT_TRUE(outcome[i] == 1 || outcome[i] == 2) << i;
    if (outcome[i] == 2) {
      ++censored;
      EXPECT_EQ(steps[i], 50000u) << i;
    } else {
      EXPECT_GE(steps[i], 1u);
      EXPECT_LE(steps[i], 50000u);
      expected_times.push_back(static_cast<double>(steps[i]) * 0.004);
    }
  }
  // A third or so censored: both kinds occur, and the escape times are exactly the escaped ones.
  EXPECT_GT(censored, 20u);
  EXPECT_LT(censored, 200u);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "censored"), censored);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "escaped"), 256u - censored);
  EXPECT_EQ(times, expected_times);

  const auto t = f.read<double>(g + "ecdf_t");
  const auto p = f.read<double>(g + "ecdf_p");
  ASSERT_EQ(t.size(), times.size());
  ASSERT_EQ(p.size(), times.size());
  EXPECT_TRUE(monotone(t));
  EXPECT_TRUE(monotone(p));
  EXPECT_DOUBLE_EQ(p.back(), double(256 - censored) / 256);
  const auto counts = f.read<std::uint64_t>(g + "histogram/counts");
  EXPECT_EQ(counts.size(), 20u);
  EXPECT_EQ(f.read<double>(g + "histogram/edges").size(), 21u);
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  EXPECT_EQ(total, 256u - censored);

  double mean = 0;
  for (double x : times) mean += x;
  mean /= times.size();
  EXPECT_NEAR(f.read_scalar<double>(g + "mean_time"), mean, 1e-9 * mean);
  EXPECT_GT(f.read_scalar<double>(g + "mean_time_error"), 0.0);
  EXPECT_GT(f.read_scalar<double>(g + "median_time"), 0.0);
  EXPECT_GT(f.read_scalar<std::uint64_t>(g + "timing/steps_integrated"), 0u);
  // Independent realisations: tau_int = 1/2, and N_eff the escaped (uncensored) ones.
  EXPECT_EQ(f.read_scalar<double>(g + "tau_int"), 0.5);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "n_eff"), 256u - censored);

  for (const char* name :
       {"barrier", "well_frequency", "rate", "mean_time", "kramers_rate", "kramers_mean_time"}) {
    const double v = f.read_scalar<double>(g + "theory/" + name);
    EXPECT_TRUE(std::isfinite(v) && v > 0) << name << " = " << v;
  }
  EXPECT_NEAR(f.read_scalar<double>(g + "theory/barrier"), pj::barrier_height(1.0, 0.5), 1e-14);
  EXPECT_EQ(f.attribute_string(g + "theory", "status"), "ok");
  // Underdamped: no exact rate, the theory is the Kramers-type formula's.
  EXPECT_EQ(f.attribute_string(g + "theory", "rate_formula"), "melnikov_meshkov");
  EXPECT_EQ(f.attribute_string(g + "theory", "kramers_formula"), "melnikov_meshkov");
  EXPECT_EQ(f.read_scalar<double>(g + "theory/mean_time"),
            f.read_scalar<double>(g + "theory/kramers_mean_time"));
  const auto cdf = f.read<double>(g + "theory/cdf");
  ASSERT_EQ(cdf.size(), 50u);
  EXPECT_TRUE(all_finite(cdf));
  EXPECT_TRUE(monotone(cdf));
  EXPECT_FALSE(f.exists(g + "theory/exact_mean_time"));  // underdamped: no exact result
  EXPECT_NE(f.read_string("/josephson/warnings").find("censored"), std::string::npos);
  EXPECT_FALSE(f.attribute_string(g + "steps", "description").empty());
}

// model.noise_precision: float normals for double trajectories are announced and recorded in
// the file (that they change the trajectories only in their last digits, and keep the
// statistics, is test_josephson_ensemble's FloatNoiseForDoubleTrajectories).
TEST_F(JosephsonApp, FloatNormalsForDoubleTrajectories) {
  const std::string input = write_input("escape.yaml", escape_input);
  const auto same = path("same.h5"), fl = path("float.h5");
  ASSERT_EQ(run(input + " -o " + same), 0) << log();
  ASSERT_EQ(run(input + " --set model.noise_precision=float -o " + fl), 0) << log();
  EXPECT_NE(log().find("float normals"), std::string::npos) << log();
  InputFile a(same), b(fl);
  EXPECT_EQ(a.attribute_string("/josephson", "noise_precision"), "double");
  EXPECT_EQ(b.attribute_string("/josephson", "noise_precision"), "float");
}

TEST_F(JosephsonApp, OverdampedEscapeMatchesTheExactMeanFirstPassageTime) {
  // beta = 1, theta = 0.25: <tau> ~ 120; a threshold beyond the saddle, where the drift is
  // strong, keeps the bias of the discrete threshold check far below the statistical error.
  const auto output = path("overdamped.h5");
  ASSERT_EQ(run("--set mode=escape --set junction.V0=1 --set junction.beta=1 --set "
                "junction.theta=0.25 --set bias.gamma=0.5 --set model.dynamics=overdamped "
                "--set model.h=0.01 --set model.threshold=3.5 --set model.precision=float "
                "--set run.realisations=1024 --set run.seed=3 -o " +
                output),
            0)
      << log();
  InputFile f(output);
  const std::string g = "/josephson/escape/";
  EXPECT_EQ(f.attribute_string("/josephson", "rate_formula"), "exact_overdamped_pontryagin");
  EXPECT_EQ(f.attribute_string(g + "theory", "rate_formula"), "exact_overdamped_pontryagin");
  EXPECT_EQ(f.attribute_string(g + "theory", "kramers_formula"), "overdamped");
  EXPECT_EQ(f.attribute_int("/josephson/parameters", "max_steps_automatic"), 1);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "censored"), 0u);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "n_eff"), 1024u);
  EXPECT_EQ(f.attribute_string(g + "theory", "exact_status"), "ok");
  EXPECT_EQ(f.attribute_string(g + "theory", "cdf_mean_source"), "exact");
  const double exact = f.read_scalar<double>(g + "theory/exact_mean_time");
  // The theory's rate is the exact one; the leading-order formula stands beside it.
  EXPECT_EQ(f.read_scalar<double>(g + "theory/mean_time"), exact);
  EXPECT_EQ(f.read_scalar<double>(g + "theory/rate"), 1 / exact);
  EXPECT_TRUE(std::isfinite(f.read_scalar<double>(g + "theory/kramers_mean_time")));
  const auto cdf_t = f.read<double>(g + "theory/cdf_t");
  const auto cdf = f.read<double>(g + "theory/cdf");
  ASSERT_EQ(cdf.size(), cdf_t.size());
  for (std::size_t i = 0; i < cdf.size(); i += 37)
    EXPECT_NEAR(cdf[i], -std::expm1(-cdf_t[i] / exact), 1e-15) << i;
  const double mean = f.read_scalar<double>(g + "mean_time");
  const double error = f.read_scalar<double>(g + "mean_time_error");
  ASSERT_TRUE(std::isfinite(exact));
  EXPECT_LT(std::abs(mean - exact), 4.5 * error) << mean << " +- " << error << " vs " << exact;
  EXPECT_LT(f.read_scalar<double>(g + "theory/exact_mean_time_error"), 1e-4 * exact);
}

// The check, small: overdamped switching (V0 = beta = 1, theta = 0.05, a ramp from
// gamma0 = 0.5 at nu = 2e-4, threshold 3.5, well past the saddles where the switches happen).
// The stored Fulton–Dunkleberger CDF is built on the exact rate 1 / T_Pontryagin(gamma) to the
// same threshold: it equals an independent construction (ln r on a grid of 0.001, linearly
// interpolated), and the data agree with it by a Kolmogorov–Smirnov test at the 0.1 % level
// (distance below 1.95 / sqrt(N) = 0.062). With N = 8000 (h = 0.01 and 0.02) the distance to
// this CDF measured 0.012-0.014 (p = 0.1-0.2) and to the CDF of the Kramers rate 0.042-0.044
// (p ~ 1e-12): at this N = 1000 (a few seconds) the Kramers CDF would still pass, so the test
// also checks which CDF is stored. theory.rate: kramers stores the Kramers one instead.
TEST_F(JosephsonApp, OverdampedSwitchingTheoryIsBuiltOnTheExactRate) {
  const std::string args =
      "--set mode=switching --set junction.V0=1 --set junction.beta=1 --set junction.theta=0.05 "
      "--set ramp.rate=2e-4 --set ramp.gamma0=0.5 --set model.dynamics=overdamped "
      "--set model.h=0.02 --set model.threshold=3.5 --set run.realisations=1000 --set run.seed=1 "
      "--set analysis.theory_points=400 -q ";
  const auto output = path("exact.h5");
  ASSERT_EQ(run(args + "-o " + output), 0) << log();
  InputFile f(output);
  const std::string g = "/josephson/switching/";
  EXPECT_EQ(f.attribute_string("/josephson", "rate_formula"), "exact_overdamped_pontryagin");
  EXPECT_EQ(f.attribute_string(g + "theory", "rate_formula"), "exact_overdamped_pontryagin");
  EXPECT_EQ(f.attribute_string(g + "theory", "kramers_formula"), "overdamped");
  EXPECT_EQ(f.attribute_string(g + "theory", "status"), "ok");
  EXPECT_EQ(f.read_scalar<double>("/josephson/parameters/threshold"), 3.5);
  EXPECT_NEAR(f.read_scalar<double>(g + "theory/mean"), 0.8035754, 2e-6);
  EXPECT_NEAR(f.read_scalar<double>(g + "theory/kramers_mean"), 0.7999091, 2e-6);
  ASSERT_EQ(f.read_scalar<std::uint64_t>(g + "switched"), 1000u);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "n_eff"), 1000u);
  EXPECT_EQ(f.read_scalar<double>(g + "tau_int"), 0.5);

  // The stored CDF is the exact-rate construction: the library's, and an independent one.
  const auto grid = f.read<double>(g + "theory/gamma");
  const auto cdf = f.read<double>(g + "theory/cdf");
  ASSERT_EQ(grid.size(), 400u);
  ASSERT_EQ(cdf.size(), 400u);
  const pj::LinearRamp ramp{0.5, 2e-4};
  const auto exact_rate =
      pj::exact_overdamped_rate(1.0, 1.0, 0.05, 3.5, 0.5, 1e-30 * 2e-4 / (1.0 - 0.5));
  const auto library = pj::switching_cdf(exact_rate, ramp, grid);
  const double step = 0.001;
  std::vector<double> log_rate;
  for (int i = 0; 0.5 + i * step < 1.0 - 1e-12; ++i) {
    const double gamma = 0.5 + i * step;
    log_rate.push_back(
        -pj::washboard_mean_first_passage_time(1.0, gamma, 1.0, 0.05, std::asin(gamma), 3.5)
             .log_value);
  }
  const pj::BiasDependentRate grid_rate = [&](double gamma) {
    const double x = (gamma - 0.5) / step;
    const std::size_t i = std::min(static_cast<std::size_t>(x), log_rate.size() - 2);
    const double w = std::min(x - static_cast<double>(i), 1.0);
    return std::exp((1 - w) * log_rate[i] + w * log_rate[i + 1]);
  };
  const auto independent = pj::switching_cdf(grid_rate, ramp, grid);
  const auto kramers = pj::switching_cdf(
      pj::washboard_rate(pj::RateFormula::overdamped, 1.0, 1.0, 0.05), ramp, grid);
  double kramers_gap = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    EXPECT_NEAR(cdf[i], library[i], 1e-13) << grid[i];
    EXPECT_NEAR(cdf[i], independent[i], 2e-5) << grid[i];
    kramers_gap = std::max(kramers_gap, std::abs(cdf[i] - kramers[i]));
  }
  EXPECT_GT(kramers_gap, 0.02);  // the two theories differ, by far more than the checks above

  // Kolmogorov–Smirnov: the ECDF of the switching biases against the stored CDF (interpolated
  // linearly on its grid, an error ~1e-5 here).
  const auto x = f.read<double>(g + "ecdf_gamma");
  const auto theory_at = [&](double value, const std::vector<double>& curve) {
    const auto it = std::lower_bound(grid.begin(), grid.end(), value);
    if (it == grid.begin()) return curve.front();
    if (it == grid.end()) return curve.back();
    const std::size_t j = static_cast<std::size_t>(it - grid.begin());
    const double w = (value - grid[j - 1]) / (grid[j] - grid[j - 1]);
    return curve[j - 1] + w * (curve[j] - curve[j - 1]);
  };
  const auto ks = [&](const std::vector<double>& curve) {
    const double n = static_cast<double>(x.size());
    double d = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double t = theory_at(x[i], curve);
      d = std::max({d, std::abs((i + 1) / n - t), std::abs(i / n - t)});
    }
    return d;
  };
  const double distance = ks(cdf);
  std::printf(
      "KS distance to the exact-rate CDF %.4f, to the Kramers-rate CDF %.4f (0.1 %%: %.4f)\n",
      distance, ks(kramers), 1.9495 / std::sqrt(1000.0));
  EXPECT_LT(distance, 1.9495 / std::sqrt(1000.0));  // Kolmogorov's 0.1 % point, asymptotic

  // theory.rate: kramers keeps the leading-order rate. The first 100 realisations of the same
  // seed are the same trajectories (a realisation depends only on the seed and its entity).
  const auto k_output = path("kramers.h5");
  ASSERT_EQ(run(args + "--set theory.rate=kramers --set run.realisations=100 -o " + k_output), 0)
      << log();
  InputFile k(k_output);
  EXPECT_EQ(k.attribute_string("/josephson", "rate_formula"), "overdamped");
  EXPECT_EQ(k.attribute_string(g + "theory", "rate_formula"), "overdamped");
  const auto first = f.read<double>(g + "switching_bias");
  EXPECT_EQ(k.read<double>(g + "switching_bias"),
            std::vector<double>(first.begin(), first.begin() + 100));
  EXPECT_NEAR(k.read_scalar<double>(g + "theory/mean"), 0.7999091, 2e-6);
  const auto k_grid = k.read<double>(g + "theory/gamma");
  const auto k_cdf = k.read<double>(g + "theory/cdf");
  const auto k_library = pj::switching_cdf(
      pj::washboard_rate(pj::RateFormula::overdamped, 1.0, 1.0, 0.05), ramp, k_grid);
  ASSERT_EQ(k_cdf.size(), k_grid.size());
  for (std::size_t i = 0; i < k_grid.size(); ++i) EXPECT_NEAR(k_cdf[i], k_library[i], 1e-13);
}

TEST_F(JosephsonApp, SwitchingBiasesFollowTheRampAndFultonDunkleberger) {
  const auto output = path("switching.h5");
  ASSERT_EQ(run("--set mode=switching --set junction.V0=1 --set junction.beta=0.2 --set "
                "junction.theta=0.05 --set ramp.rate=1e-3 --set ramp.gamma0=auto "
                "--set run.realisations=512 --set run.seed=5 --set analysis.theory_points=101 "
                "-o " +
                output),
            0)
      << log();
  InputFile f(output);
  EXPECT_EQ(f.attribute_string("/josephson", "mode"), "switching");
  EXPECT_EQ(f.attribute_string("/josephson/parameters", "ramp_start"), "automatic");
  const double gamma0 = f.read_scalar<double>("/josephson/parameters/gamma0");
  const double nu = f.read_scalar<double>("/josephson/parameters/nu");
  EXPECT_GT(gamma0, 0.0);
  EXPECT_LT(gamma0, 0.8);
  EXPECT_EQ(nu, 1e-3);
  const std::string g = "/josephson/switching/";
  const auto steps = f.read<std::uint64_t>(g + "steps");
  const auto outcome = f.read<std::uint8_t>(g + "outcome");
  const auto bias = f.read<double>(g + "switching_bias");
  ASSERT_EQ(steps.size(), 512u);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "censored"), 0u);
  ASSERT_EQ(bias.size(), 512u);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ASSERT_EQ(outcome[i], 1);
    // Up to one rounding: a GPU may fuse the kernel's multiply-add.
    const double expected = gamma0 + nu * (static_cast<double>(steps[i]) * 0.004);
    EXPECT_NEAR(bias[i], expected, 2.3e-16 * expected) << i;
  }
  const auto x = f.read<double>(g + "ecdf_gamma");
  const auto p = f.read<double>(g + "ecdf_p");
  EXPECT_TRUE(monotone(x));
  EXPECT_DOUBLE_EQ(p.back(), 1.0);
  EXPECT_GT(x.front(), gamma0);  // the automatic start skips a negligible probability only

  EXPECT_EQ(f.attribute_string(g + "theory", "status"), "ok");
  const auto grid = f.read<double>(g + "theory/gamma");
  const auto cdf = f.read<double>(g + "theory/cdf");
  ASSERT_EQ(grid.size(), 101u);
  ASSERT_EQ(cdf.size(), 101u);
  EXPECT_TRUE(monotone(grid));
  EXPECT_TRUE(monotone(cdf));
  EXPECT_TRUE(all_finite(f.read<double>(g + "theory/density")));
  EXPECT_LT(cdf.front(), 0.01);
  EXPECT_GT(cdf.back(), 0.99);
  // The adiabatic theory against the simulation. At this fast ramp (and with Euler's slight
  // heating, omega0^2 h / beta ~ 2%) the simulated switches come ~0.007 early (2.5 standard
  // errors), and the largest distance between the ECDF and the theory CDF (Kolmogorov-Smirnov)
  // measured 0.07-0.10 over six seeds (0.06 is the 95% level of the statistics alone for 512
  // samples). Tolerances: 0.02 on the mean, 0.15 on the distance, with room for the other
  // random streams of other backends (rounding of the transcendental functions).
  const double mean = f.read_scalar<double>(g + "mean_bias");
  const double theory_mean = f.read_scalar<double>(g + "theory/mean");
  EXPECT_LT(std::abs(mean - theory_mean), 0.02) << mean << " vs " << theory_mean;
  double ks = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto it = std::lower_bound(grid.begin(), grid.end(), x[i]);
    ASSERT_TRUE(it != grid.begin() && it != grid.end());
    const std::size_t j = static_cast<std::size_t>(it - grid.begin());
    const double w = (x[i] - grid[j - 1]) / (grid[j] - grid[j - 1]);
    const double theory = cdf[j - 1] + w * (cdf[j] - cdf[j - 1]);
    ks = std::max({ks, std::abs(p[i] - theory), std::abs(p[i] - 1.0 / 512 - theory)});
  }
  EXPECT_LT(ks, 0.15);
}

TEST_F(JosephsonApp, RampThatCannotReachTheThresholdWarnsAndReportsCensoring) {
  const auto output = path("short.h5");
  ASSERT_EQ(run("--set mode=switching --set junction.V0=1 --set junction.beta=0.2 --set "
                "junction.theta=0.02 --set ramp.rate=1e-3 --set ramp.gamma0=0.1 "
                "--set run.max_steps=2000 --set run.realisations=64 -q -o " +
                output),
            0)
      << log();
  EXPECT_NE(log().find("warning: the ramp reaches only gamma"), std::string::npos) << log();
  EXPECT_NE(log().find("64 realisation(s) reached max_steps"), std::string::npos) << log();
  InputFile f(output);
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/josephson/switching/censored"), 64u);
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/josephson/switching/switched"), 0u);
  EXPECT_TRUE(f.read<double>("/josephson/switching/switching_bias").empty());
  EXPECT_NE(f.read_string("/josephson/warnings").find("the ramp reaches only"), std::string::npos);
}

TEST_F(JosephsonApp, ArrheniusFitsRecoverTheBarrier) {
  // Overdamped, where the exact mean first-passage times are known: the fit through the
  // simulated means agrees with the same fit through the exact means (within 4 of its standard
  // errors), and with the washboard barrier within 15% (the prefactor is theta-independent
  // only to leading order in theta / DeltaU).
  const auto output = path("arrhenius.h5");
  ASSERT_EQ(run(write_input("arrhenius.yaml",
                            "mode: arrhenius\n"
                            "junction: {V0: 1.0, beta: 1.0}\n"
                            "bias: {gamma: 0.5}\n"
                            "arrhenius: {theta: [0.2, 0.25, 0.3, 0.35]}\n"
                            "model: {dynamics: overdamped, h: 0.01, threshold: 3.5}\n"
                            "run: {realisations: 1024, seed: 7, first_realisation: 100}\n") +
                " -o " + output),
            0)
      << log();
  InputFile f(output);
  const std::string g = "/josephson/arrhenius/";
  const auto theta = f.read<double>(g + "theta");
  ASSERT_EQ(theta, (std::vector<double>{0.2, 0.25, 0.3, 0.35}));
  EXPECT_EQ(f.read<double>(g + "noise_strength"), theta);  // beta = 1
  EXPECT_EQ(f.read<std::uint64_t>(g + "first_realisation"),
            (std::vector<std::uint64_t>{100, 1124, 2148, 3172}));  // disjoint RNG entities
  EXPECT_EQ(f.read<std::uint64_t>(g + "censored"), (std::vector<std::uint64_t>(4, 0)));
  const auto mean = f.read<double>(g + "mean_time");
  const auto error = f.read<double>(g + "mean_time_error");
  const auto exact = f.read<double>(g + "theory/exact_mean_time");
  EXPECT_EQ(f.read<double>(g + "theory/mean_time"), exact);  // the exact rate, by default
  EXPECT_EQ(f.attribute_string(g + "theory", "rate_formula"), "exact_overdamped_pontryagin");
  EXPECT_TRUE(all_finite(f.read<double>(g + "theory/kramers_mean_time")));
  EXPECT_EQ(f.read<double>(g + "tau_int"), std::vector<double>(4, 0.5));
  EXPECT_EQ(f.read<std::uint64_t>(g + "n_eff"), std::vector<std::uint64_t>(4, 1024));
  EXPECT_EQ(f.read_scalar<std::uint64_t>(g + "fit_plain/n_eff"), 4096u);
  ASSERT_EQ(exact.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_LT(std::abs(mean[k] - exact[k]), 4.5 * error[k]) << k;
    EXPECT_EQ(f.attribute_double(g + "point_" + std::to_string(k), "theta"), theta[k]);
    EXPECT_EQ(f.read<std::uint64_t>(g + "point_" + std::to_string(k) + "/steps").size(), 1024u);
  }
  EXPECT_LT(mean[3], mean[0]);

  const double barrier = f.read_scalar<double>(g + "theory/barrier");
  EXPECT_NEAR(barrier, pj::barrier_height(1.0, 0.5), 1e-14);
  EXPECT_EQ(f.attribute_string(g + "fit_plain", "status"), "ok");
  EXPECT_EQ(f.attribute_string(g + "fit_theta_prefactor", "status"), "ok");
  const double fitted = f.read_scalar<double>(g + "fit_plain/barrier");
  const double fitted_error = f.read_scalar<double>(g + "fit_plain/barrier_error");
  const pj::ArrheniusFit reference =
      pj::fit_arrhenius(theta, exact, error, pj::ArrheniusForm::plain);
  EXPECT_LT(std::abs(fitted - reference.barrier), 4 * fitted_error)
      << fitted << " +- " << fitted_error << " vs " << reference.barrier;
  EXPECT_LT(std::abs(fitted - barrier), 0.15 * barrier) << fitted << " vs " << barrier;
  EXPECT_EQ(f.read_scalar<std::int64_t>(g + "fit_plain/degrees_of_freedom"), 2);
  // Eq. (13) fits ln(theta <tau>): the same slope minus the curvature of ln theta.
  EXPECT_LT(f.read_scalar<double>(g + "fit_theta_prefactor/barrier"), fitted);
}

TEST_F(JosephsonApp, PhysicalUnitsGiveTheNormalisedValuesOfUnitsHpp) {
  // Li et al.'s junction at a constant bias close enough to I_c that escapes are quick.
  const auto output = path("physical.h5");
  const std::string junction =
      "physical:\n  resistance: 250\n  capacitance: 88e-15\n  critical_current: 0.748e-6\n"
      "  temperature: 1.2\n";
  ASSERT_EQ(run(write_input("li.yaml",
                            "mode: escape\nbias: {gamma: 0.75}\nmodel: {h: 0.005}\n"
                            "run: {realisations: 64, seed: 2}\n" +
                                junction) +
                " -o " + output),
            0)
      << log();
  pj::PhysicalJunction j{250, 88e-15, 0.748e-6, 1.2, std::nullopt};
  const pj::NormalisedJunction n = pj::normalise(j);
  InputFile f(output);
  const std::string p = "/josephson/parameters/";
  EXPECT_EQ(f.read_scalar<double>(p + "V0"), n.v0);
  EXPECT_EQ(f.read_scalar<double>(p + "beta"), n.beta);
  EXPECT_EQ(f.read_scalar<double>(p + "theta"), n.theta);
  EXPECT_NEAR(n.v0, 211.0, 0.5);  // the paper's junction: V0 ~ 211, beta ~ 4.1, theta ~ 14.2
  EXPECT_EQ(f.read_scalar<double>(p + "physical/capacitance"), 88e-15);
  EXPECT_EQ(f.read_scalar<double>(p + "physical/time_unit"), n.time_unit);
  EXPECT_EQ(f.read_scalar<double>(p + "physical/quality_factor"), n.quality_factor);
  EXPECT_EQ(f.attribute_string(p + "physical/charging_energy", "units"), "J");
  EXPECT_NE(log().find("V0 = 210.979"), std::string::npos) << log();

  // Switching: the sweep frequency becomes nu = I_c f t0 / I_c (a fast sweep and a short cap
  // keep it quick; the realisations are censored, the parameters are what is checked).
  const auto sweep = path("sweep.h5");
  ASSERT_EQ(run(write_input("sweep.yaml",
                            "mode: switching\nramp: {gamma0: 0.2}\nmodel: {h: 0.005}\n"
                            "run: {realisations: 8, max_steps: 100}\n" +
                                junction + "  sweep_frequency: 2e6\n") +
                " -q -o " + sweep),
            0)
      << log();
  j.bias_ramp_rate = pj::ramp_rate_from_sweep_frequency(0.748e-6, 2e6);
  InputFile s(sweep);
  EXPECT_EQ(s.read_scalar<double>(p + "nu"), *pj::normalise(j).nu);
  EXPECT_EQ(s.read_scalar<double>(p + "physical/sweep_frequency"), 2e6);
  EXPECT_NEAR(s.read_scalar<double>(p + "physical/sweep_rate"), 0.748e-6 * 2e6, 1e-9);
  EXPECT_EQ(s.read_scalar<double>(p + "gamma0"), 0.2);
}

TEST_F(JosephsonApp, DryRunPrintsResolvedConfigurationAndWritesNothing) {
  const auto output = path("dry.h5");
  ASSERT_EQ(run(write_input("escape.yaml", escape_input) +
                " --dry-run --set junction.theta=0.25 -o " + output),
            0)
      << log();
  EXPECT_NE(log().find("theta: 0.25"), std::string::npos) << log();
  EXPECT_NE(log().find("max_steps: 50000"), std::string::npos) << log();
  EXPECT_NE(log().find("threshold: saddle"), std::string::npos) << log();
  EXPECT_NE(log().find("sweep_frequency"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(JosephsonApp, ShippedInputsAreValid) {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(PORTAMC_SOURCE_DIR) / "input")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("josephson", 0) != 0 || entry.path().extension() != ".yaml") continue;
    EXPECT_EQ(run(entry.path().string() + " --dry-run"), 0) << name << "\n" << log();
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST_F(JosephsonApp, BadInputIsRejectedBeforeAnyWorkNamingTheKey) {
  const auto output = path("never.h5");
  // Each case is a complete junction followed by the override under test (later --set win).
  const std::string normalised =
      "--set junction.V0=1 --set junction.beta=0.05 --set junction.theta=0.2 ";
  const std::string physical =
      "--set physical.resistance=250 --set physical.capacitance=88e-15 "
      "--set physical.critical_current=0.748e-6 --set physical.temperature=1.2 ";
  struct Case {
    std::string args, key, text;  // key: the key path as the message names it
  };
  const std::vector<Case> cases = {
      {normalised + "--set junction.theta=0", "junction.theta:", "theta = k_B T / E_C > 0"},
      {normalised + "--set junction.theta=-1", "junction.theta:", ""},
      {normalised + "--set junction.beta=-0.1", "junction.beta:", ""},
      {normalised + "--set junction.V0=0", "junction.V0:", "V0 = E_J / E_C > 0"},
      {normalised + "--set junction.V0=-2", "junction.V0:", ""},
      {normalised + "--set model.h=0", "model.h:", "h > 0"},
      {normalised + "--set model.h=-0.1", "model.h:", ""},
      {normalised + "--set bias.gamma=1", "bias.gamma:", "|gamma| < 1"},
      {normalised + "--set bias.gamma=-1", "bias.gamma:", "|gamma| < 1"},
      {normalised + "--set bias.gamma=1.5", "bias.gamma:", ""},
      {normalised + "--set model.dynamics=overdamped --set junction.beta=0",
       "junction.beta:", "beta > 0"},
      {"", "junction:", "no junction given"},
      {physical + normalised, "physical:", "not both"},
      {physical + "--set physical.capacitance=-1", "physical.capacitance:", ""},
      {physical + "--set physical.resistance=0", "physical.resistance:", "R, C and I_c > 0"},
      {physical + "--set physical.temperature=0", "physical.temperature:", "T > 0"},
      {physical + "--set physical.capacitance=1e-100 --set physical.critical_current=1e300",
       "physical:", "not usable"},
      {physical + "--set mode=switching", "physical.sweep_rate:", "exactly one"},
      {physical + "--set physical.sweep_rate=1e-4", "physical.sweep_rate:", "switching"},
      {normalised + "--set mode=switching", "ramp.rate:", "nu = d gamma / dt > 0"},
      {normalised + "--set mode=switching --set ramp.gamma0=1.2 --set ramp.rate=1e-3",
       "ramp.gamma0:", "auto"},
      {normalised + "--set model.threshold=high", "model.threshold:", "saddle"},
      {normalised + "--set model.noise_precision=half", "model.noise_precision:", "float"},
      {normalised + "--set model.threshold=0.1", "model.threshold:", "start phase"},
      {normalised + "--set mode=arrhenius --set junction.theta=0",
       "arrhenius.theta:", "at least one temperature"},
      {normalised + "--set mode=arrhenius --set junction.theta=0 --set arrhenius.theta=[0.2,0]",
       "arrhenius.theta:", "theta[1] = 0"},
      {normalised + "--set mode=arrhenius --set junction.theta=0 --set arrhenius.theta=[0.2,-1]",
       "arrhenius.theta[1]:", "got '-1'"},
      {normalised + "--set mode=arrhenius --set arrhenius.theta=[0.2]",
       "junction.theta:", "arrhenius"},
      {normalised + "--set junction.thetta=0.2", "unknown key junction.thetta",
       "did you mean junction.theta"},
      // Resolution: the automatic step cap needs a finite theory mean (none at gamma < 0).
      {normalised + "--set bias.gamma=-0.5", "run.max_steps:", "give max_steps explicitly"},
      {normalised + "--set theory.rate=fast", "theory.rate:", "exact"},
      {normalised + "--set theory.rate=exact", "theory.rate:", "no exact escape rate"},
      // The exact rate needs 0 < gamma at constant bias, and a threshold past pi/2 under a ramp.
      {normalised + "--set model.dynamics=overdamped --set theory.rate=exact --set bias.gamma=0 "
                    "--set run.max_steps=100",
       "theory.rate:", "0 < gamma < 1"},
      {normalised + "--set model.dynamics=overdamped --set theory.rate=exact --set mode=switching "
                    "--set ramp.rate=1e-3 --set ramp.gamma0=0.1 --set model.threshold=1.5",
       "theory.rate:", "above pi/2"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(run(c.args + " -o " + output), 2) << c.args << "\n" << log();
    EXPECT_NE(log().find(c.key), std::string::npos) << c.args << "\n" << log();
    EXPECT_NE(log().find(c.text), std::string::npos) << c.args << "\n" << log();
    EXPECT_FALSE(fs::exists(output)) << c.args;
  }
  EXPECT_EQ(run(normalised + "-o " + path("no/such/dir/x.h5")), 2);
  EXPECT_NE(log().find("cannot write output file"), std::string::npos) << log();
  EXPECT_EQ(run(path("missing.yaml")), 2);
  EXPECT_EQ(run("--bogus"), 2);
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().extension(), ".txt") << entry.path();  // only the log
}

// ---- Checkpoints ------------------------------------------------------------------------------

void expect_same_results(const pj::EnsembleResults& a, const pj::EnsembleResults& b,
                         const std::string& what) {
  EXPECT_EQ(a.steps, b.steps) << what;
  EXPECT_TRUE(a.outcome == b.outcome) << what;
  EXPECT_EQ(a.bias, b.bias) << what;
  EXPECT_EQ(a.final_phi, b.final_phi) << what;
  EXPECT_EQ(a.final_v, b.final_v) << what;
}

pj::RunParameters small_arrhenius(pj::Precision precision) {
  pj::RunParameters p;
  p.mode = pj::RunMode::arrhenius;
  p.precision = precision;
  p.thetas = {0.3, 0.4};
  p.realisations = 64;
  p.max_steps = 40000;  // some censored: their final state must survive the checkpoint too
  p.seed = 17;
  p.ensemble.slots = 8;
  p.ensemble.steps_per_launch = 500;
  return p;
}

TEST_F(JosephsonApp, CheckpointFileContinuesTheRunBitForBit) {
  for (pj::Precision precision :
       {pj::Precision::single_precision, pj::Precision::double_precision}) {
    const pj::ResolvedRun run = pj::resolve(small_arrhenius(precision));
    pj::Simulation reference(Kokkos::DefaultExecutionSpace(), run);
    while (!reference.done()) reference.advance();
    ASSERT_EQ(reference.points().size(), 2u);

    // Checkpoints in the middle of the first ensemble and of the second, through the file.
    for (int launches : {3, 0}) {
      pj::Simulation first(Kokkos::DefaultExecutionSpace(), run);
      if (launches > 0) {
        for (int i = 0; i < launches; ++i) first.advance();
        ASSERT_TRUE(first.points().empty());
      } else {
        while (first.points().empty()) first.advance();
        for (int i = 0; i < 3; ++i) first.advance();
        ASSERT_FALSE(first.done());
      }
      const std::string file = path("run.checkpoint");
      pj::write_checkpoint(file, first.checkpoint(), "mode: arrhenius\n");
      pj::Simulation resumed(Kokkos::DefaultExecutionSpace(), run);
      resumed.restore(pj::read_checkpoint(file));
      EXPECT_EQ(resumed.fraction_done(), first.fraction_done());
      while (!resumed.done()) resumed.advance();
      for (std::size_t k = 0; k < 2; ++k)
        expect_same_results(resumed.points()[k].results, reference.points()[k].results,
                            std::string(pj::to_string(precision)) + " point " + std::to_string(k) +
                                " after " + std::to_string(launches));
    }
    // A checkpoint of another run is refused.
    pj::RunParameters other = small_arrhenius(precision);
    other.seed = 18;
    pj::Simulation wrong(Kokkos::DefaultExecutionSpace(), pj::resolve(other));
    EXPECT_THROW(wrong.restore(pj::read_checkpoint(path("run.checkpoint"))), std::invalid_argument);
  }
}

TEST_F(JosephsonApp, InterruptedRunResumesBitForBit) {
  const auto input = write_input("resume.yaml", escape_input);
  const auto reference = path("reference.h5");
  ASSERT_EQ(run(input + " -q -o " + reference), 0) << log();

  // Short launches with a checkpoint after each make the run slow enough to interrupt.
  const auto output = path("interrupted.h5");
  const auto checkpoint = output + ".checkpoint";
  const int status = interrupt_once_written(
      input + " -q --set run.steps_per_launch=50 --set checkpoint.every=1e-9 -o " + output,
      checkpoint);
  ASSERT_GE(status, 0);
  if (status == 0) GTEST_SKIP() << "the run finished before it could be interrupted";
  ASSERT_EQ(status, 3) << log();
  EXPECT_NE(log().find("--resume"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
  ASSERT_TRUE(fs::exists(checkpoint));

  EXPECT_EQ(run(input + " --set run.seed=22 --resume " + checkpoint + " -o " + path("x.h5")), 2);
  EXPECT_NE(log().find("another run"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(path("x.h5")));

  // Resumed with another launch length: the results do not depend on it.
  ASSERT_EQ(run(input + " -q --resume " + checkpoint + " -o " + output), 0) << log();
  EXPECT_FALSE(fs::exists(checkpoint));
  InputFile r(reference), f(output);
  const std::string g = "/josephson/escape/";
  EXPECT_EQ(f.read<std::uint64_t>(g + "steps"), r.read<std::uint64_t>(g + "steps"));
  EXPECT_EQ(f.read<std::uint8_t>(g + "outcome"), r.read<std::uint8_t>(g + "outcome"));
  EXPECT_EQ(f.read<double>(g + "escape_times"), r.read<double>(g + "escape_times"));
  EXPECT_EQ(f.read_scalar<double>(g + "mean_time"), r.read_scalar<double>(g + "mean_time"));
  EXPECT_GT(f.read_scalar<std::uint64_t>(g + "timing/launches"),
            r.read_scalar<std::uint64_t>(g + "timing/launches"));
}

TEST_F(JosephsonApp, ResumeRejectsAFileThatIsNotACheckpoint) {
  const auto fake = write_input("fake.ckpt", "not hdf5");
  EXPECT_EQ(
      run(write_input("escape.yaml", escape_input) + " --resume " + fake + " -o " + path("r.h5")),
      2);
  EXPECT_NE(log().find("fake.ckpt"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(path("r.h5")));
}

TEST_F(JosephsonApp, ResumeRefusesEveryUnusableCheckpointAsBadInput) {
  const auto input = write_input("escape.yaml", escape_input);
  const auto stopped = path("stopped.h5");
  // Short launches: on a GPU one default launch finishes the whole ensemble.
  ASSERT_EQ(
      run(input + " -q --set run.steps_per_launch=100 --set checkpoint.stop_after=1 -o " + stopped),
      3)
      << log();
  const std::string checkpoint = stopped + ".checkpoint", foreign = path("muca.ckpt");
  ASSERT_TRUE(fs::exists(checkpoint));
  portamc::testing::write_muca_checkpoint(foreign);
  const auto output = path("never.h5");
  portamc::testing::expect_resume_refusals(
      [&](const std::string& args) { return run(args); }, [&] { return log(); }, dir_,
      input + " -q -o " + output, output, checkpoint, foreign,
      [](const std::string& file) {
        portamc::testing::flip_bit<std::uint64_t>(file, "/points/point_0/results/steps", 0, 3);
      });
  // Consistent but impossible: a state in flight that is not finite, sealed with a matching
  // checksum.
  pj::RunCheckpoint c = pj::read_checkpoint(checkpoint);
  ASSERT_FALSE(c.points.at(0).states.in_flight_phi.empty());
  c.points[0].states.in_flight_phi[0] = std::nan("");
  pj::write_checkpoint(path("nan.ckpt"), c, "");
  EXPECT_EQ(run(input + " -q --resume " + path("nan.ckpt") + " -o " + output), 2) << log();
  EXPECT_NE(log().find("/points/point_0/in_flight/phi[0] = nan"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(JosephsonApp, HelpAndVersion) {
  EXPECT_EQ(run("--help"), 0);
  for (const char* key : {"junction.theta", "physical.sweep_frequency", "ramp.gamma0",
                          "arrhenius.theta", "theory.rate", "checkpoint.every"})
    EXPECT_NE(log().find(key), std::string::npos) << key;
  EXPECT_EQ(run("--version"), 0);
  EXPECT_NE(log().find("Kokkos"), std::string::npos);
}

}  // namespace

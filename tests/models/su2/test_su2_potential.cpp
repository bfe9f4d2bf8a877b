// Tests of the static-potential analysis on synthetic Wilson loops W(R,T) = c(R) exp(-V(R) T)
// (optionally plus an excited state) with multiplicative Gaussian noise from a fixed seed: the
// fit must recover the potential that generated the data within its jackknife errors, the errors
// must have the right size, and bad input must be refused with a clear message.
#include "portamc/su2/potential.hpp"

#include <algorithm>
#include "portamc/error_calibration.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace su2 = portamc::su2;

struct Truth {
  double v0 = 0.55, alpha = 0.28, sigma = 0.045;
  double v(int r) const { return su2::cornell_potential(r, v0, alpha, sigma); }
};

struct Synthetic {
  int r_max = 8, t_max = 6;
  std::size_t measurements = 400;
  double noise = 0.02;             // relative, per loop and measurement
  double excited_amplitude = 0.0;  // relative to the ground state
  double gap = 0.8;                // excited-state energy above V(R)
  double autocorrelation = 0.0;    // AR(1) coefficient of the noise along the Markov chain
  std::uint64_t seed = 1;
};

su2::WilsonLoopSamples make_loops(const Truth& truth, const Synthetic& s) {
  std::mt19937_64 engine(s.seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  su2::WilsonLoopSamples loops;
  loops.r_max = s.r_max;
  loops.t_max = s.t_max;
  const std::size_t n = static_cast<std::size_t>(s.r_max) * s.t_max;
  // Stationary AR(1) noise: unit variance whatever the coefficient.
  std::vector<double> state(n);
  for (double& x : state) x = gauss(engine);
  const double rho = s.autocorrelation;
  for (std::size_t m = 0; m < s.measurements; ++m) {
    std::vector<double> sample(n);
    for (int r = 1; r <= s.r_max; ++r) {
      const double overlap = 0.8 * std::exp(-0.05 * r);
      for (int t = 1; t <= s.t_max; ++t) {
        const std::size_t k = static_cast<std::size_t>(r - 1) * s.t_max + (t - 1);
        state[k] = rho * state[k] + std::sqrt(1.0 - rho * rho) * gauss(engine);
        const double exact = overlap * (std::exp(-truth.v(r) * t) +
                                        s.excited_amplitude * std::exp(-(truth.v(r) + s.gap) * t));
        sample[k] = exact * (1.0 + s.noise * state[k]);
      }
    }
    loops.samples.push_back(std::move(sample));
  }
  return loops;
}

double spacing_fm(double sigma) {
  return std::sqrt(sigma) * 197.3269804 / 440.0;
}

void expect_within(const portamc::stats::JackknifeEstimate& e, double truth, double sigmas,
                   const char* what) {
  EXPECT_TRUE(std::isfinite(e.error) && e.error > 0.0) << what << " error " << e.error;
  EXPECT_LT(std::abs(e.value - truth), sigmas * e.error)
      << what << " = " << e.value << " +- " << e.error << ", truth " << truth;
}

TEST(Su2Potential, RecoversTheGeneratingPotential) {
  const Truth truth;
  const auto result = su2::analyse_static_potential(make_loops(truth, Synthetic{}));
  EXPECT_EQ(result.blocks, 400u / 12u);  // automatic block size N/32 = 12
  EXPECT_EQ(result.degrees_of_freedom, 5);
  EXPECT_TRUE(result.weighted);
  expect_within(result.v0, truth.v0, 3.0, "V0");
  expect_within(result.alpha, truth.alpha, 3.0, "alpha");
  expect_within(result.sigma, truth.sigma, 3.0, "sigma");
  expect_within(result.spacing_fm, spacing_fm(truth.sigma), 3.0, "a [fm]");
  const double r0 = std::sqrt((1.65 - truth.alpha) / truth.sigma);  // 5.52: inside R = 1..8
  expect_within(result.sommer_r0, r0, 3.0, "r0/a");
  EXPECT_TRUE(result.sommer_r0_in_fit_range);
  EXPECT_LT(result.sigma.error, 0.1 * truth.sigma);  // the data determine sigma well
  EXPECT_TRUE(std::isfinite(result.chi2_per_dof.value));
  EXPECT_LT(result.chi2_per_dof.value, 4.0);
  for (const auto& p : result.potential) {
    EXPECT_TRUE(p.plateau_found);
    expect_within(p.v, truth.v(p.r), 4.0, "V(R)");
  }
  // a = sqrt(sigma) hbar c / 440 MeV, error propagated by the jackknife: da/a = dsigma/(2 sigma).
  EXPECT_NEAR(result.spacing_fm.value, spacing_fm(result.sigma.value), 1e-12);
  EXPECT_NEAR(result.spacing_fm.error / result.spacing_fm.value,
              0.5 * result.sigma.error / result.sigma.value,
              0.05 * result.sigma.error / result.sigma.value);
}

TEST(Su2Potential, JackknifeErrorsCoverTheTruthAtTheNominalRate) {
  // Over independent data sets |sigma - truth| <= error should hold about 68% of the time; the
  // band allows for the binomial spread of 60 trials (sd 6%) and the jackknife's own noise. The
  // plateau is fixed: the automatic choice depends on the noise and makes the errors conservative.
  const Truth truth;
  su2::PotentialOptions options;
  options.plateau_t = 2;
  int covered = 0;
  const int trials = 60;
  for (int i = 0; i < trials; ++i) {
    Synthetic s;
    s.measurements = 160;
    s.seed = 1000 + i;
    const auto result = su2::analyse_static_potential(make_loops(truth, s), options);
    if (std::abs(result.sigma.value - truth.sigma) <= result.sigma.error) ++covered;
  }
  EXPECT_GE(covered, static_cast<int>(0.48 * trials));
  EXPECT_LE(covered, static_cast<int>(0.88 * trials));
}

TEST(Su2Potential, BlockingAccountsForAutocorrelation) {
  // AR(1) noise with rho = 0.9 (tau_int = 9.5): unblocked errors are too small by about
  // sqrt(2 tau_int) = 4.4; blocks of 50 recover them.
  const Truth truth;
  Synthetic s;
  s.measurements = 2000;
  s.autocorrelation = 0.9;
  const auto loops = make_loops(truth, s);
  su2::PotentialOptions naive;
  naive.block_size = 1;
  su2::PotentialOptions blocked;
  blocked.block_size = 50;
  const auto a = su2::analyse_static_potential(loops, naive);
  const auto b = su2::analyse_static_potential(loops, blocked);
  EXPECT_EQ(b.blocks, 40u);
  EXPECT_GT(b.sigma.error / a.sigma.error, 2.5);
  expect_within(b.sigma, truth.sigma, 3.0, "sigma (blocked)");
}

TEST(Su2Potential, AutomaticPlateauSkipsExcitedStateContamination) {
  const Truth truth;
  Synthetic s;
  s.t_max = 10;
  s.excited_amplitude = 0.5;
  s.gap = 1.2;  // contamination of V_T - V_{T+1}: 0.35 exp(-1.2 T), below its error from T ~ 5
  s.noise = 0.01;
  const auto loops = make_loops(truth, s);
  const auto result = su2::analyse_static_potential(loops);
  for (const auto& p : result.potential) {
    const auto& masses = result.effective_mass[p.r - 1];
    ASSERT_TRUE(p.plateau_found) << "R = " << p.r;
    ASSERT_GT(p.plateau_t, 1) << "R = " << p.r;  // V_1 is visibly contaminated
    // The chosen T is the first whose neighbour agrees within the error of the difference; the
    // previous T did not. Both differences are recomputed here from the reported masses' values.
    const double at = masses[p.plateau_t - 1].value - masses[p.plateau_t].value;
    const double before = masses[p.plateau_t - 2].value - masses[p.plateau_t - 1].value;
    EXPECT_LT(std::abs(at), std::abs(before)) << "R = " << p.r;
    EXPECT_LT(std::abs(p.v.value - truth.v(p.r)), std::abs(masses[0].value - truth.v(p.r)));
    expect_within(p.v, truth.v(p.r), 4.0, "V(R) at the plateau");
  }
  // Forcing T = 1 keeps the contamination: V(1) is then biased by many errors.
  su2::PotentialOptions early;
  early.plateau_t = 1;
  const auto biased = su2::analyse_static_potential(loops, early);
  EXPECT_GT(biased.potential[0].v.value - truth.v(1), 10 * biased.potential[0].v.error);
  for (const auto& p : biased.potential) EXPECT_EQ(p.plateau_t, 1);
}

TEST(Su2Potential, AutomaticPlateauErrorsIncludeTheChoiceOfT) {
  // With an excited state that fades slowly, the automatic T(R) differs from one data set to
  // the next, and sigma depends on it. Over 40 independent data sets, chi^2 of sigma around the
  // weighted mean (the rule of the error-calibration tests) must not exceed its pass range:
  // every jackknife sample makes its own choice of T, so the errors include the choice. Frozen
  // at the full-data T (before 2026-11-28) they did not: chi^2 = 263 with 39 dof here. The
  // re-made choice errs on the safe side: chi^2 = 6.9 here, errors about 2.4 times the scatter
  // (docs/statistics.md). With T fixed the errors are honest both ways.
  const Truth truth;
  std::vector<double> automatic, automatic_error, fixed, fixed_error;
  std::vector<int> plateau_of_r2;
  su2::PotentialOptions at_three;
  at_three.plateau_t = 3;
  for (int i = 0; i < 40; ++i) {
    Synthetic s;
    s.t_max = 8;
    s.excited_amplitude = 0.6;
    s.gap = 0.5;
    s.noise = 0.03;
    s.measurements = 320;
    s.seed = 5000 + i;
    const auto loops = make_loops(truth, s);
    const auto result = su2::analyse_static_potential(loops);
    automatic.push_back(result.sigma.value);
    automatic_error.push_back(result.sigma.error);
    plateau_of_r2.push_back(result.potential[1].plateau_t);
    const auto at_t = su2::analyse_static_potential(loops, at_three);
    fixed.push_back(at_t.sigma.value);
    fixed_error.push_back(at_t.sigma.error);
  }
  // The premise: the choice does move between data sets.
  EXPECT_NE(*std::min_element(plateau_of_r2.begin(), plateau_of_r2.end()),
            *std::max_element(plateau_of_r2.begin(), plateau_of_r2.end()));
  const auto chosen = portamc::stats::calibrate_errors(automatic, automatic_error);
  EXPECT_LE(chosen.chi_square, chosen.high) << chosen.summary;
  const auto at_fixed_t = portamc::stats::calibrate_errors(fixed, fixed_error);
  EXPECT_TRUE(at_fixed_t.pass) << at_fixed_t.summary;
}

TEST(Su2Potential, NoiseFreeDataAreFittedExactly) {
  const Truth truth;
  Synthetic s;
  s.noise = 0.0;
  s.measurements = 8;
  su2::PotentialOptions options;
  options.fit_r_min = 2;
  options.fit_r_max = 6;
  const auto result = su2::analyse_static_potential(make_loops(truth, s), options);
  EXPECT_FALSE(result.weighted);  // zero errors: equal weights instead of 1/0
  EXPECT_NEAR(result.v0.value, truth.v0, 1e-10);
  EXPECT_NEAR(result.alpha.value, truth.alpha, 1e-10);
  EXPECT_NEAR(result.sigma.value, truth.sigma, 1e-10);
  EXPECT_NEAR(result.spacing_fm.value, spacing_fm(truth.sigma), 1e-10);
  EXPECT_NEAR(result.sommer_r0.value, std::sqrt((1.65 - truth.alpha) / truth.sigma), 1e-8);
  EXPECT_TRUE(result.sommer_r0_in_fit_range);  // 5.52 in 2..6
  EXPECT_EQ(result.degrees_of_freedom, 2);
  EXPECT_NEAR(result.chi2_per_dof.value, 0.0, 1e-20);

  options.fit_r_max = 5;  // r0 = 5.52 is now outside the fitted range
  EXPECT_FALSE(su2::analyse_static_potential(make_loops(truth, s), options).sommer_r0_in_fit_range);
  options.fit_r_max = 4;  // 3 points: an exact interpolation, no degree of freedom
  const auto three = su2::analyse_static_potential(make_loops(truth, s), options);
  EXPECT_EQ(three.degrees_of_freedom, 0);
  EXPECT_TRUE(std::isnan(three.chi2_per_dof.value));
  EXPECT_NEAR(three.sigma.value, truth.sigma, 1e-9);
}

// Expects std::invalid_argument whose message contains 'needle'.
template <class F>
void expect_invalid(F&& statement, const std::string& needle) {
  try {
    statement();
    ADD_FAILURE() << "expected std::invalid_argument mentioning '" << needle << "'";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
  }
}

TEST(Su2Potential, DegenerateInputsAreRefused) {
  const Truth truth;
  Synthetic s;
  s.measurements = 64;
  const auto good = make_loops(truth, s);

  su2::PotentialOptions two_points;
  two_points.fit_r_min = 3;
  two_points.fit_r_max = 4;
  expect_invalid([&] { su2::analyse_static_potential(good, two_points); }, "only 2 point");

  Synthetic narrow = s;
  narrow.r_max = 2;
  expect_invalid([&] { su2::analyse_static_potential(make_loops(truth, narrow)); }, "3 parameters");

  su2::PotentialOptions outside;
  outside.fit_r_max = 9;
  expect_invalid([&] { su2::analyse_static_potential(good, outside); }, "not inside 1..r_max");

  su2::PotentialOptions late;
  late.plateau_t = 6;  // needs W(R,7), but t_max = 6
  expect_invalid([&] { su2::analyse_static_potential(good, late); }, "plateau_t = 6");

  auto negative = good;
  for (auto& sample : negative.samples)
    sample[2 * s.t_max + 1] = -std::abs(sample[2 * s.t_max + 1]);
  su2::PotentialOptions at_two;
  at_two.plateau_t = 2;
  expect_invalid([&] { su2::analyse_static_potential(negative, at_two); }, "W(R=3,T=2)");
  expect_invalid([&] { su2::analyse_static_potential(negative, at_two); }, "not positive");

  auto zero = good;
  for (auto& sample : zero.samples) sample[4 * s.t_max] = 0.0;  // W(R=5,T=1)
  expect_invalid([&] { su2::analyse_static_potential(zero); }, "W(R=5,T=1)");

  auto nan = good;
  nan.samples[7][3] = std::nan("");
  expect_invalid([&] { su2::analyse_static_potential(nan); }, "non-finite");

  auto ragged = good;
  ragged.samples[5].pop_back();
  expect_invalid([&] { su2::analyse_static_potential(ragged); }, "measurement 5");

  auto single = good;
  single.samples.resize(1);
  expect_invalid([&] { su2::analyse_static_potential(single); }, "at least 2");

  auto short_t = good;
  short_t.t_max = 1;
  expect_invalid([&] { su2::analyse_static_potential(short_t); }, "t_max");

  su2::PotentialOptions bad_scale;
  bad_scale.sqrt_sigma_mev = 0.0;
  expect_invalid([&] { su2::analyse_static_potential(good, bad_scale); }, "sqrt_sigma_mev");
}

}  // namespace

// The double-peak analysis against distributions whose answers are known by construction,
// and the 1/L fit's error bars against the scatter of its estimates over seeds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "portamc/muca/first_order.hpp"

namespace {

using portamc::muca::double_peak;
using portamc::muca::DoublePeak;
using portamc::muca::fit_inverse_size;

// ln g(E) = ln P(E) + beta0 E for P a sum of two Gaussians in E of equal height (1): at beta0
// both peaks are equally high, whatever their widths. They are 6 widths from their crossing
// and 7 from the ends of the grid, so each phase's mean is its Gaussian's to ~1e-7.
struct TwoPhases {
  double beta0 = 1.3, e1 = 56, e2 = 176, s1 = 8, s2 = 12;
  std::vector<double> energy, log_g;
  TwoPhases() {
    for (int e = 0; e <= 260; ++e) {
      const double a = (e - e1) / s1, b = (e - e2) / s2;
      energy.push_back(e);
      log_g.push_back(std::log(std::exp(-0.5 * a * a) + std::exp(-0.5 * b * b)) + beta0 * e);
    }
  }
};

TEST(DoublePeak, FindsTheEqualHeightPointOfAKnownDistribution) {
  const TwoPhases t;
  const DoublePeak d = double_peak(t.energy, t.log_g, 10, 2, 0.5, 2.5);
  EXPECT_NEAR(d.beta_eq, t.beta0, 1e-9);
  EXPECT_NEAR(d.energy_ordered, t.e1, 1e-5);
  EXPECT_NEAR(d.energy_disordered, t.e2, 1e-5);
  EXPECT_NEAR(d.latent_heat_per_site, (t.e2 - t.e1) / 100.0, 1e-7);
  // The valley: where the two Gaussians are equal, (E - e1)/s1 = (e2 - E)/s2, on the grid.
  const double crossing = (t.e1 * t.s2 + t.e2 * t.s1) / (t.s1 + t.s2);
  EXPECT_NEAR(t.energy[static_cast<std::size_t>(d.valley)], crossing, 1.0);
  const double z = (t.energy[static_cast<std::size_t>(d.valley)] - t.e1) / t.s1,
               w = (t.e2 - t.energy[static_cast<std::size_t>(d.valley)]) / t.s2;
  const double valley = std::log(std::exp(-0.5 * z * z) + std::exp(-0.5 * w * w));
  EXPECT_NEAR(d.log_peak_to_valley, -valley, 1e-6);
  EXPECT_NEAR(d.interface_tension, -valley / 20.0, 1e-7);  // two interfaces of L = 10 sites
}

TEST(DoublePeak, NoisyEstimatesStillSplitAtTheValley) {
  const TwoPhases t;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::vector<double> noisy = t.log_g;
  for (double& v : noisy) v += noise(rng);
  const DoublePeak d = double_peak(t.energy, noisy, 10, 2, 0.5, 2.5);
  EXPECT_NEAR(d.beta_eq, t.beta0, 1e-3);
  EXPECT_NEAR(d.latent_heat_per_site, 1.2, 1e-2);
  EXPECT_GT(d.valley, 90);
  EXPECT_LT(d.valley, 120);
}

TEST(DoublePeak, RefusesWhatHasNoDoublePeakInTheRange) {
  const TwoPhases t;
  EXPECT_THROW(double_peak(t.energy, t.log_g, 10, 2, 1.5, 2.5), std::invalid_argument);
  std::vector<double> one_peak;
  for (double e : t.energy) one_peak.push_back(-0.5 * (e - 120) * (e - 120) / 100.0 + t.beta0 * e);
  EXPECT_THROW(double_peak(t.energy, one_peak, 10, 2, 0.5, 2.5), std::invalid_argument);
  std::vector<double> unsorted = t.energy;
  std::swap(unsorted[3], unsorted[4]);
  EXPECT_THROW(double_peak(unsorted, t.log_g, 10, 2, 0.5, 2.5), std::invalid_argument);
}

TEST(InverseSizeFit, ExactDataGiveTheLine) {
  const std::vector<int> L = {16, 24, 32, 48, 64};
  std::vector<double> y, e;
  for (int l : L) y.push_back(0.0473 + 0.31 / l), e.push_back(1e-3);
  const auto f = fit_inverse_size(L, y, e);
  EXPECT_NEAR(f.intercept, 0.0473, 1e-12);
  EXPECT_NEAR(f.slope, 0.31, 1e-10);
  EXPECT_NEAR(f.chi2_per_dof, 0.0, 1e-12);
  EXPECT_THROW(fit_inverse_size({16, 16}, {1, 2}, {1, 1}), std::invalid_argument);
  EXPECT_THROW(fit_inverse_size({16, 32}, {1, 2}, {1, 0}), std::invalid_argument);
}

TEST(InverseSizeFit, ErrorBarsMatchTheScatterOverSeeds) {
  // 2000 synthetic data sets with Gaussian errors: the intercepts' pulls must have unit
  // variance (the errors are neither too small nor too large) and chi2/dof must average 1.
  const std::vector<int> L = {12, 16, 24, 32, 48};
  std::vector<double> e;
  for (int l : L) e.push_back(0.002 * 32.0 / l);
  std::mt19937_64 rng(2026);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int sets = 2000;
  double pull2 = 0, chi2 = 0, pull = 0;
  for (int s = 0; s < sets; ++s) {
    std::vector<double> y;
    for (std::size_t i = 0; i < L.size(); ++i)
      y.push_back(0.0473 + 0.31 / L[i] + e[i] * normal(rng));
    const auto f = fit_inverse_size(L, y, e);
    const double p = (f.intercept - 0.0473) / f.intercept_error;
    pull += p;
    pull2 += p * p;
    chi2 += f.chi2_per_dof;
  }
  // Standard errors of these averages over 2000 sets: mean pull 0.022, mean pull^2 0.032,
  // mean chi2/dof sqrt(2/3)/sqrt(2000) = 0.018; four of them as the tolerance.
  EXPECT_NEAR(pull / sets, 0.0, 4 * 0.022);
  EXPECT_NEAR(pull2 / sets, 1.0, 4 * 0.032);
  EXPECT_NEAR(chi2 / sets, 1.0, 4 * 0.018);
}

}  // namespace

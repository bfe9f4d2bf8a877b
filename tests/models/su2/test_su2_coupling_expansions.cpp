// The 4D Monte Carlo plaquette against the strong-coupling (beta <= 0.5) and weak-coupling
// (beta >= 8) expansions of exact.hpp, within the statistical error of the run plus the
// series' own truncation estimate. At beta = 0.5 the truncation is below 1e-6, so this pins
// the heatbath's distribution to about 5e-4; at large beta the first-order weak-coupling
// term is checked to its truncation (0.4 / beta^2).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/statistics.hpp"
#include "portamc/su2/exact.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

portamc::stats::Estimate mean_plaquette(double beta, bool hot, std::uint64_t seed) {
  GaugeField<Space, double> field(Space(), {6, 6, 6, 6});
  if (hot) field.hot_start(seed);
  UpdateParameters p;
  p.beta = beta;
  p.seed = seed;
  p.overrelaxation_sweeps = 1;
  Updater<Space, double> updater(Space(), p);
  for (int i = 0; i < 40; ++i) updater.update(field);
  std::vector<double> series;
  for (int i = 0; i < 320; ++i) {
    updater.update(field);
    series.push_back(field.plaquette().total);
  }
  return portamc::stats::binned_mean(series, 16);
}

void expect_within(const portamc::stats::Estimate& mc, const exact::SeriesValue& series,
                   double beta) {
  const double tolerance = 4 * mc.error + series.truncation_error;
  EXPECT_NEAR(mc.value, series.value, tolerance)
      << "beta = " << beta << ": Monte Carlo " << mc.value << " +- " << mc.error << ", series "
      << series.value << " +- " << series.truncation_error << " (order " << series.order << ")";
  EXPECT_LT(mc.error, 2e-3) << "beta = " << beta << ": too noisy to test anything";
}

TEST(CouplingExpansions, StrongCouplingIn4D) {
  std::uint64_t seed = 11;
  for (double beta : {0.25, 0.5}) {
    expect_within(mean_plaquette(beta, true, seed++), exact::plaquette_strong_coupling(4, beta),
                  beta);
  }
}

TEST(CouplingExpansions, WeakCouplingIn4D) {
  std::uint64_t seed = 21;
  for (double beta : {8.0, 12.0}) {
    expect_within(mean_plaquette(beta, false, seed++), exact::plaquette_weak_coupling_4d(beta),
                  beta);
  }
}

}  // namespace

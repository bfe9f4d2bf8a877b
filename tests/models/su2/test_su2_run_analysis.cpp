// The statistics of one coupling (run_analysis.hpp) on synthetic measurement records with known
// properties: the shared equilibration point, bins from tau_int or the analysis.blocks
// override, the susceptibility over the equilibrated bins, the potential's bins and the
// warnings for estimates that cannot be trusted.
#include "portamc/su2/run_analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../common/ar1_series.hpp"

namespace {

using namespace portamc::su2;

// AR(1) noise of unit variance, tau_int = (1+rho)/(2(1-rho)).
std::vector<double> ar1(std::size_t n, double rho, std::uint64_t seed) {
  return portamc::testing::ar1_series(n, rho, seed);
}

RunParameters parameters(std::size_t measurements) {
  RunParameters p;
  p.extents = {8, 8, 8, 8};
  p.measurements = static_cast<long long>(measurements);
  p.wilson_r_max = 4;
  p.wilson_t_max = 3;
  p.polyakov_bins = 10;
  return p;
}

// n measurements: plaquette 0.6 + 0.01 AR(1) with an exponential transient of amplitude
// `kick` and decay time `decay` planted at the front; P = 0.05 AR(1) + 0.1 (so |P| ~ P);
// Wilson loops of the potential V(R) = 0.5 - 0.25/R + 0.05 R with 1 % noise.
PointRecord record(const RunParameters& p, std::size_t n, double kick, double decay,
                   std::uint64_t seed) {
  PointRecord r;
  r.beta = 2.3;
  const auto a = ar1(n, 0.8, seed), b = ar1(n, 0.5, seed + 1), c = ar1(n, 0.3, seed + 2);
  std::mt19937_64 engine(seed + 3);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const std::size_t loops = p.loops_per_measurement();
  for (std::size_t m = 0; m < n; ++m) {
    r.step.push_back(static_cast<std::int64_t>(m));
    const double transient = kick * std::exp(-static_cast<double>(m) / decay);
    r.plaquette.push_back(0.6 + 0.01 * a[m] + transient);
    r.plaquette_spatial.push_back(0.6 + 0.01 * b[m] + transient);
    r.plaquette_temporal.push_back(0.6 + 0.01 * c[m] + transient);
    r.polyakov.push_back(0.1 + 0.05 * b[m]);
    for (std::size_t l = 0; l < loops; ++l) {
      const int radius = static_cast<int>(l) / p.wilson_t_max + 1;
      const int t = static_cast<int>(l) % p.wilson_t_max + 1;
      const double v = 0.5 - 0.25 / radius + 0.05 * radius;
      r.wilson.push_back(0.8 * std::exp(-v * t) * (1 + 0.01 * gauss(engine)));
    }
  }
  r.polyakov_histogram.assign(static_cast<std::size_t>(p.polyakov_bins), 0);
  for (double x : r.polyakov)
    ++r.polyakov_histogram[static_cast<std::size_t>(polyakov_histogram_bin(x, p.polyakov_bins))];
  return r;
}

TEST(Su2RunAnalysis, BinsFollowTauIntOrTheOverride) {
  const Blocking a = blocking_for(100, 4000, 4.5, 0);  // 20 tau = 90 per bin, 44 bins
  EXPECT_TRUE(a.automatic);
  EXPECT_EQ(a.start, 100u);
  EXPECT_EQ(a.block_size, 90u);
  EXPECT_EQ(a.blocks, 44u);
  EXPECT_TRUE(a.long_enough);
  const Blocking short_run = blocking_for(0, 320, 4.5, 0);  // at least 16 bins: 20 per bin
  EXPECT_EQ(short_run.block_size, 20u);
  EXPECT_EQ(short_run.blocks, 16u);
  EXPECT_FALSE(short_run.long_enough);
  const Blocking fixed = blocking_for(10, 4000, 4.5, 32);
  EXPECT_FALSE(fixed.automatic);
  EXPECT_EQ(fixed.blocks, 32u);
  EXPECT_EQ(fixed.block_size, 125u);
  EXPECT_TRUE(fixed.long_enough);
  EXPECT_FALSE(blocking_for(0, 4000, 4.5, 200).long_enough);  // 20 per bin < 90
  EXPECT_EQ(blocking_for(0, 5, 0.5, 32).blocks, 5u);          // never more bins than data
}

TEST(Su2RunAnalysis, ThePlantedTransientSetsOneEquilibrationPointForEveryObservable) {
  // The synthetic loops are one exponential in T, so V_1 = V_2 up to noise, and a test at one
  // error misses that plateau for some R by chance (about 1 in 3): a fixed T keeps the
  // no-plateau warning out of the check that nothing else warns.
  RunParameters p = parameters(4000);
  p.plateau_t = 1;
  const PointRecord r = record(p, 4000, 0.2, 60.0, 11);
  const PointAnalysis a = analyse_point(r, p);
  // The transient (0.2 = 20 sigma, decaying over 60 measurements) is cut off ...
  EXPECT_GE(a.equilibration.plaquette_discarded, 125u);
  EXPECT_LE(a.equilibration.plaquette_discarded, 1000u);
  EXPECT_EQ(a.equilibration.discarded,
            std::max(a.equilibration.plaquette_discarded, a.equilibration.polyakov_abs_discarded));
  EXPECT_EQ(a.equilibration.used, 4000u - a.equilibration.discarded);
  // ... from every series, the Wilson loops included, though they have no transient of their own.
  for (const SeriesSummary* s : {&a.plaquette, &a.plaquette_spatial, &a.plaquette_temporal,
                                 &a.polyakov, &a.polyakov_abs, &a.wilson.front(), &a.wilson.back()})
    EXPECT_EQ(s->discarded, a.equilibration.discarded);
  EXPECT_NEAR(a.plaquette.mean.value, 0.6, 4 * a.plaquette.mean.error);
  // tau_int of AR(1) with rho = 0.8 is 4.5.
  EXPECT_NEAR(a.plaquette.tau.tau_int, 4.5, 4 * a.plaquette.tau.tau_error);
  EXPECT_NEAR(a.plaquette.effective_samples,
              static_cast<double>(a.equilibration.used) / (2 * a.plaquette.tau.tau_int), 1e-9);
  EXPECT_DOUBLE_EQ(a.tau_max, std::max(a.plaquette.tau.tau_int, a.polyakov_abs.tau.tau_int));
  EXPECT_TRUE(a.plaquette.reliable) << a.plaquette.warning;
  // The jackknife bins start there too, long enough for tau_max.
  EXPECT_EQ(a.blocking.start, a.equilibration.discarded);
  EXPECT_TRUE(a.blocking.long_enough);
  EXPECT_GE(static_cast<double>(a.blocking.block_size), 20 * a.tau_max);
  // The equilibrated histogram counts exactly the measurements after the point.
  std::uint64_t counted = 0;
  for (auto c : a.polyakov_histogram_equilibrated) counted += c;
  EXPECT_EQ(counted, a.equilibration.used);
  EXPECT_TRUE(analysis_warnings(a, p).empty()) << analysis_warnings(a, p).front();
}

TEST(Su2RunAnalysis, SusceptibilityUsesTheEquilibratedBinsOnly) {
  const RunParameters p = parameters(400);
  PointRecord r = record(p, 400, 0.0, 1.0, 5);
  // Bins 100..399 (30 bins of 10): chi over exactly those measurements.
  Blocking b;
  b.start = 100;
  b.blocks = 30;
  b.block_size = 10;
  const double volume = static_cast<double>(p.spatial_volume());
  double p2 = 0, pabs = 0;
  for (std::size_t m = 100; m < 400; ++m) {
    p2 += r.polyakov[m] * r.polyakov[m] / 300;
    pabs += std::abs(r.polyakov[m]) / 300;
  }
  const auto chi = polyakov_susceptibility(r.polyakov, volume, b);
  EXPECT_NEAR(chi.value, volume * (p2 - pabs * pabs), 1e-9 * volume * p2);
  EXPECT_TRUE(std::isfinite(chi.error));
  EXPECT_GT(chi.effective_blocks, 0.0);
  // Measurements before the start do not enter: changing them changes nothing.
  for (std::size_t m = 0; m < 100; ++m) r.polyakov[m] = 0.9;
  EXPECT_EQ(polyakov_susceptibility(r.polyakov, volume, b).value, chi.value);
  // Bins that reach past the data give NaN, not a read beyond the end.
  b.blocks = 31;
  EXPECT_TRUE(std::isnan(polyakov_susceptibility(r.polyakov, volume, b).value));
}

TEST(Su2RunAnalysis, PotentialBinsCoverTheSlowestLoopAndTheOverrideIsHonoured) {
  RunParameters p = parameters(3000);
  const PointRecord r = record(p, 3000, 0.0, 1.0, 21);
  const PointAnalysis a = analyse_point(r, p);
  ASSERT_TRUE(a.potential);
  ASSERT_TRUE(a.potential->ok) << a.potential->status;
  double slowest = a.tau_max;
  for (const auto& w : a.wilson) slowest = std::max(slowest, w.tau.tau_int);
  EXPECT_DOUBLE_EQ(a.potential->blocking.tau_int, slowest);
  EXPECT_TRUE(a.potential->blocking.automatic);
  EXPECT_EQ(a.potential->potential->block_size, a.potential->blocking.block_size);
  const auto& sigma = a.potential->potential->sigma;
  EXPECT_NEAR(sigma.value, 0.05, 4 * sigma.error);
  EXPECT_TRUE(std::isfinite(sigma.tau_int));
  EXPECT_NEAR(sigma.effective_blocks,
              static_cast<double>(a.potential->potential->blocks) / (2 * sigma.tau_int), 1e-9);

  p.jackknife_blocks = 8;
  const PointAnalysis fixed = analyse_point(r, p);
  EXPECT_EQ(fixed.blocking.blocks, 8u);
  EXPECT_FALSE(fixed.blocking.automatic);
  ASSERT_TRUE(fixed.potential && fixed.potential->ok);
  EXPECT_EQ(fixed.potential->potential->blocks, 8u);
  // Means are not affected by the override: their bins follow their own tau_int.
  EXPECT_EQ(fixed.plaquette.mean.error, a.plaquette.mean.error);
}

TEST(Su2RunAnalysis, ShortRunsAreFlaggedAndTheUndefinedSpatialPlaquetteIsNot) {
  RunParameters p = parameters(40);
  p.extents = {8, 8};
  p.wilson_r_max = 0;
  p.wilson_t_max = 0;
  PointRecord r = record(p, 40, 0.0, 1.0, 3);
  for (double& x : r.plaquette_spatial) x = std::nan("");  // no spatial planes in 2D
  const PointAnalysis a = analyse_point(r, p);
  EXPECT_FALSE(a.plaquette.reliable);
  EXPECT_NE(a.plaquette.warning.find("effective samples"), std::string::npos)
      << a.plaquette.warning;
  EXPECT_TRUE(std::isnan(a.plaquette_spatial.mean.value));
  EXPECT_FALSE(a.susceptibility.reliable);
  EXPECT_NE(a.susceptibility.warning.find("jackknife bins"), std::string::npos)
      << a.susceptibility.warning;
  const auto warnings = analysis_warnings(a, p);
  bool plaquette = false, susceptibility = false;
  for (const auto& w : warnings) {
    EXPECT_EQ(w.find("plaquette_spatial"), std::string::npos) << w;
    plaquette = plaquette || w.rfind("plaquette: ", 0) == 0;
    susceptibility = susceptibility || w.rfind("polyakov_susceptibility: ", 0) == 0;
  }
  EXPECT_TRUE(plaquette);
  EXPECT_TRUE(susceptibility);
}

}  // namespace

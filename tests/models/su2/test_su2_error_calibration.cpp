// Are portamc-su2's error bars honest? The same small run is repeated with k = 10 seeds and
// the scatter of the k results is compared with their reported errors by
// stats::calibrate_errors (chi^2 with k degrees of freedom around an exact value, k - 1 around
// the error-weighted mean). Pass range: the 1e-3 and 1 - 1e-3 quantiles of chi^2, i.e.
// [1.48, 29.6] for 10 degrees of freedom and [1.15, 27.9] for 9: a test with honest errors
// fails with probability 2e-3, one whose errors are off by a factor 2 almost always.
//
// Two dimensions, 16 x 16, beta = 2: the plaquette has the exact torus value
// (exact::plaquette_2d_torus) and the Polyakov loop P has exact mean 0 (centre symmetry: the
// action is invariant under flipping the sign of every time link on one time slice, which
// flips P). The susceptibility, a jackknife over the bins that choose_bins gives, is checked
// around the weighted mean. The seeds are fixed: the test is deterministic.
//
// Second test: a transient planted in the measurements of an equilibrium run (SU(2) itself
// relaxes from a cold start within a few sweeps) must be removed by the equilibration rule
// before the mean agrees with the exact value (|z| < 4).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "portamc/error_calibration.hpp"
#include "portamc/su2/exact.hpp"
#include "portamc/su2/run.hpp"
#include "portamc/su2/run_analysis.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
namespace stats = portamc::stats;

RunParameters two_dimensions(double beta, StartKind start, std::uint64_t seed,
                             long long thermalisation, long long measurements) {
  RunParameters p;
  p.extents = {16, 16};
  p.betas = {beta};
  p.start = start;
  p.seed = seed;
  p.thermalisation = thermalisation;
  p.measurements = measurements;
  p.updates_between_measurements = 1;
  p.potential = false;
  return p;
}

struct Outcome {
  PointRecord record;
  PointAnalysis analysis;
};

Outcome run(const RunParameters& p) {
  Simulation s(TestSpace(), p);
  s.start(nullptr);
  while (!s.done()) s.advance();
  Outcome r{s.points().front(), {}};
  r.analysis = analyse_point(r.record, p);
  return r;
}

using su2_test::Collected;

TEST(Su2ErrorCalibration, ScatterOverSeedsMatchesTheReportedErrors) {
  constexpr double beta = 2.0;
  const double exact_plaquette = exact::plaquette_2d_torus(beta, 16 * 16);
  Collected plaquette, polyakov, susceptibility;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const RunParameters p = two_dimensions(beta, StartKind::hot, 1000 + seed, 20, 2000);
    const PointAnalysis a = run(p).analysis;
    // Long enough for errors that mean something: the service calls them reliable.
    EXPECT_TRUE(a.plaquette.reliable) << "seed " << seed << ": " << a.plaquette.warning;
    EXPECT_TRUE(a.polyakov.reliable) << "seed " << seed << ": " << a.polyakov.warning;
    EXPECT_TRUE(a.susceptibility.reliable) << "seed " << seed << ": " << a.susceptibility.warning;
    EXPECT_TRUE(a.blocking.automatic);
    plaquette.add(a.plaquette.mean.value, a.plaquette.mean.error);
    polyakov.add(a.polyakov.mean.value, a.polyakov.mean.error);
    susceptibility.add(a.susceptibility.estimate.value, a.susceptibility.estimate.error);
  }
  const auto c_plaquette =
      stats::calibrate_errors(plaquette.means, plaquette.errors, exact_plaquette);
  EXPECT_TRUE(c_plaquette.pass) << "plaquette: " << c_plaquette.summary;
  const auto c_polyakov = stats::calibrate_errors(polyakov.means, polyakov.errors, 0.0);
  EXPECT_TRUE(c_polyakov.pass) << "Polyakov loop: " << c_polyakov.summary;
  const auto c_chi = stats::calibrate_errors(susceptibility.means, susceptibility.errors);
  EXPECT_TRUE(c_chi.pass) << "susceptibility: " << c_chi.summary;

  // The check has teeth: errors a factor 2.5 too small or 3 too large fail it.
  for (double factor : {0.4, 3.0}) {
    std::vector<double> scaled = plaquette.errors;
    for (double& e : scaled) e *= factor;
    EXPECT_FALSE(stats::calibrate_errors(plaquette.means, scaled, exact_plaquette).pass)
        << "errors x " << factor;
  }
}

TEST(Su2ErrorCalibration, PlantedTransientIsDetectedAndRemoved) {
  // Eight equilibrium runs at beta = 2 whose first measurements are displaced as by a slow
  // relaxation: 30 errors of a single plaquette measurement, decaying with a time constant of
  // 25 measurements (below 0.05 sigma after about 160). A cold start cannot plant this: SU(2)
  // relaxes from it within a few sweeps (the plaquette in 2D in one), far too briefly to bias
  // anything or to be seen among 400 measurements.
  constexpr double beta = 2.0;
  const double exact_plaquette = exact::plaquette_2d_torus(beta, 16 * 16);
  for (std::uint64_t seed : {77, 78, 79, 80, 81, 82, 83, 84}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const RunParameters p = two_dimensions(beta, StartKind::hot, seed, 20, 400);
    Outcome r = run(p);
    const PointAnalysis clean = r.analysis;
    double sigma = 0;
    {
      const auto& x = r.record.plaquette;
      double mean = 0;
      for (double v : x) mean += v / x.size();
      for (double v : x) sigma += (v - mean) * (v - mean) / (x.size() - 1);
      sigma = std::sqrt(sigma);
    }
    for (std::size_t t = 0; t < r.record.plaquette.size(); ++t) {
      const double shift = 30 * sigma * std::exp(-static_cast<double>(t) / 25);
      r.record.plaquette[t] += shift;
      r.record.plaquette_temporal[t] += shift;
    }
    const PointAnalysis a = analyse_point(r.record, p);
    EXPECT_GE(a.equilibration.plaquette_discarded, 60u);
    EXPECT_GE(a.equilibration.discarded, a.equilibration.plaquette_discarded);
    EXPECT_LE(a.equilibration.discarded, 400u / 2);
    EXPECT_EQ(a.equilibration.used, 400u - a.equilibration.discarded);
    // Every observable and the jackknife start at the shared equilibration point.
    for (const SeriesSummary* s :
         {&a.plaquette, &a.plaquette_temporal, &a.polyakov, &a.polyakov_abs}) {
      EXPECT_EQ(s->discarded, a.equilibration.discarded);
      EXPECT_EQ(s->used, a.equilibration.used);
    }
    EXPECT_EQ(a.blocking.start, a.equilibration.discarded);
    const double z = (a.plaquette.mean.value - exact_plaquette) / a.plaquette.mean.error;
    EXPECT_LT(std::abs(z), 4.0) << a.plaquette.mean.value << " +- " << a.plaquette.mean.error
                                << " vs exact " << exact_plaquette;
    // Kept in, the transient biases the mean by many of the clean run's errors.
    const auto all = stats::analyse_series_from(r.record.plaquette, 0);
    EXPECT_GT((all.mean.value - exact_plaquette) / clean.plaquette.mean.error, 4.0);
  }
}

}  // namespace

// Are portamc-cvf's error bars honest? A small NPT run (N = 64 molecules, Metropolis with the
// volume move and the eta update, the app's schedule) repeated with 10 seeds and analysed by the
// app's own analysis (cvf::analyse: one equilibration start from the enthalpy and volume series,
// the statistics service's binned means, the response functions jackknifed over bins). At
// J_sigma = 0 in the deep liquid the model is exactly solvable (exact.hpp, exact_volume.hpp):
// every allowed edge bonds independently with p = e^x / (e^x + 5), x = J_eff / t, so
// <N_HB/N> = 2 p and Var(N_HB/N) = 2 p (1 - p) / N, and v_iso is independent of the bonds with
// the one-dimensional law of exact_volume.hpp. That gives <N_HB/N>, <V/N> = <v_iso> + v_HB <N_HB/N>
// and kappa_T = N Var(V/N) / (t <V/N>) exactly.
//
// Pass range: chi^2 = sum_i (m_i - exact)^2 / e_i^2 over the k = 10 seeds has 10 degrees of
// freedom when the errors are right; the test accepts it between its 0.1 % and 99.9 %
// quantiles, [1.48, 29.59] (stats::calibrate_errors, tail 1e-3). Errors too small by a factor
// 1.5 would put the expected chi^2 at 22.5, by 2 at 40. The volume move is slow on purpose
// (tau_int of v_iso about 10 measurements): errors that ignore the correlation give chi^2 near
// 190 there, and the test checks that they fail.
//
// Planted transient: the same chain started at v_iso = 1.9 v0, 31 standard deviations above
// the equilibrium (<v_iso> = 1.213 v0, sd 0.022 v0), with no thermalisation: the detected
// equilibration start must be > 0 and cover the relaxation, and the equilibrated <V/N> and
// <N_HB/N> must agree with the exact values (|z| < 4).
//
// Chains run on TestSpace, every backend of the build (see test_cvf_laws.cpp). About 5 s in
// Release on one core.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/cvf/exact.hpp"
#include "portamc/cvf/exact_volume.hpp"
#include "portamc/cvf/run_output.hpp"
#include "portamc/cvf/simulation.hpp"
#include "portamc/error_calibration.hpp"
#include "portamc/series_analysis.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;
namespace stats = portamc::stats;

namespace {

constexpr int kL = 4;
constexpr std::int64_t kMolecules = kL * kL * kL;

// J = 2, J_sigma = 0, v_HB = 0.6 (Table I otherwise) at t = 1, p = 1: J_eff = 1.4, deep in the
// liquid (the gas threshold 2 v0 lies e^-60 below the peak of the v_iso law).
cvf::ModelParameters model() {
  cvf::ModelParameters m;
  m.J_sigma = 0;
  return m;
}
constexpr cvf::ReducedStatePoint kPoint{1.0, 1.0};

// The state point in K and MPa that reduces to kPoint, as the app's records hold it.
cvf::StatePoint laboratory(const cvf::ModelParameters& m, const cvf::ReducedStatePoint& r) {
  const double epsilon_j_per_mol = m.epsilon_kj_per_mol * 1e3;
  return {r.t * epsilon_j_per_mol / cvf::gas_constant,
          r.p * epsilon_j_per_mol / cvf::molar_v0_cm3(m)};
}

struct Exact {
  double hydrogen_bonds, v_iso, volume, compressibility;
};

Exact exact_values(const cvf::ModelParameters& m) {
  const double p =
      cvf::exact::independent_bond_probability(cvf::effective_coupling(m, kPoint) / kPoint.t);
  const auto law = cvf::exact::volume_law(m, kPoint, kMolecules);
  EXPECT_EQ(law.gas_probability, 0.0);
  const double n = static_cast<double>(kMolecules);
  Exact e;
  e.hydrogen_bonds = 2 * p;
  e.v_iso = law.mean;
  e.volume = law.mean + m.v_hb * e.hydrogen_bonds;
  const double var_volume = law.variance + m.v_hb * m.v_hb * 2 * p * (1 - p) / n;
  e.compressibility = n * var_volume / (kPoint.t * e.volume);
  return e;
}

cvf::RunParameters run_parameters(const cvf::ModelParameters& m, std::uint64_t seed,
                                  long long thermalisation, long long measurements) {
  cvf::RunParameters p;
  p.L = kL;
  p.model = m;
  p.temperatures = {laboratory(m, kPoint).temperature_kelvin};
  p.pressures = {laboratory(m, kPoint).pressure_megapascal};
  p.seed = seed;
  p.volume_step = 0.02;  // acceptance about 0.8, tau_int(v_iso) about 10 steps
  p.thermalisation = thermalisation;
  p.measurements = measurements;
  p.autocorrelation_lags = 50;
  p.validate();
  return p;
}

// The app's schedule (Run::advance and Run::measure) on TestSpace: one MC step (volume move,
// eta update, Metropolis sweep) between measurements.
cvf::PointRecord run_chain(const cvf::RunParameters& p, double initial_v_iso) {
  cvf::SimulationSettings settings;
  settings.L = p.L;
  settings.seed = p.seed;
  settings.initial_v_iso = initial_v_iso;
  settings.volume.delta = p.resolved_volume_step();
  cvf::Simulation<TestSpace> sim(TestSpace(), p.model, p.point(0), settings);
  cvf::PointRecord r;
  r.point = p.point(0);
  for (long long s = 0; s < p.thermalisation; ++s) sim.step();
  const double n = static_cast<double>(p.molecules());
  for (long long k = 0; k < p.measurements; ++k) {
    if (k > 0) sim.step();
    const cvf::Measurement m = sim.measure();
    r.step.push_back(static_cast<std::int64_t>(m.step));
    r.hydrogen_bonds.push_back(static_cast<double>(m.n_hb) / n);
    r.cooperative.push_back(static_cast<double>(m.n_sigma) / n);
    r.v_iso.push_back(m.v_iso);
    r.volume.push_back(m.volume);
    r.enthalpy.push_back(m.enthalpy);
    r.order.push_back(m.order_parameter);
  }
  r.steps = static_cast<std::uint64_t>(p.thermalisation + p.measurements - 1);
  r.volume_proposals = static_cast<std::uint64_t>(sim.volume_attempts());
  r.volume_accepted = static_cast<std::uint64_t>(sim.volume_acceptances());
  return r;
}

}  // namespace

TEST(CvfErrorCalibration, ScatterOverSeedsMatchesErrors) {
  const cvf::ModelParameters m = model();
  const Exact exact = exact_values(m);
  std::vector<double> hb, hb_error, volume, volume_error, v_iso, v_iso_error, kappa, kappa_error;
  std::vector<double> naive_v_iso_error;  // sd / sqrt(used): correlations ignored
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const cvf::RunParameters p = run_parameters(m, seed, 200, 12000);
    const cvf::PointRecord r = run_chain(p, exact.v_iso);
    const cvf::PointAnalysis a = cvf::analyse(p, {r}).front();
    // Enough effective samples everywhere: the errors are the service's own, not flagged.
    EXPECT_TRUE(cvf::analysis_warnings(a).empty())
        << "seed " << seed << ": " << cvf::analysis_warnings(a).front();
    const double acceptance = a.volume_acceptance;
    EXPECT_GT(acceptance, 0.2) << "seed " << seed;
    EXPECT_LT(acceptance, 0.95) << "seed " << seed;
    EXPECT_GT(a.v_iso.tau_int, 5.0) << "seed " << seed << ": the chain must be correlated";
    const std::vector<double> used(r.v_iso.begin() + a.equilibration.discarded, r.v_iso.end());
    double mean = 0, var = 0;
    for (double x : used) mean += x / used.size();
    for (double x : used) var += (x - mean) * (x - mean) / used.size();
    naive_v_iso_error.push_back(std::sqrt(var / used.size()));
    hb.push_back(a.hydrogen_bonds.value);
    hb_error.push_back(a.hydrogen_bonds.error);
    volume.push_back(a.response.volume.value);
    volume_error.push_back(a.response.volume.error);
    v_iso.push_back(a.v_iso.value);
    v_iso_error.push_back(a.v_iso.error);
    kappa.push_back(a.response.compressibility.value);
    kappa_error.push_back(a.response.compressibility.error);
  }
  const auto c_hb = stats::calibrate_errors(hb, hb_error, exact.hydrogen_bonds);
  const auto c_volume = stats::calibrate_errors(volume, volume_error, exact.volume);
  const auto c_v_iso = stats::calibrate_errors(v_iso, v_iso_error, exact.v_iso);
  const auto c_kappa = stats::calibrate_errors(kappa, kappa_error, exact.compressibility);
  for (const auto* c : {&c_hb, &c_volume, &c_v_iso, &c_kappa}) {
    EXPECT_EQ(c->dof, 10);
    EXPECT_NEAR(c->low, 1.479, 1e-3);
    EXPECT_NEAR(c->high, 29.588, 1e-3);
  }
  EXPECT_TRUE(c_hb.pass) << "N_HB/N: " << c_hb.summary;
  EXPECT_TRUE(c_volume.pass) << "V/N: " << c_volume.summary;
  EXPECT_TRUE(c_v_iso.pass) << "v_iso: " << c_v_iso.summary;
  EXPECT_TRUE(c_kappa.pass) << "kappa_T: " << c_kappa.summary;
  // The check has teeth: errors that ignore the autocorrelation of v_iso fail it.
  const auto naive = stats::calibrate_errors(v_iso, naive_v_iso_error, exact.v_iso);
  EXPECT_FALSE(naive.pass) << "naive v_iso errors: " << naive.summary;
  EXPECT_GT(naive.chi_square, naive.high);
}

TEST(CvfErrorCalibration, PlantedTransientIsDiscarded) {
  const cvf::ModelParameters m = model();
  const Exact exact = exact_values(m);
  const auto law = cvf::exact::volume_law(m, kPoint, kMolecules);
  const double sd = std::sqrt(law.variance);
  // No thermalisation: the first measurement is the planted start, 40 sd above the mean.
  const cvf::RunParameters p = run_parameters(m, 77, 0, 12000);
  const cvf::PointRecord r = run_chain(p, 1.9);
  ASSERT_GT(r.v_iso.front(), law.mean + 30 * sd);
  // The end of the relaxation: the first measurement within 4 sd of the equilibrium mean.
  std::size_t relaxed = 0;
  while (relaxed < r.v_iso.size() && r.v_iso[relaxed] > law.mean + 4 * sd) ++relaxed;
  ASSERT_GT(relaxed, 10u);
  ASSERT_LT(relaxed, 2000u);

  const cvf::PointAnalysis a = cvf::analyse(p, {r}).front();
  EXPECT_GT(a.equilibration.discarded, 0u);
  EXPECT_GE(a.equilibration.discarded, relaxed) << "the transient is not cut off completely";
  EXPECT_EQ(a.response.start, a.equilibration.discarded);
  EXPECT_EQ(a.response.used, r.volume.size() - a.equilibration.discarded);
  const double z = (a.response.volume.value - exact.volume) / a.response.volume.error;
  EXPECT_LT(std::abs(z), 4.0) << "<V/N> = " << a.response.volume.value << " +- "
                              << a.response.volume.error << ", exact " << exact.volume;
  const double z_hb = (a.hydrogen_bonds.value - exact.hydrogen_bonds) / a.hydrogen_bonds.error;
  EXPECT_LT(std::abs(z_hb), 4.0);
  // Kept in: the transient reads as slow correlation, which the cut removes.
  const auto whole = stats::analyse_series_from(r.volume, 0);
  EXPECT_GT(whole.tau.tau_int, 3 * a.response.volume.tau_int);
}

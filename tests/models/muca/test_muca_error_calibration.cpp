// Are muca's error bars honest? The same small run with 10 seeds: the scatter of U, C and
// ln g around their exact values must match the jackknife errors the runs report (chi^2 with
// 10 degrees of freedom inside its 0.1 % and 99.9 % quantiles, [1.48, 29.6]), for errors from
// walker groups and from bins of blocks; likewise the susceptibility and the Binder cumulant
// around exact enumeration. And the production's thermalisation must remove a
// planted transient: walkers put in the ground state after the weight iteration fail the
// stationarity checks without it and pass with it.
#include <gtest/gtest.h>

#include <cmath>

#include "portamc/error_calibration.hpp"
#include "portamc/muca/exact_order_parameter.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"
#include "portamc/muca/stationarity.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc;
using namespace portamc::muca;

Parameters small_run(std::uint64_t seed, int groups) {
  Parameters p;
  p.L = 4;
  p.walkers = 16;
  p.seed = seed;
  p.kl_threshold = 1e-3;
  p.max_iterations = 400;
  p.production_blocks = 20;
  p.production_updates_per_block = 4000;
  p.walker_groups = groups;
  return p;
}

// Both error methods: a jackknife over the 16 walkers (groups of one), and over bins of blocks.
class MucaErrorCalibration : public ::testing::TestWithParam<int> {};

TEST_P(MucaErrorCalibration, ScatterOverSeedsMatchesErrors) {
  const int groups = GetParam();
  constexpr double beta = 0.44;
  const int L = 4;
  const auto exact_dos = exact::log_dos_transfer_matrix(L);
  const auto exact_canonical = exact::ferdinand_fisher(L, beta);
  const int bin = 2;  // E = -2N + 8: rare at the flat histogram's low end
  std::vector<double> u, u_err, c, c_err, g, g_err, chi, chi_err, binder, binder_err;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Simulation<TestSpace> sim(TestSpace(), small_run(seed, groups));
    while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
    ASSERT_TRUE(sim.converged());
    while (!sim.production_done()) sim.production_block();
    const ProductionAnalysis a = analyse_production(sim, {beta});
    ASSERT_EQ(a.error_method, groups == 16 ? "walker_groups" : "time_bins");
    const auto& table = a.canonical;
    u.push_back(table.energy.value[0]);
    u_err.push_back(table.energy.error[0]);
    c.push_back(table.specific_heat.value[0]);
    c_err.push_back(table.specific_heat.error[0]);
    const auto& dos = a.dos;
    g.push_back(dos.log_g.value[bin]);
    g_err.push_back(dos.log_g.error[bin]);
    {
      ASSERT_TRUE(a.has_order_parameter) << a.order_parameter_reason;
      chi.push_back(a.order_parameter.susceptibility.value[0]);
      chi_err.push_back(a.order_parameter.susceptibility.error[0]);
      binder.push_back(a.order_parameter.binder.value[0]);
      binder_err.push_back(a.order_parameter.binder.error[0]);
    }
  }
  const auto cu = stats::calibrate_errors(u, u_err, exact_canonical.energy_per_spin);
  const auto cc = stats::calibrate_errors(c, c_err, exact_canonical.specific_heat_per_spin);
  const auto cg = stats::calibrate_errors(g, g_err, exact_dos[bin]);
  EXPECT_TRUE(cu.pass) << "U/N: " << cu.summary;
  EXPECT_TRUE(cc.pass) << "C/N: " << cc.summary;
  EXPECT_TRUE(cg.pass) << "ln g: " << cg.summary;
  {
    const Hamiltonian h = make_hamiltonian(HamiltonianKind::ising, 2, L);
    const auto exact_m =
        exact::order_parameter_averages(h, exact::order_parameter_levels(h), beta, 0);
    const auto cchi = stats::calibrate_errors(chi, chi_err, exact_m.susceptibility);
    const auto cb = stats::calibrate_errors(binder, binder_err, exact_m.binder);
    EXPECT_TRUE(cchi.pass) << "susceptibility: " << cchi.summary;
    EXPECT_TRUE(cb.pass) << "Binder: " << cb.summary;
    RecordProperty("susceptibility", cchi.summary);
    RecordProperty("binder", cb.summary);
    // Power: errors 5 times too small or too large must fail.
    for (const double factor : {0.2, 5.0}) {
      std::vector<double> scaled = chi_err;
      for (double& e : scaled) e *= factor;
      EXPECT_FALSE(stats::calibrate_errors(chi, scaled, exact_m.susceptibility).pass) << factor;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ErrorMethods, MucaErrorCalibration, ::testing::Values(16, 1));

// Converged weights, then every walker moved to the ground state (all spins equal, bin 0).
Simulation<TestSpace> with_walkers_in_ground_state(const Parameters& p) {
  Simulation<TestSpace> sim(TestSpace(), p);
  while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
  Checkpoint state = sim.checkpoint();
  std::fill(state.model.spins.begin(), state.model.spins.end(), 0u);
  std::fill(state.model.bins.begin(), state.model.bins.end(), 0);
  sim.restore(state);
  return sim;
}

TEST(MucaPlantedTransient, ThermalisationRemovesIt) {
  // Blocks of 2000 attempts per walker, short against a walker's relaxation (about
  // N^2.25 = 11585 attempts at L = 8), so the first block shows where the walkers stand.
  Parameters p;
  p.L = 8;
  p.walkers = 256;
  p.seed = 17;
  p.kl_threshold = 1e-3;
  p.max_iterations = 400;
  p.production_blocks = 30;
  p.production_updates_per_block = 2000;
  const auto ground_window_share = [](const Simulation<TestSpace>& sim) {
    std::vector<double> share;
    for (const auto& w :
         window_occupations(sim.model().energy_bins(), sim.driver().block_histograms))
      share.push_back(w.front());
    return share;
  };

  // Reference: the walkers as the weight iteration left them, thermalised.
  Simulation<TestSpace> normal(TestSpace(), p);
  while (!normal.converged() && !normal.iterations_exhausted()) normal.iterate();
  ASSERT_TRUE(normal.converged());
  while (!normal.production_done()) normal.production_block();
  const auto reference = ground_window_share(normal);
  // Blocks of 2000 attempts are correlated (walkers keep their energies for ~6 blocks), but the
  // run is stationary: the check by walker groups (64 groups of 4) passes.
  const auto normal_check = analyse_production(normal, {0.4}).stationarity;
  EXPECT_TRUE(normal_check.passed) << "max |z| " << normal_check.max_abs_z;
  double mean = 0, var = 0;
  for (double s : reference) mean += s / reference.size();
  for (double s : reference) var += (s - mean) * (s - mean) / (reference.size() - 1);
  const double spread = std::sqrt(var);

  p.production_therm_prefactor = 0;
  Simulation<TestSpace> cold = with_walkers_in_ground_state(p);
  while (!cold.production_done()) cold.production_block();
  EXPECT_EQ(cold.driver().production_therm, 0u);
  EXPECT_GT(ground_window_share(cold).front(), mean + 10 * spread)
      << "without thermalisation the planted walkers dominate the first block";
  const auto transient =
      production_stationarity(cold.model().energy_bins(), cold.driver().block_histograms);
  EXPECT_FALSE(transient.passed) << "max |z| " << transient.max_abs_z;
  EXPECT_LT(transient.z.front(), 0) << "the ground-state window must empty over the run";
  const auto by_group = analyse_production(cold, {0.4}).stationarity;
  EXPECT_FALSE(by_group.passed) << "max |z| " << by_group.max_abs_z;
  EXPECT_LT(by_group.z.front(), 0);

  p.production_therm_prefactor = 1;
  Simulation<TestSpace> warm = with_walkers_in_ground_state(p);
  while (!warm.production_done()) warm.production_block();
  EXPECT_EQ(warm.driver().production_therm, 11585u);  // round(64^2.25)
  EXPECT_LT(std::abs(ground_window_share(warm).front() - mean), 5 * spread)
      << "after N^2.25 attempts per walker the first block looks like equilibrium";
  const auto relaxed = analyse_production(warm, {0.4}).stationarity;
  EXPECT_TRUE(relaxed.passed) << "max |z| " << relaxed.max_abs_z;
}

}  // namespace

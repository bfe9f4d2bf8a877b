// Physics validation of complete runs (weight iteration + production): ln g(E) against
// the exact density of states and reweighted U, C against Ferdinand–Fisher, with
// tolerances from the run's own jackknife errors.
#include <gtest/gtest.h>

#include <cmath>

#include "portamc/muca/analysis.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "portamc/muca/simulation.hpp"
#include "portamc/muca/stationarity.hpp"

namespace {

using namespace portamc::muca;

struct Deviation {
  double chi2_per_dof, max_abs_z;
  int n;
};

// z = (estimate - exact) / error over entries with finite values and error > 0.
Deviation compare(const std::vector<double>& est, const std::vector<double>& err,
                  const std::vector<double>& exact) {
  Deviation d{0, 0, 0};
  for (std::size_t i = 0; i < est.size(); ++i) {
    if (!std::isfinite(exact[i]) || !std::isfinite(est[i]) || !(err[i] > 0)) continue;
    const double z = (est[i] - exact[i]) / err[i];
    d.chi2_per_dof += z * z;
    d.max_abs_z = std::max(d.max_abs_z, std::fabs(z));
    ++d.n;
  }
  d.chi2_per_dof /= std::max(d.n, 1);
  return d;
}

void validate(int L, long long walkers, std::uint64_t updates_per_block) {
  Parameters p;
  p.L = L;
  p.walkers = walkers;
  p.seed = 4242;
  p.kl_threshold = 1e-3;  // weights need only be good enough for sampling; production is exact
  p.max_iterations = 400;
  p.production_blocks = 50;
  p.production_updates_per_block = updates_per_block;
  Simulation sim(p);
  while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
  ASSERT_TRUE(sim.converged());
  while (!sim.production_done()) sim.production_block();
  const auto& lnw = sim.model().log_weights();
  const auto& single_blocks = sim.driver().block_histograms;
  const auto blocks = bin_blocks(sim.model().energy_bins(), lnw, single_blocks).bins;

  const auto dos = estimate_log_dos(sim.model().energy_bins(), lnw, blocks);
  const auto exact_dos = exact::log_dos_transfer_matrix(L);
  for (std::size_t k = 0; k < exact_dos.size(); ++k)
    EXPECT_EQ(std::isfinite(dos.log_g.value[k]), std::isfinite(exact_dos[k])) << "bin " << k;
  const auto d = compare(dos.log_g.value, dos.log_g.error, exact_dos);
  EXPECT_EQ(d.n, L * L - 1);
  // Jackknife errors of 50 blocks: chi2/dof near 1; 2.0 and |z| < 4.5 keep a fixed seed
  // safely inside while catching any systematic bias of order the error.
  EXPECT_LT(d.chi2_per_dof, 2.0) << "ln g(E), L = " << L;
  EXPECT_LT(d.max_abs_z, 4.5) << "ln g(E), L = " << L;

  const auto betas = linear_grid(0.2, 0.8, 13);
  const auto table = reweight(L, lnw, blocks, betas);
  std::vector<double> u, c;
  for (double beta : betas) {
    const auto e = exact::ferdinand_fisher(L, beta);
    u.push_back(e.energy_per_spin);
    c.push_back(e.specific_heat_per_spin);
  }
  const auto du = compare(table.energy.value, table.energy.error, u);
  const auto dc = compare(table.specific_heat.value, table.specific_heat.error, c);
  EXPECT_EQ(du.n, 13);
  EXPECT_LT(du.max_abs_z, 4.5) << "U(beta), L = " << L;
  EXPECT_LT(dc.max_abs_z, 4.5) << "C(beta), L = " << L;

  // Production starts in equilibrium, checked: the first and last thirds of the blocks agree,
  // and consecutive blocks are independent, as the jackknife assumes (tau_int of the
  // pseudovalues near 1/2; its estimate from 50 blocks scatters by about 0.15).
  const auto stationarity = production_stationarity(sim.model().energy_bins(), single_blocks);
  EXPECT_TRUE(stationarity.passed) << "L = " << L << ", max |z| " << stationarity.max_abs_z;
  for (std::size_t i = 0; i < betas.size(); ++i) {
    EXPECT_LT(table.energy.tau_int[i], 1.2) << "beta " << betas[i];
    EXPECT_NEAR(table.energy.n_eff[i], blocks.size() / (2 * table.energy.tau_int[i]), 1e-9);
  }
}

TEST(MucaPhysics, DensityOfStatesAndThermodynamicsL4) {
  validate(4, 16, 4000);
}
TEST(MucaPhysics, DensityOfStatesAndThermodynamicsL8) {
  validate(8, 16, 40000);
}

}  // namespace

// Are the error bars of a Blume-Capel run's scan over the crystal field honest? The model at
// T = 0.5 (beta = 2), first-order near D = 2, on the 4 x 4 torus, whose ln Z_beta(n) is known
// exactly (all 3^16 configurations). Over 10 seeds the scatter of the density of non-zero
// spins, its susceptibility and F/N at three D, and of D_eq, the density jump and the
// interface tension of the double peak of P_D(n), around their exact finite-lattice values,
// must match the jackknife errors over 16 walker groups. Those errors are estimates with about
// 15 degrees of freedom, so chi^2 / 10 follows roughly F(10, 15) (stats::calibrate_errors with
// error_dof). Errors 5 times too small or too large must fail. About 7 s on one core.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "first_order_calibration.hpp"
#include "portamc/error_calibration.hpp"
#include "portamc/muca/crystal_field.hpp"
#include "portamc/muca/exact_levels.hpp"
#include "portamc/muca/first_order.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc;
using namespace portamc::muca;

struct Series {
  std::string name;
  double exact = 0;
  std::vector<double> value, error;
};

TEST(MucaBlumeCapelCalibration, ScatterOverSeedsMatchesErrors) {
  const double beta = 2.0;
  const Hamiltonian h = make_hamiltonian(HamiltonianKind::blume_capel, 2, 4, 2, beta);
  const std::vector<double> exact =
      exact::log_partition_by_field(exact::levels_by_enumeration(h), beta);
  // D_eq is searched over the scan's range, [1.9, 2.1].
  const std::vector<double> fields = {1.90, 1.97, 2.00, 2.03, 2.10};
  const std::vector<std::size_t> checked = {1, 2, 3};
  std::vector<Series> series;
  for (const std::size_t i : checked) {
    const CrystalFieldPoint p = crystal_field_point(exact, h.sites(), beta, fields[i]);
    const std::string at = " at D = " + std::to_string(fields[i]);
    series.push_back({"density" + at, p.density, {}, {}});
    series.push_back({"density susceptibility" + at, p.density_susceptibility, {}, {}});
    series.push_back({"free energy" + at, p.free_energy, {}, {}});
  }
  std::vector<double> n(exact.size());
  for (std::size_t k = 0; k < n.size(); ++k) n[k] = static_cast<double>(k);
  const DoublePeak peak =
      double_peak(n, exact, h.L, h.dimension, beta * fields.front(), beta * fields.back());
  series.push_back({"D_eq", peak.beta_eq / beta, {}, {}});
  series.push_back({"density jump", peak.latent_heat_per_site, {}, {}});
  series.push_back({"interface tension", peak.interface_tension, {}, {}});
  const int first_order_values[] = {0, 3, 5};  // in double_peak_values' order

  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    ProductionAnalysis a;
    ASSERT_NO_FATAL_FAILURE(
        muca_test::first_order_calibration_run<TestSpace>(h, seed, 1e-3, fields, a));
    ASSERT_TRUE(a.has_crystal_field);
    std::size_t s = 0;
    const auto& t = a.crystal_field;
    for (const std::size_t i : checked)
      for (const EstimateTable* table : {&t.density, &t.density_susceptibility, &t.free_energy}) {
        series[s].value.push_back(table->value[i]);
        series[s++].error.push_back(table->error[i]);
      }
    for (const int k : first_order_values) {
      series[s].value.push_back(a.double_peak.values[k].value);
      series[s++].error.push_back(a.double_peak.values[k].error);
    }
  }
  constexpr double error_dof = 16 - 1;  // jackknife over 16 walker groups
  for (const Series& x : series) {
    SCOPED_TRACE(x.name);
    const auto c = stats::calibrate_errors(x.value, x.error, x.exact, 1e-3, error_dof);
    EXPECT_TRUE(c.pass) << c.summary;
    RecordProperty(x.name, c.summary);
    for (const double factor : {0.2, 5.0}) {
      std::vector<double> scaled = x.error;
      for (double& e : scaled) e *= factor;
      EXPECT_FALSE(stats::calibrate_errors(x.value, scaled, x.exact, 1e-3, error_dof).pass)
          << "errors x " << factor;
    }
  }
}

}  // namespace

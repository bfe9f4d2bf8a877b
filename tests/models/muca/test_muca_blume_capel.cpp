// The Blume-Capel model on the generic engine (issue #26): a run at fixed beta flattens the
// number n of non-zero spins, and its ln Z_beta(n) must match exact enumeration (3 x 3, 4 x 4
// and 2 x 2 x 2) within its errors, as must the scan over the crystal field D (density of non-zero
// spins, magnetisation, Binder cumulant). Its last bin, every spin +-1, is the Ising model:
// ln Z_beta(N) - ln Z_beta(0) is the exact Ising ln Z of the torus (Ferdinand-Fisher) at any L.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hamiltonian_cases.hpp"
#include "portamc/muca/exact_order_parameter.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"
#include "production_run.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::muca;
using Space = TestSpace;
using muca_test::model;
using muca_test::production_run;
using BlumeCapelRun = Simulation<Space, SpinMuca<Space>>;

void complete(BlumeCapelRun& sim) {
  while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
  ASSERT_TRUE(sim.converged()) << sim.driver().iteration << " iterations";
  while (!sim.production_done()) sim.production_block();
}

// |value - exact| within 4.5 errors (about 1 in 10^5 per comparison for Gaussian estimates).
void expect_within_errors(const char* what, double value, double error, double exact) {
  SCOPED_TRACE(what);
  ASSERT_TRUE(std::isfinite(error));
  EXPECT_GT(error, 0);
  EXPECT_LT(std::fabs(value - exact), 4.5 * error)
      << value << " +- " << error << " vs exact " << exact;
}

TEST(MucaBlumeCapel, MatchesExactEnumeration) {
  // 4 x 4 (3^16 configurations) checks ln Z and the scan over D; counting its order parameter
  // configuration by configuration would take a minute, so that part runs on the two smaller.
  for (const Hamiltonian& h : {model(HamiltonianKind::blume_capel, 2, 3, 2, 0.7),
                               model(HamiltonianKind::blume_capel, 3, 2, 2, 1.3),
                               model(HamiltonianKind::blume_capel, 2, 4, 2, 0.6)}) {
    SCOPED_TRACE(h.describe());
    const bool small = h.sites() <= 9;
    BlumeCapelRun sim(Space(), production_run(21), portamc::parallel::Communicator(), &h);
    EXPECT_EQ(sim.bins().count(), h.sites() + 1);
    EXPECT_EQ(sim.bins().accessible_count(), h.sites() + 1) << "every n is reachable";
    complete(sim);
    const std::vector<double> fields = {-1.0, 0.5, 1.5, 2.5};
    const ProductionAnalysis a = analyse_production(sim, fields);
    ASSERT_EQ(a.error_method, "walker_groups");
    // ln Z_beta(n), anchored at n = 0.
    const std::vector<double> exact =
        exact::log_partition_by_field(exact::levels_by_enumeration(h), h.beta);
    ASSERT_EQ(exact.size(), static_cast<std::size_t>(h.sites() + 1));
    EXPECT_EQ(a.dos.log_g.value[0], 0.0);
    for (std::size_t n = 1; n < exact.size(); ++n)
      expect_within_errors(("ln Z(n = " + std::to_string(n) + ")").c_str(), a.dos.log_g.value[n],
                           a.dos.log_g.error[n], exact[n]);
    // The scan over D, and the order parameter, against enumeration at (beta, D).
    ASSERT_TRUE(a.has_crystal_field);
    ASSERT_TRUE(a.has_order_parameter) << a.order_parameter_reason;
    const auto levels =
        small ? exact::order_parameter_levels(h) : std::vector<exact::OrderParameterLevel>{};
    for (std::size_t i = 0; i < fields.size(); ++i) {
      SCOPED_TRACE("D = " + std::to_string(fields[i]));
      const CrystalFieldPoint p = crystal_field_point(exact, h.sites(), h.beta, fields[i]);
      const auto& t = a.crystal_field;
      expect_within_errors("density", t.density.value[i], t.density.error[i], p.density);
      expect_within_errors("free energy", t.free_energy.value[i], t.free_energy.error[i],
                           p.free_energy);
      if (!small) continue;
      const auto m = exact::order_parameter_averages(h, levels, h.beta, fields[i]);
      const auto& o = a.order_parameter;
      expect_within_errors("|m|", o.magnetisation.value[i], o.magnetisation.error[i],
                           m.magnetisation);
      expect_within_errors("susceptibility", o.susceptibility.value[i], o.susceptibility.error[i],
                           m.susceptibility);
      expect_within_errors("binder", o.binder.value[i], o.binder.error[i], m.binder);
    }
  }
}

TEST(MucaBlumeCapel, TheLastBinIsTheIsingModel) {
  const double beta = 0.44;
  const Hamiltonian h = model(HamiltonianKind::blume_capel, 2, 6, 2, beta);
  BlumeCapelRun sim(Space(), production_run(22), portamc::parallel::Communicator(), &h);
  complete(sim);
  const ProductionAnalysis a = analyse_production(sim, {1.0});
  const int last = static_cast<int>(h.sites());
  expect_within_errors("ln Z(N) - ln Z(0)", a.dos.log_g.value[last], a.dos.log_g.error[last],
                       exact::ferdinand_fisher_log_z(6, beta));
  // And the errors mean something: a 1 % error of ln Z_Ising would be outside them.
  EXPECT_LT(a.dos.log_g.error[last], 0.002 * exact::ferdinand_fisher_log_z(6, beta));
}

TEST(MucaBlumeCapel, TrackedBinsEqualTheCountsOfNonZeroSpins) {
  // Weights favouring few non-zero spins against bonds that favour many: both kinds of move
  // (dn = 0, +-1) are taken, and the tracked n must stay the one counted from the states.
  const Hamiltonian h = model(HamiltonianKind::blume_capel, 2, 5, 2, 0.5);
  Parameters p;
  p.walkers = 33;
  SpinMuca<Space> engine(Space(), p, h);
  EXPECT_EQ(threshold_columns(h), 3 * 17);
  std::vector<double> lnw(static_cast<std::size_t>(h.sites() + 1));
  for (std::size_t n = 0; n < lnw.size(); ++n) lnw[n] = -0.3 * static_cast<double>(n);
  engine.set_log_weights(lnw);
  const auto before = engine.walker_bins();
  engine.thermalise(5000);
  EXPECT_NE(engine.walker_bins(), before);
  EXPECT_EQ(engine.walker_bins(), engine.recomputed_bins());
  for (int w = 0; w < 33; ++w) {
    int nonzero = 0;
    for (int a : engine.site_states(w)) nonzero += a != 1;
    EXPECT_EQ(engine.walker_bins()[w], nonzero);
  }
}

TEST(MucaBlumeCapel, RefusesANonPositiveBetaNamingTheKey) {
  for (const double beta : {0.0, -1.0, 200.0}) {
    Hamiltonian h = model(HamiltonianKind::blume_capel, 2, 4, 2, beta);
    try {
      SpinMuca<Space> m(Space(), production_run(1), h);
      FAIL() << "beta " << beta << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("model.beta"), std::string::npos) << e.what();
    }
  }
}

}  // namespace

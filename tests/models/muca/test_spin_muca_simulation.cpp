// The multicanonical protocol (Simulation) on the generic engine (SpinMuca, issue #26): the
// weight iteration converges to weights 1/g(E) of the exact density of states (exact
// enumeration) for Potts lattices in 2D and 3D (q = 2, 3, 4), and the production with them
// visits every accessible bin and no other. The accessible bins come from the enumeration, or
// the run finds them (SpinMuca::discover_accessible) and must find exactly those.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hamiltonian_cases.hpp"
#include "portamc/muca/exact_levels.hpp"
#include "portamc/muca/simulation.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::muca;
using Space = TestSpace;

using muca_test::model;

TEST(SpinMucaSimulation, WeightIterationConvergesToTheExactDensityOfStates) {
  for (const Hamiltonian& h :
       {model(HamiltonianKind::potts, 2, 3, 3), model(HamiltonianKind::potts, 2, 3, 4),
        model(HamiltonianKind::potts, 3, 2, 3), model(HamiltonianKind::potts, 2, 4, 2)}) {
    SCOPED_TRACE(h.describe());
    const SpinBins bins(h);
    const exact::Levels levels = exact::levels_by_enumeration(h);
    std::vector<double> log_g(static_cast<std::size_t>(bins.count), 0.0);
    std::vector<unsigned char> accessible(static_cast<std::size_t>(bins.count), 0);
    for (int k = 0; k < bins.count; ++k) {
      const double count = static_cast<double>(levels.at(bins.energy(k)));
      if (count > 0) {
        log_g[k] = std::log(count);
        accessible[k] = 1;
      }
    }
    for (const bool given : {true, false}) {
      SCOPED_TRACE(given ? "accessible bins given" : "accessible bins found by the run");
      Parameters p;
      p.walkers = 64;
      p.seed = 11;
      p.max_iterations = 150;
      Simulation<Space, SpinMuca<Space>> sim(Space(), p, portamc::parallel::Communicator(), &h,
                                             given ? accessible : std::vector<unsigned char>{});
      while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
      ASSERT_TRUE(sim.converged()) << sim.driver().iteration << " iterations";
      EXPECT_EQ(sim.bins().reachable, accessible);
      // ln W + ln g is constant over the accessible bins, to the noise of the last histogram:
      // d_KL < 1e-4 bounds its rms relative deviation from flat by sqrt(2e-4) = 0.014, and the
      // worst of 10-20 bins stays within 0.1 (seen: 0.022-0.032).
      const std::vector<double>& lnw = sim.model().log_weights();
      double mean = 0;
      int n = 0;
      for (int k = 0; k < bins.count; ++k)
        if (accessible[k]) mean += lnw[k] + log_g[k], ++n;
      mean /= n;
      double worst = 0;
      for (int k = 0; k < bins.count; ++k)
        if (accessible[k]) worst = std::max(worst, std::fabs(lnw[k] + log_g[k] - mean));
      RecordProperty("worst_" + std::to_string(h.q) + "_" + std::to_string(h.dimension),
                     std::to_string(worst));
      EXPECT_LT(worst, 0.1) << "after " << sim.driver().iteration << " iterations";
      // Production: every accessible bin visited, none of the others.
      const auto& block = sim.production_block();
      for (int k = 0; k < bins.count; ++k) {
        if (accessible[k])
          EXPECT_GT(block[k], 0u) << "bin " << k;
        else
          EXPECT_EQ(block[k], 0u) << "bin " << k;
      }
    }
  }
}

TEST(SpinMucaSimulation, RunsThatFindTheirBinsNeedAKnownHighestEnergy) {
  Parameters p;
  p.walkers = 4;
  // A frustrated two-state lattice: its highest reachable energy is not known.
  for (const Hamiltonian& h :
       {model(HamiltonianKind::ising, 2, 5), model(HamiltonianKind::potts, 3, 3, 2)}) {
    EXPECT_THROW((Simulation<Space, SpinMuca<Space>>(Space(), p, {}, &h)), std::invalid_argument)
        << h.describe();
  }
  // Potts with q >= 3 colours every periodic lattice: odd L is fine.
  const Hamiltonian three = model(HamiltonianKind::potts, 2, 5, 3);
  const Simulation<Space, SpinMuca<Space>> sim(Space(), p, {}, &three);
  EXPECT_EQ(sim.bins().accessible_count(), 2);
  EXPECT_TRUE(sim.bins().accessible(0));
  EXPECT_TRUE(sim.bins().accessible(50));
}

}  // namespace

// Multicanonical 2D Ising model, L = 8: iterate the weights, run the production, reweight to
// beta = 0.44 and compare U/N with the exact finite-lattice value (Ferdinand-Fisher).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>

#include "portamc/muca.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  namespace muca = portamc::muca;
  muca::Parameters p;
  p.L = 8;
  p.walkers = 64;
  p.seed = 11;
  p.kl_threshold = 1e-3;
  p.production_blocks = 20;
  // On Kokkos' default execution space; any backend of the build will do.
  muca::Simulation simulation(Kokkos::DefaultExecutionSpace(), p);
  while (!simulation.converged() && !simulation.iterations_exhausted()) simulation.iterate();
  while (!simulation.production_done()) simulation.production_block();

  const double beta = 0.44;
  const muca::ProductionAnalysis analysis = muca::analyse_production(simulation, {beta});
  const double u = analysis.canonical.energy.value[0], error = analysis.canonical.energy.error[0];
  const double exact = muca::exact::ferdinand_fisher(p.L, beta).energy_per_spin;
  std::printf("L = %d, beta = %.2f: U/N = %.5f +- %.5f, exact %.5f (%+.1f errors)\n", p.L, beta, u,
              error, exact, (u - exact) / error);
  return std::abs(u - exact) < 5 * error ? 0 : 1;
}

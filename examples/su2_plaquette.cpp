// SU(2) lattice gauge theory on 8^4 at beta = 2.3: heatbath and overrelaxation updates, the
// plaquette with its error, tau_int and N_eff from the statistics service.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>

#include "portamc/su2.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  namespace su2 = portamc::su2;
  su2::RunParameters p;
  p.extents = {8, 8, 8, 8};
  p.betas = {2.3};
  p.start = su2::StartKind::hot;
  p.seed = 5;
  p.overrelaxation_sweeps = 1;
  p.thermalisation = 50;
  p.measurements = 200;
  p.potential = false;
  su2::Simulation simulation(Kokkos::DefaultExecutionSpace(), p);
  simulation.start(nullptr);
  while (!simulation.done()) simulation.advance();

  const su2::PointAnalysis a = su2::analyse_point(simulation.points().front(), p);
  std::printf("8^4, beta = 2.3: <P> = %.5f +- %.5f (tau_int %.2f, N_eff %.0f)\n",
              a.plaquette.mean.value, a.plaquette.mean.error, a.plaquette.tau.tau_int,
              a.plaquette.effective_samples);
  // The weighted mean of 8 independent 8^4 runs at beta = 2.3 (docs/statistics.md, "Checking
  // error bars at your own size"): 0.60231 +- 0.00019.
  const double reference = 0.60231, reference_error = 0.00019;
  const double z = (a.plaquette.mean.value - reference) /
                   std::sqrt(a.plaquette.mean.error * a.plaquette.mean.error +
                             reference_error * reference_error);
  std::printf("against the 8-seed reference %.5f: %+.1f errors\n", reference, z);
  return std::abs(z) < 5 ? 0 : 1;
}

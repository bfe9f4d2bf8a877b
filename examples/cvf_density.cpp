// CVF water, 4096 molecules at 400 K and 0.1 MPa in the NPT ensemble: density and hydrogen
// bonds per molecule with their errors. No exact value exists at this state point: the check
// is a sanity check (a positive density with an error below 10 %, 0 <= N_HB/N <= 2, since
// each molecule has four arms and a bond joins two).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>

#include "portamc/cvf.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  namespace cvf = portamc::cvf;
  cvf::RunParameters p;
  p.L = 16;
  p.temperatures = {400.0};
  p.pressures = {0.1};
  p.seed = 9;
  p.thermalisation = 200;
  p.measurements = 400;
  p.autocorrelation_lags = 20;
  cvf::Run run(p);
  while (!run.done()) run.advance();

  const auto analyses = cvf::analyse(p, run.points());
  const cvf::PointAnalysis& a = analyses.front();
  const auto& rho = a.response.density_g_per_cm3;
  std::printf("T = 400 K, P = 0.1 MPa: rho = %.5f +- %.5f g/cm^3, N_HB/N = %.4f +- %.4f\n",
              rho.value, rho.error, a.hydrogen_bonds.value, a.hydrogen_bonds.error);
  const bool sane = std::isfinite(rho.value) && rho.value > 0 && rho.error > 0 &&
                    rho.error < 0.1 * rho.value && a.hydrogen_bonds.value >= 0 &&
                    a.hydrogen_bonds.value <= 2;
  return sane ? 0 : 1;
}

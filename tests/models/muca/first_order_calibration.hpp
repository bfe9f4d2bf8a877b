#pragma once
// One run of a seed calibration of first-order values (the Potts and Blume-Capel calibration
// tests): 64 walkers in 16 groups, the production thermalised for 30 N^2.25 attempts as the
// input files do (walkers must cross between the phases), run to the end and analysed with
// the double peak. It must be usable: converged, stationary, errors over walker groups, and a
// double peak in every jackknife sample.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"

namespace muca_test {

/// Call as ASSERT_NO_FATAL_FAILURE(first_order_calibration_run<TestSpace>(...)). The caller
/// names the space so that tests/CMakeLists.txt, which looks for `TestSpace` in the test file
/// itself, compiles that file once per backend.
template <class Space>
void first_order_calibration_run(const portamc::muca::Hamiltonian& h, std::uint64_t seed,
                                 double kl_threshold, const std::vector<double>& points,
                                 portamc::muca::ProductionAnalysis& out) {
  using namespace portamc::muca;
  SCOPED_TRACE("seed " + std::to_string(seed));
  Parameters p;
  p.walkers = 64;
  p.walker_groups = 16;
  p.seed = seed;
  p.kl_threshold = kl_threshold;
  p.max_iterations = 2000;
  p.production_blocks = 20;
  p.production_updates_per_block = 20000;
  p.production_therm_prefactor = 30;
  Simulation<Space, SpinMuca<Space>> sim(Space(), p, portamc::parallel::Communicator(), &h);
  while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
  ASSERT_TRUE(sim.converged());
  while (!sim.production_done()) sim.production_block();
  out = analyse_production(sim, points, true);
  ASSERT_EQ(out.error_method, "walker_groups");
  ASSERT_TRUE(out.stationarity.passed) << "max |z| " << out.stationarity.max_abs_z;
  ASSERT_TRUE(out.double_peak.found) << out.double_peak.reason;
  ASSERT_EQ(out.double_peak.failed_samples, 0);
}

}  // namespace muca_test

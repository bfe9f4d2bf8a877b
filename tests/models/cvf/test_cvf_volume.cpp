// The volume move against the exact law of v_iso at J_sigma = 0 (exact_volume.hpp): <v_iso>
// and P(gas-like) from a chain of full MC steps, with and without the N ln(v'/v) Jacobian,
// across the gas threshold and deep in the liquid.
// Chains run on TestSpace, every backend of the build (see test_cvf_laws.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/cvf/exact_volume.hpp"
#include "portamc/cvf/simulation.hpp"
#include "portamc/statistics.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;

namespace {

struct Case {
  cvf::ModelParameters m;
  cvf::ReducedStatePoint point;
  double delta;
};

// Runs N = 64 molecules and compares <v_iso> and the gas fraction with the quadrature, within
// five binned standard errors.
void check_volume_law(const Case& c, std::uint64_t seed, int steps) {
  cvf::SimulationSettings settings;
  settings.L = 4;
  settings.seed = seed;
  settings.initial_v_iso = 1.2;
  settings.volume.delta = c.delta;
  cvf::Simulation<TestSpace> sim(TestSpace(), c.m, c.point, settings);
  for (int s = 0; s < 2000; ++s) sim.step();
  std::vector<double> v, gas;
  for (int s = 0; s < steps; ++s) {
    sim.step();
    v.push_back(sim.state().v_iso());
    gas.push_back(cvf::hydrogen_bonds_allowed(c.m, v.back()) ? 0.0 : 1.0);
  }
  const auto law = cvf::exact::volume_law(c.m, c.point, 64);
  const auto mean = portamc::stats::binned_mean(v, steps / 64);
  const auto gas_fraction = portamc::stats::binned_mean(gas, steps / 64);
  EXPECT_NEAR(mean.value, law.mean, 5 * mean.error + 1e-4)
      << "error " << mean.error << " sd " << std::sqrt(law.variance);
  EXPECT_NEAR(gas_fraction.value, law.gas_probability, 5 * gas_fraction.error + 1e-3)
      << "error " << gas_fraction.error;
  // The chain must actually explore: the measured spread is the exact one within 25%.
  double s2 = 0;
  for (double x : v) s2 += (x - mean.value) * (x - mean.value);
  EXPECT_NEAR(std::sqrt(s2 / v.size()), std::sqrt(law.variance), 0.25 * std::sqrt(law.variance));
  const double acceptance = double(sim.volume_acceptances()) / sim.volume_attempts();
  EXPECT_GT(acceptance, 0.2);
  EXPECT_LT(acceptance, 0.95);
}

// The threshold sits at the peak of the LJ well so that both sides carry weight at N = 64.
Case across_threshold(bool jacobian) {
  Case c;
  c.m.J = 0.1;
  c.m.J_sigma = 0;
  c.m.v_hb = 0;
  c.m.gas_threshold = 1.2;
  c.m.volume_jacobian = jacobian;
  c.point = jacobian ? cvf::ReducedStatePoint{1.0, 0.5} : cvf::ReducedStatePoint{1.0, 0.1};
  c.delta = 0.03;
  return c;
}

}  // namespace

TEST(CvfVolumeLaw, ExactLawVisitsBothSides) {
  for (bool jacobian : {false, true}) {
    const Case c = across_threshold(jacobian);
    const auto law = cvf::exact::volume_law(c.m, c.point, 64);
    EXPECT_GT(law.gas_probability, 0.15);
    EXPECT_LT(law.gas_probability, 0.85);
    // A finer grid changes nothing visible: the quadrature is converged.
    const auto fine = cvf::exact::volume_law(c.m, c.point, 64, 400000);
    EXPECT_NEAR(law.mean, fine.mean, 1e-5);
    EXPECT_NEAR(law.gas_probability, fine.gas_probability, 1e-4);
  }
  cvf::ModelParameters bad;
  EXPECT_THROW(cvf::exact::volume_law(bad, {1.0, 0.5}, 64), std::invalid_argument);  // J_sigma
  bad.J_sigma = 0;
  EXPECT_THROW(cvf::exact::volume_law(bad, {1.0, -0.5}, 64), std::invalid_argument);  // p < 0
}

TEST(CvfVolumeLaw, AcrossGasThresholdWithoutJacobian) {
  check_volume_law(across_threshold(false), 21, 60000);
}

TEST(CvfVolumeLaw, AcrossGasThresholdWithJacobian) {
  check_volume_law(across_threshold(true), 22, 60000);
}

TEST(CvfVolumeLaw, DeepLiquid) {
  Case c;
  c.m.J_sigma = 0;  // J = 2, v_HB = 0.6: J_eff = 1.4 at p = 1
  c.point = {1.0, 1.0};
  c.delta = 0.02;
  for (bool jacobian : {true, false}) {
    c.m.volume_jacobian = jacobian;
    EXPECT_EQ(cvf::exact::volume_law(c.m, c.point, 64).gas_probability, 0.0);
    check_volume_law(c, 23, 30000);
  }
}

TEST(CvfVolumeMove, AcceptanceRatio) {
  cvf::ModelParameters m;
  const cvf::ReducedStatePoint point{1.3, 0.4};
  int calls = 0;
  auto n_hb = [&] {
    ++calls;
    return std::int64_t{100};
  };
  // Same side of the threshold: the HB count is not needed.
  const double inside = cvf::volume_log_acceptance(m, point, 64, 1.5, -4.0, 1.6, -3.5, n_hb);
  EXPECT_EQ(calls, 0);
  EXPECT_NEAR(inside, -(64 * 0.5 + 0.4 * 64 * 0.1) / 1.3 + 64 * std::log(1.6 / 1.5), 1e-12);
  // Crossing into the gas: -J_eff N_HB is lost, Delta H grows by J_eff N_HB.
  const double j_eff = 2.0 - 0.4 * 0.6;
  const double out = cvf::volume_log_acceptance(m, point, 64, 1.99, -3.0, 2.01, -3.0, n_hb);
  EXPECT_EQ(calls, 1);
  EXPECT_NEAR(out, -(0.4 * 64 * 0.02 + j_eff * 100) / 1.3 + 64 * std::log(2.01 / 1.99), 1e-9);
  EXPECT_TRUE(std::isinf(cvf::volume_log_acceptance(m, point, 64, 1.01, -4, 0.99, 0, n_hb)));
}

// Simulation on TestSpace (every backend of the build): counters stay exact through mixed
// steps, measurements follow their formulas, checkpoints continue bit for bit, bad input is
// refused.
#include <gtest/gtest.h>

#include <cmath>

#include "portamc/cvf/lennard_jones.hpp"
#include "portamc/cvf/simulation.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;

namespace {
cvf::SimulationSettings small(std::uint64_t seed) {
  cvf::SimulationSettings s;
  s.L = 8;
  s.seed = seed;
  s.initial_v_iso = 1.9;
  s.volume.delta = 0.05;
  return s;
}
}  // namespace

TEST(CvfSimulation, CountersMatchRecountThroughMixedSteps) {
  cvf::ModelParameters m;
  m.J = 0.1;
  m.gas_threshold = 1.2;  // at the bottom of the LJ well: the volume wanders across it
  auto settings = small(5);
  settings.L = 4;
  settings.initial_v_iso = 1.2;
  settings.volume.delta = 0.03;
  cvf::Simulation<TestSpace> sim(TestSpace(), m, cvf::ReducedStatePoint{1.0, 0.5}, settings);
  int gas_steps = 0, crossings = 0;
  bool was_gas = !sim.bonds_allowed();
  for (int s = 0; s < 2000; ++s) {
    sim.step();
    const bool gas = !sim.bonds_allowed();
    gas_steps += gas;
    crossings += gas != was_gas;
    was_gas = gas;
    if (s % 100 == 99) {
      const auto counts = sim.state().counts();
      const auto exact = sim.state().recount_exact();
      ASSERT_EQ(counts.hb, exact.hb) << "step " << s;
      ASSERT_EQ(counts.sigma, exact.sigma) << "step " << s;
    }
  }
  EXPECT_GT(crossings, 0);  // the gas branch of the volume move ran
  EXPECT_GT(sim.volume_acceptances(), 0);
  // Other algorithms change sigma and call recount().
  Kokkos::deep_copy(sim.state().sigma(), std::uint8_t(0));
  sim.state().recount();
  const auto counts = sim.state().counts();
  EXPECT_EQ(counts.sigma, 15 * 64);
  EXPECT_EQ(counts.hb, 2 * 64);  // every allowed edge bonds
}

TEST(CvfSimulation, MeasurementFormulas) {
  cvf::ModelParameters m;
  const cvf::ReducedStatePoint point{0.7, 0.3};
  auto settings = small(8);
  settings.initial = cvf::InitialState::ordered;
  settings.initial_v_iso = 1.4;
  cvf::Simulation<TestSpace> sim(TestSpace(), m, point, settings);
  const auto x = sim.measure();
  const double N = 512;
  EXPECT_EQ(x.n_sigma, 15 * 512);
  EXPECT_EQ(x.n_hb_raw, 1024);
  EXPECT_EQ(x.n_hb, 1024);
  EXPECT_EQ(x.sigma_counts[0], 6 * 512);
  EXPECT_DOUBLE_EQ(x.order_parameter, 1.0);
  const double u = cvf::lennard_jones_energy_per_molecule(m, 1.4);
  EXPECT_DOUBLE_EQ(x.volume, 1.4 + 0.6 * 1024 / N);
  EXPECT_NEAR(x.enthalpy, u - 2.0 * 2 - 0.32 * 15 + 0.3 * (1.4 + 1.2), 1e-12);
  // H/N = u - J_eff n_hb/N - J_sigma n_sigma/N + p v_iso, the form the kernels use.
  EXPECT_NEAR(x.enthalpy, u - (2.0 - 0.3 * 0.6) * 2 - 0.32 * 15 + 0.3 * 1.4, 1e-12);
  // Gas-like: the bonds count zero, the raw count stays.
  settings.initial_v_iso = 2.5;
  cvf::Simulation<TestSpace> gas(TestSpace(), m, point, settings);
  const auto y = gas.measure();
  EXPECT_EQ(y.n_hb, 0);
  EXPECT_EQ(y.n_hb_raw, 1024);
  EXPECT_DOUBLE_EQ(y.volume, 2.5);
  EXPECT_EQ(gas.bond_coupling(), 0.0);
}

TEST(CvfSimulation, CheckpointContinuesBitForBit) {
  cvf::ModelParameters m;
  const cvf::ReducedStatePoint point{0.8, 0.1};
  cvf::Simulation<TestSpace> a(TestSpace(), m, point, small(3));
  for (int s = 0; s < 10; ++s) a.step();
  const auto saved = a.checkpoint();
  cvf::Simulation<TestSpace> b(TestSpace(), m, point, small(3));
  b.restore(saved);
  for (int s = 0; s < 10; ++s) {
    a.step();
    b.step();
  }
  const auto ca = a.checkpoint(), cb = b.checkpoint();
  EXPECT_EQ(ca.sigma, cb.sigma);
  EXPECT_EQ(ca.cube_state, cb.cube_state);
  EXPECT_EQ(ca.v_iso, cb.v_iso);
  EXPECT_EQ(ca.step, 20u);
  EXPECT_EQ(cb.step, 20u);
  EXPECT_EQ(a.measure().n_hb_raw, b.measure().n_hb_raw);
  auto broken = saved;
  broken.sigma[3] = 6;
  EXPECT_THROW(b.restore(broken), std::invalid_argument);
  broken = saved;
  broken.cube_state.pop_back();
  EXPECT_THROW(b.restore(broken), std::invalid_argument);
}

TEST(CvfSimulation, RejectsBadInput) {
  cvf::ModelParameters m;
  const cvf::ReducedStatePoint point{1.0, 0.1};
  auto s = small(1);
  s.L = 6;
  EXPECT_THROW(cvf::Simulation<TestSpace>(TestSpace(), m, point, s), std::invalid_argument);
  s = small(1);
  s.initial_v_iso = 0.9;
  EXPECT_THROW(cvf::Simulation<TestSpace>(TestSpace(), m, point, s), std::invalid_argument);
  s = small(1);
  s.volume.delta = 0;
  EXPECT_THROW(cvf::Simulation<TestSpace>(TestSpace(), m, point, s), std::invalid_argument);
  s.volume.enabled = false;  // delta is irrelevant when the move is off
  EXPECT_NO_THROW(cvf::Simulation<TestSpace>(TestSpace(), m, point, s));
  s = small(1);
  EXPECT_THROW(cvf::Simulation<TestSpace>(TestSpace(), m, cvf::ReducedStatePoint{0.0, 0.1}, s),
               std::invalid_argument);
  EXPECT_THROW(cvf::Simulation<TestSpace>(TestSpace(), m, cvf::StatePoint{-5.0, 0.1}, s),
               std::invalid_argument);
  EXPECT_THROW(cvf::State<TestSpace>(TestSpace(), 8, 0.5, cvf::InitialState::random, 1),
               std::invalid_argument);
  try {
    cvf::Simulation<TestSpace>(TestSpace(), m, point, [] {
      auto t = small(1);
      t.volume.delta = -1;
      return t;
    }());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("delta"), std::string::npos) << e.what();
  }
  // Lab units work too.
  EXPECT_NO_THROW(
      cvf::Simulation<TestSpace>(TestSpace(), m, cvf::StatePoint{300.0, 0.1}, small(1)));
}

// Bad input to the Langevin ensemble: every invalid parameter, option, checkpoint or
// plain-kernel request throws std::invalid_argument naming what is wrong and its value;
// valid but suspicious set-ups (a ramp that cannot reach the escape bias within the cap)
// produce warnings.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../../common/expect_error.hpp"
#include "portamc/josephson/detail/plain_kernel.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "portamc/josephson/names.hpp"
#include "portamc/josephson/parameters.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using portamc::testing::expect_error;
using Space = TestSpace;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

void expect_invalid(const std::function<void(LangevinParameters&)>& change,
                    const std::vector<std::string>& needles) {
  LangevinParameters p;
  change(p);
  expect_error<std::invalid_argument>([&] { p.validate(); }, needles);
  // The ensemble validates on construction.
  expect_error<std::invalid_argument>([&] { Ensemble<Space, float> e(Space(), p); }, needles);
}

TEST(JosephsonParameters, DefaultsAreValid) {
  const LangevinParameters p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_TRUE(p.warnings().empty());
  EXPECT_DOUBLE_EQ(p.start_phase(), std::asin(0.5));
  EXPECT_DOUBLE_EQ(p.escape_threshold(), M_PI - std::asin(0.5));
}

TEST(JosephsonParameters, NonPositiveOrNonFiniteValuesRejected) {
  expect_invalid([](auto& p) { p.theta = 0; }, {"theta", "0", "> 0"});
  expect_invalid([](auto& p) { p.theta = -0.1; }, {"theta", "-0.1"});
  expect_invalid([](auto& p) { p.theta = nan; }, {"theta", "nan", "finite"});
  expect_invalid([](auto& p) { p.beta = -0.05; }, {"beta", "-0.05", ">= 0"});
  expect_invalid([](auto& p) { p.beta = inf; }, {"beta", "inf", "finite"});
  expect_invalid([](auto& p) { p.h = 0; }, {"h", "0", "> 0"});
  expect_invalid([](auto& p) { p.h = -1e-3; }, {"h", "-0.001"});
  expect_invalid([](auto& p) { p.h = nan; }, {"h", "finite"});
  expect_invalid([](auto& p) { p.V0 = 0; }, {"V0", "0", "> 0"});
  expect_invalid([](auto& p) { p.V0 = -inf; }, {"V0", "finite"});
  expect_invalid([](auto& p) { p.nu = -1e-6; }, {"nu", "-1e-06", ">= 0"});
  expect_invalid([](auto& p) { p.nu = nan; }, {"nu", "finite"});
  expect_invalid([](auto& p) { p.gamma0 = nan; }, {"gamma0", "finite"});
}

TEST(JosephsonParameters, OverdampedNeedsDamping) {
  expect_invalid(
      [](auto& p) {
        p.dynamics = Dynamics::overdamped;
        p.beta = 0;
      },
      {"beta", "0", "overdamped"});
  LangevinParameters p;
  p.beta = 0;  // underdamped without damping (and hence without noise) is allowed
  EXPECT_NO_THROW(p.validate());
}

TEST(JosephsonParameters, BiasWithoutBarrierRejected) {
  expect_invalid([](auto& p) { p.gamma0 = 1; }, {"gamma0", "1", "no barrier"});
  expect_invalid([](auto& p) { p.gamma0 = 1.5; }, {"gamma0", "1.5", "no barrier"});
  expect_invalid(
      [](auto& p) {
        p.gamma0 = 1.2;
        p.nu = 1e-3;
      },
      {"gamma0", "1.2", "|gamma0| < 1"});
  expect_invalid([](auto& p) { p.gamma0 = -1; }, {"gamma0", "-1", "|gamma0| < 1"});
}

TEST(JosephsonParameters, ThresholdMustLieAboveTheStart) {
  expect_invalid([](auto& p) { p.threshold = 0.1; }, {"threshold", "0.1", "start phase"});
  expect_invalid([](auto& p) { p.threshold = std::asin(0.5); }, {"threshold", "start phase"});
  expect_invalid([](auto& p) { p.threshold = -inf; }, {"threshold", "-inf"});
  expect_invalid([](auto& p) { p.threshold = nan; }, {"threshold", "nan"});
  LangevinParameters p;
  p.threshold = inf;  // allowed: sampling at the fixed time max_steps h
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.warnings().size(), 1u);
  EXPECT_NE(p.warnings()[0].find("censored"), std::string::npos);
}

TEST(JosephsonParameters, CountsRejected) {
  expect_invalid([](auto& p) { p.max_steps = 0; }, {"max_steps", "0"});
  expect_invalid([](auto& p) { p.max_steps = max_step_cap + 1; }, {"max_steps", "2^58"});
  expect_invalid([](auto& p) { p.realisations = 0; }, {"realisations", "0", ">= 1"});
  expect_invalid(
      [](auto& p) {
        p.realisations = 10;
        p.first_realisation = std::numeric_limits<std::uint64_t>::max() - 5;
      },
      {"first_realisation", "64-bit"});
}

TEST(JosephsonParameters, NamesParsed) {
  EXPECT_EQ(dynamics_names().value("overdamped"), Dynamics::overdamped);
  EXPECT_EQ(integrator_names().value("heun"), Integrator::heun);
  EXPECT_EQ(std::string(to_string(dynamics_names().value("underdamped"))), "underdamped");
  EXPECT_EQ(std::string(to_string(integrator_names().value("euler"))), "euler");
  expect_error<std::invalid_argument>([] { dynamics_names().value("inertial"); },
                                      {"'inertial'", "underdamped, overdamped"});
  expect_error<std::invalid_argument>([] { integrator_names().value("rk4"); },
                                      {"'rk4'", "euler, heun"});
}

// Every enumeration of the app's keys and output files keeps its names (outputs written
// before the names moved into tables still read the same).
TEST(JosephsonParameters, NameTablesKeepTheirNames) {
  EXPECT_EQ(run_mode_names().names(),
            (std::vector<std::string>{"escape", "switching", "arrhenius"}));
  EXPECT_EQ(precision_names().names(), (std::vector<std::string>{"float", "double"}));
  EXPECT_EQ(std::string(to_string(Precision::single_precision)), "float");
  EXPECT_EQ(schedule_names().names(), (std::vector<std::string>{"refill", "one_per_thread"}));
  EXPECT_EQ(std::string(to_string(AdvanceLoop::pipelined)), "pipelined");
  EXPECT_EQ(theory_rate_names().names(), (std::vector<std::string>{"auto", "exact", "kramers"}));
  EXPECT_EQ(std::string(to_string(TheoryRate::automatic)), "auto");
  EXPECT_EQ(rate_formula_names().names(),
            (std::vector<std::string>{"overdamped", "kramers_moderate", "energy_diffusion",
                                      "melnikov_meshkov"}));
  EXPECT_EQ(std::string(rate_formula_name(RateFormula::energy_diffusion)), "energy_diffusion");
}

TEST(JosephsonParameters, RampThatCannotReachTheEscapeBiasWarns) {
  LangevinParameters p;
  p.gamma0 = 0.5;
  p.nu = 1e-4;
  p.h = 0.01;
  p.max_steps = 100000;  // reaches gamma = 0.6
  p.validate();
  const auto w = p.warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("0.6"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("will be censored"), std::string::npos) << w[0];
  p.max_steps = 600000;  // reaches gamma = 1.1: fine
  EXPECT_TRUE(p.warnings().empty());
  // A threshold below pi/2 is crossed once the well bottom reaches it, at sin(threshold).
  p.threshold = 1.2;     // sin 1.2 = 0.932
  p.max_steps = 420000;  // reaches 0.92
  EXPECT_EQ(p.warnings().size(), 1u);
  p.max_steps = 440000;  // reaches 0.94
  EXPECT_TRUE(p.warnings().empty());
}

TEST(JosephsonParameters, LargeTimeStepWarns) {
  LangevinParameters p;
  p.h = 0.5;
  EXPECT_EQ(p.warnings().size(), 1u);
  p.dynamics = Dynamics::overdamped;
  p.beta = 0.1;
  p.h = 0.05;  // h V0 / beta = 0.5
  EXPECT_EQ(p.warnings().size(), 1u);
}

TEST(JosephsonParameters, BadOptionsRejected) {
  const LangevinParameters p;
  EnsembleOptions o;
  o.slots = -1;
  expect_error<std::invalid_argument>([&] { Ensemble<Space, float> e(Space(), p, o); },
                                      {"slots", "-1"});
  o = {};
  o.steps_per_launch = 0;
  expect_error<std::invalid_argument>([&] { Ensemble<Space, float> e(Space(), p, o); },
                                      {"steps_per_launch", "0"});
  o = {};
  o.compact_below = 1.5;
  expect_error<std::invalid_argument>([&] { Ensemble<Space, float> e(Space(), p, o); },
                                      {"compact_below", "1.5"});
  LangevinParameters small = p;
  small.realisations = 4;
  Ensemble<Space, float> e(Space(), small);
  expect_error<std::invalid_argument>([&] { e.advance(0); }, {"steps_per_slot", "0"});
}

TEST(JosephsonParameters, MismatchedCheckpointsRejected) {
  LangevinParameters p;
  p.realisations = 8;
  p.max_steps = 1000;
  EnsembleOptions o;
  o.slots = 4;
  Ensemble<Space, double> d(Space(), p, o);
  d.advance(10);
  const EnsembleCheckpoint good = d.checkpoint();

  Ensemble<Space, double> other(Space(), p, o);
  EnsembleCheckpoint c = good;
  c.slot_phi.pop_back();
  expect_error<std::invalid_argument>([&] { other.restore(c); }, {"slot_phi", "3", "4"});
  c = good;
  c.results.steps.push_back(0);
  expect_error<std::invalid_argument>([&] { other.restore(c); }, {"results.steps", "9", "8"});
  c = good;
  c.slot_realisation[1] = 8;
  expect_error<std::invalid_argument>([&] { other.restore(c); }, {"slot_realisation[1]", "8"});
  c = good;
  c.slot_step[2] = 1000;
  expect_error<std::invalid_argument>([&] { other.restore(c); }, {"slot_step[2]", "max_steps"});
  c = good;
  c.active_slots = 5;
  expect_error<std::invalid_argument>([&] { other.restore(c); }, {"active_slots", "5"});
  c = good;
  c.slot_phi[0] = 0.1;  // not a float: a double checkpoint into a float ensemble
  Ensemble<Space, float> f(Space(), p, o);
  expect_error<std::invalid_argument>([&] { f.restore(c); }, {"slot_phi[0]", "float"});
  EXPECT_NO_THROW(other.restore(good));
}

TEST(JosephsonParameters, PlainKernelNeedsUnderdampedEulerAtConstantBias) {
  LangevinParameters p;
  p.realisations = 4;
  p.integrator = Integrator::heun;
  expect_error<std::invalid_argument>([&] { run_plain_escape<Space, float>(Space(), p); },
                                      {"euler"});
  p.integrator = Integrator::euler;
  p.nu = 1e-3;
  expect_error<std::invalid_argument>([&] { run_plain_escape<Space, float>(Space(), p); }, {"nu"});
  p.nu = 0;
  p.theta = -1;
  expect_error<std::invalid_argument>([&] { run_plain_escape<Space, float>(Space(), p); },
                                      {"theta"});
}

}  // namespace

// The josephson checkpoint refuses what it cannot resume from (run_output.hpp): files that are
// missing, empty, cut short, no HDF5 or another app's; damage to the states in flight, the
// counters or the results (the checksum); and values no run writes even when the checksum
// matches (range checks: non-finite states, arrays that disagree).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "../../common/checkpoint_damage.hpp"
#include "../../common/checkpoint_integrity_test.hpp"
#include "../../common/expect_error.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_output.hpp"
#include "quick_escape.hpp"
#include "test_space.hpp"

namespace {

namespace fs = std::filesystem;
using namespace portamc::josephson;
using portamc::h5::BadCheckpoint;
using portamc::testing::expect_error;

using portamc::josephson::testing::quick_run;

// Mid-ensemble: finished realisations and realisations in flight.
const RunCheckpoint& state() {
  static const RunCheckpoint c = [] {
    Simulation<TestSpace> sim(TestSpace(), resolve(quick_run()));
    for (int i = 0; i < 4; ++i) sim.advance();
    return sim.checkpoint();
  }();
  return c;
}

struct Traits {
  using Checkpoint = RunCheckpoint;
  static const Checkpoint& state() { return ::state(); }
  static void write(const std::string& path, const Checkpoint& c) {
    write_checkpoint(path, c, "mode: escape\n");
  }
  static Checkpoint read(const std::string& path) { return read_checkpoint(path); }
};

using JosephsonCheckpointIntegrity = portamc::testing::CheckpointIntegrityTest<Traits>;

TEST_F(JosephsonCheckpointIntegrity, AnIntactCheckpointReadsBack) {
  const RealisationStates& s = state().points.at(0).states;
  ASSERT_FALSE(s.in_flight.empty());
  ASSERT_GT(s.finished(), 0u);
  const RunCheckpoint c = read_checkpoint(written("intact.ckpt"));
  EXPECT_EQ(c.points[0].states.in_flight_phi, s.in_flight_phi);
  Simulation<TestSpace> resumed(TestSpace(), resolve(quick_run()));
  EXPECT_NO_THROW(resumed.restore(c));
}

TEST_F(JosephsonCheckpointIntegrity, RefusesUnusableFiles) {
  expect_unusable_files_refused("josephson", "su2");
}

TEST_F(JosephsonCheckpointIntegrity, FindsDamageToStatesCountersAndResults) {
  using portamc::testing::flip_bit;
  const std::string phi = written("phi.ckpt");
  flip_bit<double>(phi, "/points/point_0/in_flight/phi", 1, 10);
  expect_refused(phi, {"damaged"});
  const std::string step = written("step.ckpt");
  flip_bit<std::uint64_t>(step, "/points/point_0/in_flight/step", 0, 5);
  expect_refused(step, {"damaged"});
  const std::string launches = written("launches.ckpt");
  flip_bit<std::uint64_t>(launches, "/points/point_0/launches", 0, 0);
  expect_refused(launches, {"damaged"});
  const std::string outcome = written("outcome.ckpt");
  flip_bit<std::uint8_t>(outcome, "/points/point_0/results/outcome", 0, 0);
  expect_refused(outcome, {"damaged"});
  const std::string scribbled = written("scribbled.ckpt");
  portamc::testing::scribble_over(scribbled, "/points/point_0/results/final_phi", 16, "\xff\xff");
  expect_refused(scribbled, {"damaged"});
}

TEST_F(JosephsonCheckpointIntegrity, RefusesStatesThatAreNotFinite) {
  RunCheckpoint c = state();
  c.points[0].states.in_flight_phi[2] = std::numeric_limits<double>::infinity();
  expect_refused(written("phi.ckpt", c), {"/points/point_0/in_flight/phi[2] = inf", "not finite"});
  c = state();
  c.points[0].states.in_flight_v[0] = std::numeric_limits<double>::quiet_NaN();
  expect_refused(written("v.ckpt", c), {"/points/point_0/in_flight/v[0]", "not finite"});
  c = state();
  const RealisationStates& s = c.points[0].states;
  std::size_t done = 0;
  while (s.results.outcome[done] == Outcome::pending) ++done;
  c.points[0].states.results.final_phi[done] = -std::numeric_limits<double>::infinity();
  expect_refused(written("final.ckpt", c),
                 {"/points/point_0/results/final_phi[" + std::to_string(done) + "]"});
  c = state();
  c.points[0].states.results.h = -0.01;
  expect_refused(written("h.ckpt", c), {"/points/point_0/results attribute h"});
}

TEST_F(JosephsonCheckpointIntegrity, RefusesArraysThatDisagree) {
  RunCheckpoint c = state();
  c.points[0].states.in_flight_step.pop_back();
  expect_refused(written("step.ckpt", c), {"/points/point_0/in_flight/step holds"});
  c = state();
  c.points[0].states.results.bias.push_back(0.5);
  expect_refused(written("bias.ckpt", c), {"/points/point_0/results/bias holds 151 values"});
  c = state();
  c.points[0].states.in_flight[1] = c.points[0].states.in_flight[0];
  expect_refused(written("order.ckpt", c), {"/points/point_0/in_flight/realisation[1]"});
}

}  // namespace

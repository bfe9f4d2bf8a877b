// The cvf checkpoint refuses what it cannot resume from (checkpoint.hpp): files that are
// missing, empty, cut short, no HDF5 or another app's; damage to the configuration, the
// position or the records (the checksum); and values no run writes even when the checksum
// matches (range checks).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "../../common/checkpoint_damage.hpp"
#include "../../common/checkpoint_integrity_test.hpp"
#include "portamc/cvf/checkpoint.hpp"
#include "portamc/cvf/run.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::cvf;
// gtest's Test::Run hides the name inside test bodies.
using Chain = portamc::cvf::Run;

RunParameters small() {
  RunParameters p;
  p.L = 8;
  p.temperatures = {300.0, 280.0};
  p.thermalisation = 3;
  p.measurements = 4;
  p.autocorrelation_lags = 2;
  return p;
}

// Inside the second point's measurements: a finished record and one in progress.
const RunCheckpoint& state() {
  static const RunCheckpoint c = [] {
    Chain run(TestSpace(), small());
    for (int i = 0; i < 12; ++i) run.advance();
    return run.checkpoint();
  }();
  return c;
}

struct Traits {
  using Checkpoint = RunCheckpoint;
  static const Checkpoint& state() { return ::state(); }
  static void write(const std::string& path, const Checkpoint& c) {
    write_checkpoint(path, c, "lattice: {L: 8}\n");
  }
  static Checkpoint read(const std::string& path) { return read_checkpoint(path); }
};

using CvfCheckpointIntegrity = portamc::testing::CheckpointIntegrityTest<Traits>;

TEST_F(CvfCheckpointIntegrity, AnIntactCheckpointReadsBack) {
  ASSERT_EQ(state().points.size(), 2u);
  ASSERT_EQ(state().points[1].measurements(), 2u);
  const RunCheckpoint c = read_checkpoint(written("intact.ckpt"));
  EXPECT_EQ(c.configuration.sigma, state().configuration.sigma);
  EXPECT_EQ(c.points[1].enthalpy, state().points[1].enthalpy);
  EXPECT_EQ(c.fingerprint, state().fingerprint);
  Chain resumed(TestSpace(), small());
  EXPECT_NO_THROW(resumed.restore(c));
}

TEST_F(CvfCheckpointIntegrity, RefusesUnusableFiles) {
  expect_unusable_files_refused("cvf", "muca");
}

TEST_F(CvfCheckpointIntegrity, FindsDamageToConfigurationPositionAndRecords) {
  using portamc::testing::flip_bit;
  const std::string sigma = written("sigma.ckpt");
  flip_bit<std::uint8_t>(sigma, "/configuration/sigma", 100, 0);
  expect_refused(sigma, {"damaged"});
  const std::string v = written("v.ckpt");
  flip_bit<double>(v, "/configuration/v_iso", 0, 3);
  expect_refused(v, {"damaged"});
  const std::string at = written("at.ckpt");
  flip_bit<std::int64_t>(at, "/position/measurements_done", 0, 2);
  expect_refused(at, {"damaged"});
  const std::string series = written("series.ckpt");
  flip_bit<double>(series, "/points/point_0/enthalpy", 2, 40);
  expect_refused(series, {"damaged"});
}

TEST_F(CvfCheckpointIntegrity, RefusesValuesNoRunWrites) {
  RunCheckpoint c = state();
  c.configuration.sigma[5] = 6;
  expect_refused(written("sigma.ckpt", c), {"/configuration/sigma[5] = 6", "outside 0..5"});
  c = state();
  c.configuration.cube_state[0] = 9;
  expect_refused(written("cube.ckpt", c), {"/configuration/cube_state[0] = 9"});
  c = state();
  c.configuration.sigma.pop_back();
  expect_refused(written("short.ckpt", c), {"/configuration/sigma holds 3071 values"});
  c = state();
  c.configuration.v_iso = 0.5;
  expect_refused(written("viso.ckpt", c), {"/configuration/v_iso = 0.5"});
  c = state();
  c.configuration.step += 1;
  expect_refused(written("step.ckpt", c), {"differs from /position/steps"});
  c = state();
  c.points[0].order[1] = std::numeric_limits<double>::quiet_NaN();
  expect_refused(written("nan.ckpt", c), {"/points/point_0/order[1]", "not finite"});
  c = state();
  c.points[1].volume.pop_back();
  expect_refused(written("lengths.ckpt", c), {"/points/point_1/volume holds 1 values"});
  c = state();
  c.volume_acceptances = c.volume_attempts + 1;
  expect_refused(written("counters.ckpt", c), {"is impossible"});
  c = state();
  c.fingerprint = "L=7\n";
  expect_refused(written("L.ckpt", c), {"L = 7"});
}

}  // namespace

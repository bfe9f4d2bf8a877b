// The su2 checkpoint refuses what it cannot resume from (run_output.hpp): files that are
// missing, empty, cut short, no HDF5 or another app's; damage to the links, the counters or
// the series (the checksum); and values no run writes even when the checksum matches (range
// checks: links of 1e300, steps of 8e18, counters that disagree).
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
#include "portamc/su2/run.hpp"
#include "portamc/su2/run_output.hpp"
#include "test_space.hpp"

namespace {

namespace fs = std::filesystem;
using namespace portamc::su2;
using portamc::h5::BadCheckpoint;
using portamc::testing::expect_error;

RunParameters small(StoragePrecision precision = StoragePrecision::kDouble) {
  RunParameters p;
  p.extents = {4, 4, 4, 4};
  p.betas = {2.3, 2.5};
  p.precision = precision;
  p.start = StartKind::hot;
  p.seed = 5;
  p.overrelaxation_sweeps = 1;
  p.thermalisation = 2;
  p.measurements = 4;
  p.wilson_r_max = 2;
  p.wilson_t_max = 2;
  p.ape_iterations = 1;
  p.potential = false;
  return p;
}

// Into the second coupling: one finished, one with two measurements.
RunCheckpoint checkpoint_of(const RunParameters& p) {
  Simulation sim(TestSpace(), p);
  sim.start(nullptr);
  for (int i = 0; i < 6 + 2 + 2; ++i) sim.advance();
  return sim.checkpoint();
}

const RunCheckpoint& state() {
  static const RunCheckpoint c = checkpoint_of(small());
  return c;
}

struct Traits {
  using Checkpoint = RunCheckpoint;
  static const Checkpoint& state() { return ::state(); }
  static void write(const std::string& path, const Checkpoint& c) {
    write_checkpoint(path, c, "model: {beta_scan: [2.3, 2.5]}\n");
  }
  static Checkpoint read(const std::string& path) { return read_checkpoint(path); }
};

using Su2CheckpointIntegrity = portamc::testing::CheckpointIntegrityTest<Traits>;

TEST_F(Su2CheckpointIntegrity, IntactCheckpointsReadBackAndResume) {
  ASSERT_EQ(state().position.point, 1u);
  ASSERT_EQ(state().points.size(), 2u);
  const RunCheckpoint c = read_checkpoint(written("intact.ckpt"));
  EXPECT_EQ(c.links, state().links);
  EXPECT_EQ(c.points[1].step, state().points[1].step);
  Simulation resumed(TestSpace(), small());
  EXPECT_NO_THROW(resumed.restore(c));
  // Float links, stored exactly as double, are unitary to float rounding: within tolerance.
  const RunParameters f = small(StoragePrecision::kFloat);
  const RunCheckpoint single = read_checkpoint(written("float.ckpt", checkpoint_of(f)));
  Simulation resumed_float(TestSpace(), f);
  EXPECT_NO_THROW(resumed_float.restore(single));
}

TEST_F(Su2CheckpointIntegrity, RefusesUnusableFiles) {
  expect_unusable_files_refused("su2", "muca");
}

TEST_F(Su2CheckpointIntegrity, FindsDamageToLinksCountersAndSeries) {
  using portamc::testing::flip_bit;
  const std::string link = written("link.ckpt");
  flip_bit<double>(link, "/position/links", 77, 3);  // a low mantissa bit: still unitary
  expect_refused(link, {"damaged"});
  const std::string updates = written("updates.ckpt");
  flip_bit<std::uint64_t>(updates, "/position/updates", 0, 1);
  expect_refused(updates, {"damaged"});
  const std::string measured = written("measured.ckpt");
  portamc::testing::overwrite_attribute(measured, "/position", "measurements_done", 1);
  expect_refused(measured, {"damaged"});
  const std::string step = written("step.ckpt");
  portamc::testing::overwrite_element<std::int64_t>(step, "/points/point_0/step", 2,
                                                    8000000000000000000);
  expect_refused(step, {"damaged"});
  const std::string scribbled = written("scribbled.ckpt");
  portamc::testing::scribble_over(scribbled, "/points/point_1/plaquette", 3, "\x11\x22");
  expect_refused(scribbled, {"damaged"});
}

TEST_F(Su2CheckpointIntegrity, RefusesLinksThatAreNoSu2Matrices) {
  RunCheckpoint c = state();
  c.links[4 * 5 + 2] = 1e300;
  expect_refused(written("huge.ckpt", c), {"/position/links[20..23] (link 5)", "not unitary"});
  c = state();
  c.links[4 * 7] = std::numeric_limits<double>::quiet_NaN();
  expect_refused(written("nan.ckpt", c), {"(link 7)", "not finite"});
  c = state();
  for (int i = 0; i < 4; ++i) c.links[4 * 9 + i] *= 1.001;
  expect_refused(written("scaled.ckpt", c), {"(link 9)", "not unitary"});
}

TEST_F(Su2CheckpointIntegrity, RefusesSeriesAndCountersThatDisagree) {
  RunCheckpoint c = state();
  c.points[0].step[2] = 8000000000000000000;
  expect_refused(written("step.ckpt", c),
                 {"/points/point_0/step[2] = 8000000000000000000", "/position/updates"});
  c = state();
  c.position.updates += 3;
  expect_refused(written("updates.ckpt", c), {"/position/updates", "add up to"});
  c = state();
  c.position.measurements_done = 3;
  expect_refused(written("measured.ckpt", c), {"measurements_done = 3"});
  c = state();
  c.points[0].plaquette.pop_back();
  expect_refused(written("length.ckpt", c), {"/points/point_0/plaquette holds 3 measurements"});
  c = state();
  c.points[1].polyakov[1] = -1.5;
  expect_refused(written("polyakov.ckpt", c), {"/points/point_1/polyakov[1] = -1.5"});
  c = state();
  c.points[0].polyakov_histogram[0] += 1;
  expect_refused(written("histogram.ckpt", c), {"/points/point_0/polyakov_histogram counts 5"});
}

}  // namespace

// The checkpoint file of portamc-josephson (run_output.hpp): the per-realisation layout of
// format 2 reads back exactly, and a file of format 1 (slots and counter, no checksum) is
// refused.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <filesystem>
#include <string>

#include "portamc/checkpoint_file.hpp"
#include "portamc/hdf5_file.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_output.hpp"
#include "quick_escape.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc;
using namespace portamc::josephson;

using portamc::josephson::testing::quick_run;

std::string temp_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "portamc_test_josephson_ckpt";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

void expect_same(const EnsembleResults& a, const EnsembleResults& b) {
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_TRUE(a.outcome == b.outcome);
  EXPECT_EQ(a.bias, b.bias);
  EXPECT_EQ(a.final_phi, b.final_phi);
  EXPECT_EQ(a.final_v, b.final_v);
}

TEST(JosephsonCheckpointFile, ReadsBackExactly) {
  const ResolvedRun run = resolve(quick_run());
  Simulation<TestSpace> sim(TestSpace(), run);
  for (int i = 0; i < 4; ++i) sim.advance();
  const RunCheckpoint c = sim.checkpoint();
  ASSERT_EQ(c.points.size(), 1u);
  ASSERT_FALSE(c.points[0].states.in_flight.empty());
  ASSERT_GT(c.points[0].states.finished(), 0u);
  const std::string file = temp_file("format2.checkpoint");
  write_checkpoint(file, c, "");
  const RunCheckpoint r = read_checkpoint(file);
  EXPECT_EQ(r.fingerprint, c.fingerprint);
  ASSERT_EQ(r.points.size(), 1u);
  const RealisationStates &a = r.points[0].states, &b = c.points[0].states;
  expect_same(a.results, b.results);
  EXPECT_EQ(a.results.h, b.results.h);
  EXPECT_EQ(a.in_flight, b.in_flight);
  EXPECT_EQ(a.in_flight_phi, b.in_flight_phi);
  EXPECT_EQ(a.in_flight_v, b.in_flight_v);
  EXPECT_EQ(a.in_flight_step, b.in_flight_step);
  EXPECT_EQ(r.points[0].record.launches, 4u);
  EXPECT_EQ(r.points[0].record.slots, 9);
  std::filesystem::remove(file);
}

TEST(JosephsonCheckpointFile, AFileOfFormatOneIsRefused) {
  // What a one-rank run of format 1 wrote: the slots of the ensemble in progress, and no
  // checksum. Such files are not resumed (docs/output.md, "Checkpoints").
  const ResolvedRun run = resolve(quick_run());
  Ensemble<TestSpace, double> ensemble(TestSpace(), run.points[0], run.input.ensemble);
  ensemble.advance(run.input.ensemble.steps_per_launch);
  const EnsembleCheckpoint e = ensemble.checkpoint();
  const std::string file = temp_file("format1.checkpoint");
  {
    h5::OutputFile f(file);
    auto root = f.root();
    h5::begin_checkpoint(root, "josephson", "");
    root.write_string("fingerprint", run.fingerprint(), "");
    root.group("finished").attribute("count", std::int64_t{0});
    auto g = root.group("current");
    g.write("slot_realisation", e.slot_realisation, "", "");
    g.write("slot_phi", e.slot_phi, "", "");
    f.commit();
  }
  EXPECT_THROW(read_checkpoint(file), h5::BadCheckpoint);
  std::filesystem::remove(file);
}

}  // namespace

// The weight-iteration driver: flatness measures, the N_updates rule, and
// checkpoint/restart reproducing an uninterrupted run bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "portamc/muca/io.hpp"
#include "portamc/muca/simulation.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::muca;

TEST(MucaFlatness, KullbackLeiblerAndChebyshev) {
  // Flat over 20 bins: d_KL = 0 and d_c = 0.
  std::vector<portamc::count_type> flat(25, 0);
  for (int k = 0; k < 20; ++k) flat[k] = 7;
  EXPECT_NEAR(kullback_leibler_flat(flat, 20), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(chebyshev_flat(flat), 0.0);
  EXPECT_EQ(visited_bins(flat), 20);
  // Two bins with 3:1 counts against Q = 1/10 (width clamped to 10).
  std::vector<portamc::count_type> h{3, 1};
  const double expected = 0.75 * std::log(7.5) + 0.25 * std::log(2.5);
  EXPECT_NEAR(kullback_leibler_flat(h, 2), expected, 1e-14);
  // A whole range of 2 bins compared with its own width (the run's floor for a range of
  // fewer than 10 accessible bins).
  EXPECT_NEAR(kullback_leibler_flat(h, 2, 2), 0.75 * std::log(1.5) + 0.25 * std::log(0.5), 1e-14);
  EXPECT_DOUBLE_EQ(chebyshev_flat(h), 0.5);
}

TEST(MucaSimulation, UpdatesRuleFollowsThePaper) {
  Parameters p;
  p.L = 8;
  p.walkers = 16;
  Simulation<TestSpace> sim(TestSpace(), p);
  EXPECT_NEAR(sim.updates_for_width(63), 6.0 * std::pow(63.0, 2.25) / 16.0, 1e-9);
  const auto& first = sim.iterate();
  EXPECT_EQ(first.therm_attempts, 300u);  // 30 * max(0, 10)
  EXPECT_EQ(first.update_attempts,
            static_cast<std::uint64_t>(6.0 * std::pow(10.0, 2.25) / 16.0) + 1);
}

Parameters resumable() {
  Parameters p;
  p.L = 6;
  p.walkers = 7;
  p.seed = 77;
  p.production_blocks = 4;
  p.production_updates_per_block = 500;
  p.max_iterations = 12;
  return p;
}

TEST(MucaSimulation, CheckpointResumesBitForBit) {
  const auto dir = std::filesystem::temp_directory_path() / "portamc_test_checkpoint";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "muca.ckpt").string();

  Simulation<TestSpace> straight(TestSpace(), resumable());
  for (int i = 0; i < 8; ++i) straight.iterate();
  for (int b = 0; b < 4; ++b) straight.production_block();

  {
    Simulation<TestSpace> first(TestSpace(), resumable());
    for (int i = 0; i < 5; ++i) first.iterate();
    write_checkpoint(path, first.checkpoint(), "model: {L: 6}\n");
  }
  Simulation<TestSpace> resumed(TestSpace(), resumable());
  resumed.restore(read_checkpoint(path));
  for (int i = 0; i < 3; ++i) resumed.iterate();
  for (int b = 0; b < 2; ++b) resumed.production_block();
  write_checkpoint(path, resumed.checkpoint(), "");
  Simulation<TestSpace> again(TestSpace(), resumable());
  again.restore(read_checkpoint(path));
  for (int b = 0; b < 2; ++b) again.production_block();

  const auto a = straight.checkpoint(), b = again.checkpoint();
  EXPECT_EQ(a.model.spins, b.model.spins);
  EXPECT_EQ(a.model.bins, b.model.bins);
  EXPECT_EQ(a.model.step, b.model.step);
  EXPECT_EQ(a.model.log_weights, b.model.log_weights);
  EXPECT_EQ(a.driver.block_histograms, b.driver.block_histograms);
  // The walker-group records survive the checkpoint mid-production too.
  EXPECT_EQ(a.driver.groups, 7);
  EXPECT_EQ(a.driver.groups, b.driver.groups);
  EXPECT_EQ(a.driver.group_histograms, b.driver.group_histograms);
  EXPECT_EQ(a.driver.block_group_windows, b.driver.block_group_windows);
  EXPECT_TRUE(again.production_by_group());
  ASSERT_EQ(a.driver.records.size(), b.driver.records.size());
  for (std::size_t i = 0; i < a.driver.records.size(); ++i) {
    EXPECT_EQ(a.driver.records[i].histogram, b.driver.records[i].histogram);
    EXPECT_EQ(a.driver.records[i].kullback_leibler, b.driver.records[i].kullback_leibler);
  }
  std::filesystem::remove_all(dir);
}

TEST(MucaSimulation, ResumingWithOtherWalkerGroupsFallsBackToTimeBins) {
  Simulation<TestSpace> first(TestSpace(), resumable());
  while (!first.converged() && !first.iterations_exhausted()) first.iterate();
  for (int b = 0; b < 2; ++b) first.production_block();
  ASSERT_TRUE(first.production_by_group());
  Parameters other = resumable();
  other.walker_groups = 3;
  Simulation<TestSpace> resumed(TestSpace(), other);
  resumed.restore(first.checkpoint());
  while (!resumed.production_done()) resumed.production_block();
  EXPECT_FALSE(resumed.production_by_group());
  EXPECT_EQ(resumed.driver().groups, 0);
  EXPECT_EQ(resumed.driver().block_histograms.size(), 4u);
}

TEST(MucaSimulation, ReadCheckpointRejectsOtherFiles) {
  const auto dir = std::filesystem::temp_directory_path() / "portamc_test_not_checkpoint";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "plain.h5").string();
  {
    portamc::h5::OutputFile f(path);
    f.root().write_string("config", "x", "not a checkpoint");
    f.commit();
  }
  // Refused as bad input (exit code 2); test_muca_checkpoint_integrity.cpp has the details.
  EXPECT_THROW(read_checkpoint(path), std::invalid_argument);
  EXPECT_THROW(read_checkpoint((dir / "missing.h5").string()), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

}  // namespace

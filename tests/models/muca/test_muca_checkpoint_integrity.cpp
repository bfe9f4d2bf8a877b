// The muca checkpoint refuses what it cannot resume from (io.hpp): files that are missing,
// empty, cut short, no HDF5 or another app's; damage to the state, the counters or the records
// (the checksum); and values no run writes even when the checksum matches (range checks).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "../../common/checkpoint_damage.hpp"
#include "../../common/checkpoint_integrity_test.hpp"
#include "../../common/expect_error.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/muca/io.hpp"
#include "portamc/muca/simulation.hpp"
#include "test_space.hpp"

namespace {

namespace fs = std::filesystem;
using namespace portamc::muca;
using portamc::h5::BadCheckpoint;
using portamc::testing::expect_error;

Parameters small() {
  Parameters p;
  p.L = 6;
  p.walkers = 7;
  p.seed = 41;
  p.production_blocks = 4;
  p.production_updates_per_block = 300;
  p.max_iterations = 3;
  return p;
}

// A checkpoint mid-production: iteration records, block histograms and walker groups.
const Checkpoint& state() {
  static const Checkpoint c = [] {
    Simulation<TestSpace> sim(TestSpace(), small());
    while (!sim.iterations_exhausted()) sim.iterate();
    for (int b = 0; b < 2; ++b) sim.production_block();
    return sim.checkpoint();
  }();
  return c;
}

struct Traits {
  using Checkpoint = portamc::muca::Checkpoint;
  static const Checkpoint& state() { return ::state(); }
  static void write(const std::string& path, const Checkpoint& c) {
    write_checkpoint(path, c, "model: {L: 6}\n");
  }
  static Checkpoint read(const std::string& path) { return read_checkpoint(path); }
};

using MucaCheckpointIntegrity = portamc::testing::CheckpointIntegrityTest<Traits>;

TEST_F(MucaCheckpointIntegrity, AnIntactCheckpointReadsBack) {
  const Checkpoint c = read_checkpoint(written("intact.ckpt"));
  EXPECT_EQ(c.model.spins, state().model.spins);
  EXPECT_EQ(c.model.bins, state().model.bins);
  EXPECT_EQ(c.model.step, state().model.step);
  EXPECT_EQ(c.driver.block_histograms, state().driver.block_histograms);
  EXPECT_EQ(c.driver.records.size(), 3u);
}

TEST_F(MucaCheckpointIntegrity, RefusesUnusableFiles) {
  expect_unusable_files_refused("muca", "su2");
}

TEST_F(MucaCheckpointIntegrity, FindsDamageToStateCountersAndRecords) {
  using portamc::testing::flip_bit;
  const std::string spins = written("spins.ckpt");
  flip_bit<std::uint32_t>(spins, "/model/spins", 9, 3);
  expect_refused(spins, {"damaged"});
  const std::string step = written("step.ckpt");
  flip_bit<std::uint64_t>(step, "/model/step", 0, 40);
  expect_refused(step, {"damaged"});
  const std::string bins = written("bins.ckpt");
  flip_bit<std::int32_t>(bins, "/model/bins", 2, 0);
  expect_refused(bins, {"damaged"});
  const std::string weights = written("weights.ckpt");
  flip_bit<double>(weights, "/model/log_weights", 5, 0);
  expect_refused(weights, {"damaged"});
  const std::string histogram = written("histogram.ckpt");
  flip_bit<std::uint64_t>(histogram, "/driver/iterations/histogram", 40, 2);
  expect_refused(histogram, {"damaged"});
  const std::string blocks = written("blocks.ckpt");
  portamc::testing::overwrite_attribute(blocks, "/driver", "blocks_done", 1);
  expect_refused(blocks, {"damaged"});
  const std::string iteration = written("iteration.ckpt");
  portamc::testing::overwrite_attribute(iteration, "/driver", "iteration", 2);
  expect_refused(iteration, {"damaged"});
  const std::string scribbled = written("scribbled.ckpt");
  portamc::testing::scribble_over(scribbled, "/driver/block_histograms", 8, "\x7f\x7f\x7f");
  expect_refused(scribbled, {"damaged"});
}

TEST_F(MucaCheckpointIntegrity, RefusesBinsOutsideTheRangeOrUnlikeTheSpins) {
  Checkpoint c = state();
  c.model.bins[3] = 99;  // L = 6: bins 0..36; would index the weight tables out of bounds
  expect_refused(written("range.ckpt", c), {"/model/bins[3] = 99", "outside", "0..36"});
  c = state();
  c.model.bins[2] = c.model.bins[2] == 36 ? 35 : c.model.bins[2] + 1;
  expect_refused(written("bin.ckpt", c), {"/model/bins[2]", "spins"});
  c = state();
  c.model.spins[4] ^= 1u << 7;  // word 0 of walker 4: site 7 flipped, two bonds changed
  expect_refused(written("spin.ckpt", c), {"/model/bins[4]", "spins"});
  c = state();
  c.model.log_weights[6] = std::numeric_limits<double>::quiet_NaN();
  expect_refused(written("nan.ckpt", c), {"/model/log_weights[6]", "not finite"});
}

TEST_F(MucaCheckpointIntegrity, RefusesCountersThatDisagree) {
  Checkpoint c = state();
  c.model.step += 1;
  expect_refused(written("step.ckpt", c), {"/model/step", "attempts per walker"});
  c = state();
  c.driver.records[1].histogram[5] += 1;
  expect_refused(written("histogram.ckpt", c), {"row 1 of /driver/iterations/histogram"});
  c = state();
  c.driver.block_histograms[1][4] += 1;
  expect_refused(written("block.ckpt", c), {"row 1 of /driver/block_histograms"});
  c = state();
  c.driver.records.pop_back();
  expect_refused(written("records.ckpt", c), {"/driver attribute iteration = 3", "holds 2"});
}

// A checkpoint of the generic engine: the 2D Potts model with q = 3, two bits per site.
const Checkpoint& potts_state() {
  static const Checkpoint c = [] {
    Hamiltonian h;
    h.kind = HamiltonianKind::potts;
    h.q = 3;
    h.L = 5;
    Simulation<TestSpace, SpinMuca<TestSpace>> sim(TestSpace(), small(), {}, &h);
    while (!sim.iterations_exhausted()) sim.iterate();
    sim.production_block();
    return sim.checkpoint();
  }();
  return c;
}

TEST_F(MucaCheckpointIntegrity, APottsCheckpointReadsBackWithItsModel) {
  const std::string path = written("potts.ckpt", potts_state());
  const Checkpoint c = read_checkpoint(path);
  EXPECT_EQ(c.model.kind, HamiltonianKind::potts);
  EXPECT_EQ(c.model.q, 3);
  EXPECT_EQ(c.model.L, 5);
  EXPECT_EQ(c.model.spins, potts_state().model.spins);
  // Another q is another model: the run refuses to continue from it.
  Hamiltonian four;
  four.kind = HamiltonianKind::potts;
  four.q = 4;
  four.L = 5;
  Simulation<TestSpace, SpinMuca<TestSpace>> sim(TestSpace(), small(), {}, &four);
  expect_error<std::invalid_argument>([&] { sim.restore(c); }, {"potts q = 3", "potts q = 4"});
  Simulation<TestSpace> ising(TestSpace(), small());
  expect_error<std::invalid_argument>([&] { ising.restore(c); }, {"potts q = 3", "2D Ising"});
}

TEST_F(MucaCheckpointIntegrity, RefusesPottsStatesOutsideTheModel) {
  Checkpoint c = potts_state();
  // Site 0 of walker 0 in state 3, which q = 3 does not have (2 bits hold 0..3).
  c.model.spins[0] |= 3u;
  expect_refused(written("state.ckpt", c), {"walker 0", "outside 0..2"});
  c = potts_state();
  c.model.bins[1] = c.model.bins[1] == 0 ? 4 : 0;
  expect_refused(written("bin.ckpt", c), {"/model/bins[1]", "spins"});
  c = potts_state();
  c.model.L = 6;  // 72 bonds: 73 bins, 36 sites in 3 words per walker
  expect_refused(written("size.ckpt", c), {"potts q = 3 on the 6 x 6", "need 73"});
  c = potts_state();
  c.model.q = 11;
  expect_refused(written("q.ckpt", c), {"model.q"});
}

// Blume-Capel at beta = 0.8 after a production block that measured the order parameter: the
// state and the measurement sums read back, another beta is another model, and bins unlike
// the spins or order sums of the wrong size are refused.
const Checkpoint& blume_capel_state() {
  static const Checkpoint c = [] {
    const Hamiltonian h = make_hamiltonian(HamiltonianKind::blume_capel, 2, 5, 2, 0.8);
    Simulation<TestSpace, SpinMuca<TestSpace>> sim(TestSpace(), small(), {}, &h);
    while (!sim.iterations_exhausted()) sim.iterate();
    sim.production_block();
    return sim.checkpoint();
  }();
  return c;
}

TEST_F(MucaCheckpointIntegrity, ABlumeCapelCheckpointReadsBackWithItsBeta) {
  const Checkpoint& saved = blume_capel_state();
  ASSERT_GT(saved.driver.order_interval, 0u);
  ASSERT_FALSE(saved.driver.group_order_sums.empty());
  const Checkpoint c = read_checkpoint(written("bc.ckpt", saved));
  EXPECT_EQ(c.model.kind, HamiltonianKind::blume_capel);
  EXPECT_EQ(c.model.beta, 0.8);
  EXPECT_EQ(c.model.spins, saved.model.spins);
  EXPECT_EQ(c.driver.group_order_sums, saved.driver.group_order_sums);
  EXPECT_EQ(c.driver.order_interval, saved.driver.order_interval);
  // 7 walker groups, fewer than 16: the errors will come from time bins, so each block's sums
  // are kept too.
  ASSERT_EQ(saved.driver.block_order_sums.size(), 1u);
  EXPECT_EQ(c.driver.block_order_sums, saved.driver.block_order_sums);
  const Hamiltonian warmer = make_hamiltonian(HamiltonianKind::blume_capel, 2, 5, 2, 0.7);
  Simulation<TestSpace, SpinMuca<TestSpace>> sim(TestSpace(), small(), {}, &warmer);
  expect_error<std::invalid_argument>([&] { sim.restore(c); }, {"beta = 0.8", "beta = 0.7"});
}

TEST_F(MucaCheckpointIntegrity, RefusesBlumeCapelDamage) {
  Checkpoint c = blume_capel_state();
  c.model.spins[0] |= 3u;  // state 3: no spin of -1, 0, +1
  expect_refused(written("state.ckpt", c), {"walker 0", "outside 0..2"});
  c = blume_capel_state();
  c.model.bins[2] = c.model.bins[2] == 0 ? 1 : c.model.bins[2] - 1;
  expect_refused(written("bin.ckpt", c), {"/model/bins[2]", "spins"});
  c = blume_capel_state();
  c.driver.group_order_sums.resize(c.driver.group_order_sums.size() - kOrderSlots);  // a row
  expect_refused(written("sums.ckpt", c), {"/driver/group_order_sums"});
}

}  // namespace

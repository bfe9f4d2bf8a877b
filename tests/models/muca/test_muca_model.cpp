// The multicanonical Ising kernels on each backend (TestSpace): energy bookkeeping,
// reproducibility (same seed, scratch vs global lattices, and a fixed checksum that every
// backend must reproduce), and the acceptance threshold. test_muca_backends.cpp compares the
// backends of one build with each other.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "fixed_run.hpp"
#include "portamc/muca/detail/ising_muca.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::muca;
using namespace portamc::muca::test_runs;

TEST(MucaModel, TrackedEnergiesMatchSpins) {
  for (auto storage : {LatticeStorage::automatic, LatticeStorage::global}) {
    IsingMuca<TestSpace> model(TestSpace(), small(6, 33, storage));
    EXPECT_EQ(model.walker_bins(), model.recomputed_bins());
    model.set_log_weights(exact_weights(6));
    model.thermalise(5000);
    EXPECT_EQ(model.walker_bins(), model.recomputed_bins());
  }
}

TEST(MucaModel, HistogramCountsEveryAttempt) {
  IsingMuca<TestSpace> model(TestSpace(), small(4, 5));
  const auto h = model.sample(1000);
  portamc::count_type total = 0;
  for (auto c : h) total += c;
  EXPECT_EQ(total, 5u * 1000u);
  const EnergyBins bins(4);
  EXPECT_EQ(h[1], 0u);  // E = -2N + 4 is impossible on the torus
  EXPECT_EQ(h[bins.N - 1], 0u);
}

TEST(MucaModel, SameSeedGivesBitwiseIdenticalRuns) {
  std::vector<portamc::count_type> h1, h2;
  const auto a = run_fixed(TestSpace(), LatticeStorage::automatic, &h1);
  const auto b = run_fixed(TestSpace(), LatticeStorage::automatic, &h2);
  EXPECT_EQ(a.spins, b.spins);
  EXPECT_EQ(a.bins, b.bins);
  EXPECT_EQ(h1, h2);
}

TEST(MucaModel, LatticeStorageDoesNotChangeTheTrajectory) {
  std::vector<portamc::count_type> h1, h2;
  const auto a = run_fixed(TestSpace(), LatticeStorage::automatic, &h1);
  const auto b = run_fixed(TestSpace(), LatticeStorage::global, &h2);
  EXPECT_EQ(a.spins, b.spins);
  EXPECT_EQ(h1, h2);
}

// Lockstep groups (GPU pairs, CPU groups of 8, remainders) are a schedule, not an algorithm.
TEST(MucaModel, WalkersPerThreadDoesNotChangeTheTrajectory) {
  std::vector<portamc::count_type> h1, h2;
  const auto a = run_fixed(TestSpace(), LatticeStorage::automatic, &h1, 1);
  for (int per_thread : {2, 3, 8}) {
    const auto b = run_fixed(TestSpace(), LatticeStorage::automatic, &h2, per_thread);
    EXPECT_EQ(a.spins, b.spins) << per_thread;
    EXPECT_EQ(a.bins, b.bins) << per_thread;
    EXPECT_EQ(h1, h2) << per_thread;
  }
}

// Every backend (Serial, OpenMP, CUDA) of every build must land on this state: the value was
// computed by the Serial build and is checked unchanged on the others (docs/performance.md
// lists runs).
TEST(MucaModel, StateChecksumIsTheSameInEveryBuild) {
  const auto s = run_fixed(TestSpace(), LatticeStorage::automatic);
  EXPECT_EQ(fnv1a(s), 0xc1e2ed7169ccdce9ULL) << std::hex << "checksum 0x" << fnv1a(s);
}

TEST(MucaModel, AcceptanceThresholds) {
  EXPECT_EQ(acceptance_threshold(0.0, 0.0), std::uint32_t{1} << 31);
  EXPECT_EQ(acceptance_threshold(0.0, 3.0), std::uint32_t{1} << 31);
  EXPECT_EQ(acceptance_threshold(0.0, std::log(0.5)), std::uint32_t{1} << 30);
  EXPECT_EQ(acceptance_threshold(0.0, -100.0), 0u);
}

TEST(MucaModel, RestoreRejectsForeignState) {
  IsingMuca<TestSpace> a(TestSpace(), small(4, 3)), b(TestSpace(), small(6, 3));
  EXPECT_THROW(b.restore(a.state()), std::invalid_argument);
}

TEST(MucaModel, RejectsBadParameters) {
  EXPECT_THROW(IsingMuca<TestSpace>(TestSpace(), small(5, 3)), std::invalid_argument);
  EXPECT_THROW(IsingMuca<TestSpace>(TestSpace(), small(2, 3)), std::invalid_argument);
  EXPECT_THROW(IsingMuca<TestSpace>(TestSpace(), small(4, -1)), std::invalid_argument);
  // Far more lattices than any machine holds: a clear error before allocating.
  EXPECT_THROW(IsingMuca<TestSpace>(TestSpace(), small(256, 1LL << 29)), std::invalid_argument);
}

}  // namespace

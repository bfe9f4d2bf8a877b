// The multicanonical Ising kernels: energy bookkeeping, reproducibility (same seed,
// scratch vs global lattices, default vs host backend, and a fixed checksum that every
// build must reproduce), and the acceptance threshold.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/ising_exact.hpp"

namespace {

using namespace portamc::muca;

Parameters small(int L, long long walkers, LatticeStorage storage = LatticeStorage::automatic) {
  Parameters p;
  p.L = L;
  p.walkers = walkers;
  p.seed = 12345;
  p.storage = storage;
  return p;
}

// Exact multicanonical weights ln W = -ln g for L <= 8, finite everywhere.
std::vector<double> exact_weights(int L) {
  auto lnw = exact::log_dos_transfer_matrix(L);
  for (double& v : lnw) v = std::isfinite(v) ? -v : 0.0;
  return lnw;
}

std::uint64_t fnv1a(const ModelState& s) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ULL;
  };
  for (auto w : s.spins) mix(w);
  for (auto b : s.bins) mix(static_cast<std::uint32_t>(b));
  mix(s.step);
  return h;
}

template <class Space>
ModelState run_fixed(LatticeStorage storage, std::vector<portamc::count_type>* hist = nullptr,
                     int walkers_per_thread = 0) {
  Parameters p = small(8, 37, storage);
  p.walkers_per_thread = walkers_per_thread;
  IsingMuca<Space> model(p);
  model.set_log_weights(exact_weights(8));
  model.thermalise(1001);
  auto h = model.sample(777);
  if (hist) *hist = h;
  return model.state();
}

TEST(MucaModel, TrackedEnergiesMatchSpins) {
  for (auto storage : {LatticeStorage::automatic, LatticeStorage::global}) {
    IsingMuca<> model(small(6, 33, storage));
    EXPECT_EQ(model.walker_bins(), model.recomputed_bins());
    model.set_log_weights(exact_weights(6));
    model.thermalise(5000);
    EXPECT_EQ(model.walker_bins(), model.recomputed_bins());
  }
}

TEST(MucaModel, HistogramCountsEveryAttempt) {
  IsingMuca<> model(small(4, 5));
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
  const auto a = run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::automatic, &h1);
  const auto b = run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::automatic, &h2);
  EXPECT_EQ(a.spins, b.spins);
  EXPECT_EQ(a.bins, b.bins);
  EXPECT_EQ(h1, h2);
}

TEST(MucaModel, LatticeStorageDoesNotChangeTheTrajectory) {
  std::vector<portamc::count_type> h1, h2;
  const auto a = run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::automatic, &h1);
  const auto b = run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::global, &h2);
  EXPECT_EQ(a.spins, b.spins);
  EXPECT_EQ(h1, h2);
}

// Lockstep groups (GPU pairs, CPU groups of 8, remainders) are a schedule, not an algorithm.
TEST(MucaModel, WalkersPerThreadDoesNotChangeTheTrajectory) {
  std::vector<portamc::count_type> h1, h2;
  const auto a = run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::automatic, &h1, 1);
  for (int per_thread : {2, 3, 8}) {
    const auto b =
        run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::automatic, &h2, per_thread);
    EXPECT_EQ(a.spins, b.spins) << per_thread;
    EXPECT_EQ(a.bins, b.bins) << per_thread;
    EXPECT_EQ(h1, h2) << per_thread;
  }
}

TEST(MucaModel, DefaultAndHostBackendsAgreeBitwise) {
  std::vector<portamc::count_type> h1, h2;
  const auto a = run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::automatic, &h1);
  const auto b = run_fixed<Kokkos::DefaultHostExecutionSpace>(LatticeStorage::automatic, &h2);
  EXPECT_EQ(a.spins, b.spins);
  EXPECT_EQ(a.bins, b.bins);
  EXPECT_EQ(h1, h2);
}

// Serial, OpenMP and CUDA builds must all land on this state: the value was computed by
// the Serial build and is checked unchanged on the others (docs/performance.md lists runs).
TEST(MucaModel, StateChecksumIsTheSameInEveryBuild) {
  const auto s = run_fixed<Kokkos::DefaultExecutionSpace>(LatticeStorage::automatic);
  EXPECT_EQ(fnv1a(s), 0xc1e2ed7169ccdce9ULL) << std::hex << "checksum 0x" << fnv1a(s);
}

TEST(MucaModel, AcceptanceThresholds) {
  EXPECT_EQ(acceptance_threshold(0.0, 0.0), std::uint32_t{1} << 31);
  EXPECT_EQ(acceptance_threshold(0.0, 3.0), std::uint32_t{1} << 31);
  EXPECT_EQ(acceptance_threshold(0.0, std::log(0.5)), std::uint32_t{1} << 30);
  EXPECT_EQ(acceptance_threshold(0.0, -100.0), 0u);
}

TEST(MucaModel, RestoreRejectsForeignState) {
  IsingMuca<> a(small(4, 3)), b(small(6, 3));
  EXPECT_THROW(b.restore(a.state()), std::invalid_argument);
}

TEST(MucaModel, RejectsBadParameters) {
  EXPECT_THROW(IsingMuca<>(small(5, 3)), std::invalid_argument);
  EXPECT_THROW(IsingMuca<>(small(2, 3)), std::invalid_argument);
  EXPECT_THROW(IsingMuca<>(small(4, -1)), std::invalid_argument);
  // Far more lattices than any machine holds: a clear error before allocating.
  EXPECT_THROW(IsingMuca<>(small(256, 1LL << 29)), std::invalid_argument);
}

}  // namespace

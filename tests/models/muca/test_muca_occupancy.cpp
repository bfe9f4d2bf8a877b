// Parameters::occupancy limits how many threads of the sweep kernel stay resident per GPU
// multiprocessor (portamc/occupancy.hpp). It is a performance knob only: on every backend the
// chain, the plain and grouped histograms and the final states must be those of the unlimited
// launch, for lattices in global memory and in team scratch, in both engines. Out-of-range
// percentages are refused with the key's name.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamiltonian_cases.hpp"
#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/detail/spin_muca.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::muca;

Parameters walkers_at(int occupancy, LatticeStorage storage) {
  Parameters p;
  p.L = 8;
  p.walkers = 700;  // several teams, the last one partial
  p.seed = 31;
  p.walker_groups = 5;
  p.storage = storage;
  p.occupancy = occupancy;
  return p;
}

std::vector<double> tilted_weights(int count) {
  std::vector<double> w(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) w[k] = -0.25 * k + 0.03 * k * k / count + 0.1 * std::cos(k);
  return w;
}

struct Outcome {
  std::vector<portamc::count_type> plain, grouped;
  std::vector<std::uint32_t> spins;
  std::vector<std::int32_t> bins;
};

template <class Engine, class Make>
Outcome run(const Make& make) {
  Engine engine = make();
  Outcome out;
  engine.set_log_weights(tilted_weights(static_cast<int>(engine.log_weights().size())));
  engine.thermalise(301);
  out.plain = engine.sample(257);
  out.grouped = engine.sample_by_group(263);
  out.spins = engine.state().spins;
  out.bins = engine.walker_bins();
  return out;
}

template <class Engine, class Make>
void expect_same_chain(const Make& make_at) {
  for (const auto storage : {LatticeStorage::automatic, LatticeStorage::global}) {
    const auto reference = run<Engine>([&] { return make_at(0, storage); });
    for (const int occupancy : {13, 25, 50, 100}) {
      const auto limited = run<Engine>([&] { return make_at(occupancy, storage); });
      const std::string what = "occupancy " + std::to_string(occupancy) +
                               (storage == LatticeStorage::global ? ", global" : ", automatic");
      EXPECT_EQ(limited.plain, reference.plain) << what;
      EXPECT_EQ(limited.grouped, reference.grouped) << what;
      EXPECT_EQ(limited.spins, reference.spins) << what;
      EXPECT_EQ(limited.bins, reference.bins) << what;
    }
  }
}

TEST(MucaOccupancy, IsingMucaRunsTheSameChainAtEveryOccupancy) {
  using Engine = IsingMuca<TestSpace>;
  expect_same_chain<Engine>([](int occupancy, LatticeStorage storage) {
    return Engine(TestSpace(), walkers_at(occupancy, storage));
  });
}

TEST(MucaOccupancy, SpinMucaRunsTheSameChainAtEveryOccupancy) {
  using Engine = SpinMuca<TestSpace>;
  const Hamiltonian potts = muca_test::model(HamiltonianKind::potts, 2, 8, 10);
  expect_same_chain<Engine>([&](int occupancy, LatticeStorage storage) {
    return Engine(TestSpace(), walkers_at(occupancy, storage), potts);
  });
}

// The automatic plan limits GPU launches whose lattices live in global memory (to enlarge L1,
// ising_muca.hpp) and no other; a user's value is kept; host backends never limit.
TEST(MucaOccupancy, TheAutomaticPlanLimitsOnlyGlobalLatticesOnGpus) {
  constexpr bool gpu = portamc::is_device_space_v<TestSpace>;
  const Hamiltonian potts = muca_test::model(HamiltonianKind::potts, 2, 8, 10);
  for (const auto storage : {LatticeStorage::scratch, LatticeStorage::global}) {
    const int automatic = gpu && storage == LatticeStorage::global ? global_lattice_occupancy : 0;
    IsingMuca<TestSpace> ising(TestSpace(), walkers_at(0, storage));
    SpinMuca<TestSpace> spin(TestSpace(), walkers_at(0, storage), potts);
    EXPECT_EQ(ising.plan().occupancy, automatic);
    EXPECT_EQ(spin.plan().occupancy, automatic);
    IsingMuca<TestSpace> chosen(TestSpace(), walkers_at(37, storage));
    EXPECT_EQ(chosen.plan().occupancy, gpu ? 37 : 0);
  }
}

TEST(MucaOccupancy, OutOfRangeIsRefusedByName) {
  for (const int bad : {-1, 101}) {
    try {
      IsingMuca<TestSpace> engine(TestSpace(), walkers_at(bad, LatticeStorage::automatic));
      ADD_FAILURE() << "occupancy " << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("model.occupancy"), std::string::npos) << e.what();
    }
  }
}

}  // namespace

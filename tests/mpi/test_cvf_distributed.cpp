// CVF water split into z-slabs over the MPI ranks (DistributedSimulation), run by ctest under
// mpiexec -n 2 and -n 4: every rank also runs the one-rank Simulation in full, and the
// distributed chain must match it bit for bit (configurations) and exactly (measurements),
// with the volume move, the eta update and each Metropolis kernel; checkpoints restart across
// rank counts (1 -> R and R -> 1); lattices the ranks cannot split are refused on every rank.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cvf_chain_compare.hpp"
#include "portamc/cvf/detail/decomposition.hpp"

namespace {

using namespace portamc::cvf;
using portamc::cvf::testing::transport_under_test;
using portamc::parallel::Communicator;
using portamc::parallel::world;
// The MPI tests run on the default execution space (one GPU per rank on GPU builds).
using Space = Kokkos::DefaultExecutionSpace;

SimulationSettings settings(int L, MetropolisKernel kernel, std::uint64_t seed) {
  SimulationSettings s;
  s.L = L;
  s.seed = seed;
  s.initial_v_iso = 1.2;
  s.volume.delta = 0.05;
  s.metropolis_kernel = kernel;
  return s;
}

// 220 K, 0.1 MPa: hydrogen bonds form (J_eff > 0 acts), the volume move is accepted often.
const StatePoint cold{220.0, 0.1};

TEST(CvfDistributed, MetropolisChainsMatchOneRank) {
  const Communicator comm = world();
  for (const MetropolisKernel kernel : {MetropolisKernel::per_cell, MetropolisKernel::packed}) {
    for (const int L : {8, 16}) {
      const int steps = L == 8 ? 24 : 10;
      const std::int64_t accepted = portamc::cvf::testing::expect_same_chain(
          Space(), ModelParameters{}, cold, settings(L, kernel, 100 + L), comm, steps);
      EXPECT_GT(accepted, 0) << "the volume move never acted";
    }
  }
}

// An ordered start (every sigma 0, every cube 0) at a low temperature and a high one: other
// acceptance regimes, the same identity.
TEST(CvfDistributed, OrderedStartAndHotChainsMatchOneRank) {
  const Communicator comm = world();
  SimulationSettings s = settings(8, MetropolisKernel::packed, 7);
  s.initial = InitialState::ordered;
  portamc::cvf::testing::expect_same_chain(Space(), ModelParameters{}, StatePoint{190.0, 160.0}, s,
                                           comm, 8);
  s = settings(8, MetropolisKernel::per_cell, 8);
  portamc::cvf::testing::expect_same_chain(Space(), ModelParameters{}, StatePoint{400.0, -300.0}, s,
                                           comm, 8);
}

// Volume moves across the gas threshold (v_iso = 2 v0): there the move needs the global N_HB
// (a sum over the ranks inside the move), and the tables switch between J_eff and 0.
TEST(CvfDistributed, VolumeMovesAcrossTheGasThresholdMatchOneRank) {
  const Communicator comm = world();
  SimulationSettings s = settings(8, MetropolisKernel::per_cell, 12);
  // The chain settles near v_iso = 1.22 here: a threshold just below the start is crossed.
  s.initial_v_iso = 1.24;
  s.volume.delta = 0.03;
  ModelParameters model{};
  model.gas_threshold = 1.23;
  const StatePoint point{300.0, -50.0};
  Simulation<Space> one(Space(), model, point, s);
  DistributedSimulation<Space> many(Space(), model, point, s, comm, transport_under_test());
  int gas = 0, liquid = 0;
  for (int k = 1; k <= 60 && !::testing::Test::HasFailure(); ++k) {
    one.step();
    many.step();
    const Measurement m = many.measure();
    portamc::cvf::testing::expect_same_measurement(one.measure(), m,
                                                   "gas threshold, step " + std::to_string(k));
    (m.v_iso >= model.gas_threshold ? gas : liquid) += 1;
  }
  EXPECT_GT(gas, 0);
  EXPECT_GT(liquid, 0);
  const std::vector<std::uint8_t> sigma = many.gather_sigma();
  if (comm.is_root()) EXPECT_TRUE(sigma == one.state().sigma_to_host());
}

Checkpoint broadcast(Checkpoint c, const Communicator& comm) {
  comm.broadcast(c.sigma);
  comm.broadcast(c.cube_state);
  return c;
}

TEST(CvfDistributed, RestartsAcrossRankCounts) {
  const Communicator comm = world();
  for (const MetropolisKernel kernel : {MetropolisKernel::per_cell, MetropolisKernel::packed}) {
    const SimulationSettings s = settings(8, kernel, 31);
    // 1 -> R: a one-rank checkpoint continued on every rank count gives the one-rank chain.
    Simulation<Space> one(Space(), ModelParameters{}, cold, s);
    for (int k = 0; k < 4; ++k) one.step();
    DistributedSimulation<Space> many(Space(), ModelParameters{}, cold, s, comm,
                                      transport_under_test());
    many.restore(one.checkpoint());
    for (int k = 0; k < 4; ++k) {
      one.step();
      many.step();
    }
    portamc::cvf::testing::expect_same_measurement(one.measure(), many.measure(), "1 -> R");
    const Checkpoint a = many.checkpoint();
    if (comm.is_root()) {
      EXPECT_TRUE(a.sigma == one.state().sigma_to_host());
      EXPECT_TRUE(a.cube_state == one.state().cube_state_to_host());
    }
    EXPECT_EQ(a.step, one.state().step());
    // R -> 1: the gathered checkpoint, broadcast, continued on one rank (every rank runs it)
    // gives the distributed chain.
    Simulation<Space> back(Space(), ModelParameters{}, cold, s);
    back.restore(broadcast(a, comm));
    for (int k = 0; k < 4; ++k) {
      back.step();
      many.step();
    }
    portamc::cvf::testing::expect_same_measurement(back.measure(), many.measure(), "R -> 1");
    const Checkpoint b = many.checkpoint();
    if (comm.is_root()) {
      EXPECT_TRUE(b.sigma == back.state().sigma_to_host());
      EXPECT_TRUE(b.cube_state == back.state().cube_state_to_host());
    }
  }
}

// A lattice whose slabs would cut the cubes: every rank throws the same message.
TEST(CvfDistributed, UnsplittableLatticesAreRefusedOnEveryRank) {
  const Communicator comm = world();
  int bad = 0;
  for (int L = 4; L <= 64 && bad == 0; L += 4)
    if (L % comm.size() != 0 || (L / comm.size()) % 2 != 0) bad = L;
  if (bad == 0) GTEST_SKIP() << "every L splits over " << comm.size() << " ranks";
  std::string message;
  try {
    DistributedSimulation<Space> many(Space(), ModelParameters{}, cold,
                                      settings(bad, MetropolisKernel::packed, 1), comm);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("cannot be split over " + std::to_string(comm.size()) + " MPI ranks"),
            std::string::npos)
      << message;
  // Every rank failed alike (no rank is left waiting in a collective of the constructor).
  EXPECT_EQ(comm.sum(static_cast<std::int64_t>(message.empty() ? 0 : 1)), comm.size());
}

// ctest runs this file once more with PORTAMC_TEST_HALO_TRANSPORT=mpi_staged: the halos then
// travel through the staging buffers (the path of GPUs without a CUDA-aware MPI), and the
// chains above must match all the same.
TEST(CvfDistributed, HaloTransportIsTheOneAskedFor) {
  const Communicator comm = world();
  DistributedSimulation<Space> many(Space(), ModelParameters{}, cold,
                                    settings(8, MetropolisKernel::packed, 2), comm,
                                    transport_under_test());
  const std::string transport = many.halo_transport();
  if (comm.size() == 1)
    EXPECT_EQ(transport, "one rank");
  else if (transport_under_test() == portamc::parallel::HaloTransport::mpi_staged)
    EXPECT_EQ(transport, "mpi_staged");
  else
    EXPECT_NE(transport, "one rank");
}

// A transport the build cannot do is refused on every rank alike, before any work.
TEST(CvfDistributed, UnavailableHaloTransportIsRefused) {
  const Communicator comm = world();
  if (comm.size() == 1 || portamc::parallel::have_nccl())
    GTEST_SKIP() << "one rank, or NCCL is available";
  std::string message;
  try {
    DistributedSimulation<Space> many(Space(), ModelParameters{}, cold,
                                      settings(8, MetropolisKernel::packed, 2), comm,
                                      portamc::parallel::HaloTransport::nccl);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("parallel.halo_transport: nccl"), std::string::npos) << message;
  EXPECT_EQ(comm.sum(static_cast<std::int64_t>(message.empty() ? 0 : 1)), comm.size());
}

}  // namespace

#pragma once
// The CVF chain of DistributedSimulation (slabs over the ranks of `comm`) against the chain of
// the one-rank Simulation, which every rank runs in full: after every MC step the measurements
// must be identical (integer counts exactly, derived doubles bitwise), and at the end the
// gathered configuration must equal the one-rank configuration bit for bit. Used by the
// one-rank test (tests/models/cvf/test_cvf_decomposition.cpp, on every backend) and under
// mpiexec (on the default execution space).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "portamc/cvf/distributed_simulation.hpp"
#include "portamc/cvf/simulation.hpp"
#include "portamc/parallel.hpp"

namespace portamc::cvf::testing {

inline bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

inline void expect_same_measurement(const Measurement& one, const Measurement& many,
                                    const std::string& where) {
  EXPECT_EQ(one.step, many.step) << where;
  EXPECT_EQ(one.n_hb_raw, many.n_hb_raw) << where;
  EXPECT_EQ(one.n_hb, many.n_hb) << where;
  EXPECT_EQ(one.n_sigma, many.n_sigma) << where;
  for (int q = 0; q < arms; ++q) EXPECT_EQ(one.sigma_counts[q], many.sigma_counts[q]) << where;
  EXPECT_TRUE(same_bits(one.v_iso, many.v_iso)) << where << ": " << one.v_iso << " " << many.v_iso;
  EXPECT_TRUE(same_bits(one.enthalpy, many.enthalpy)) << where;
  EXPECT_TRUE(same_bits(one.order_parameter, many.order_parameter)) << where;
}

/// The halo transport the distributed chains of a test use: PORTAMC_TEST_HALO_TRANSPORT (set
/// by ctest for a second run over the staged path), else automatic.
inline parallel::HaloTransport transport_under_test() {
  const char* env = std::getenv("PORTAMC_TEST_HALO_TRANSPORT");
  return env == nullptr ? parallel::HaloTransport::automatic : parallel::parse_halo_transport(env);
}

/// Runs `steps` MC steps of both chains on `space`; returns the number of accepted volume moves
/// (so a caller can check that the move really acted).
template <class Space>
std::int64_t expect_same_chain(const Space& space, const ModelParameters& model,
                               const StatePoint& point, const SimulationSettings& settings,
                               const parallel::Communicator& comm, int steps) {
  Simulation<Space> one(space, model, point, settings);
  DistributedSimulation<Space> many(space, model, point, settings, comm, transport_under_test());
  const std::string label = "L = " + std::to_string(settings.L) + ", " +
                            to_string(settings.metropolis_kernel) + ", " +
                            std::to_string(comm.size()) + " ranks, step ";
  expect_same_measurement(one.measure(), many.measure(), label + "0");
  for (int k = 1; k <= steps; ++k) {
    one.step();
    many.step();
    expect_same_measurement(one.measure(), many.measure(), label + std::to_string(k));
    if (::testing::Test::HasFailure()) break;
  }
  // The maintained counters agree with a full recount of the slabs.
  const BondCounts kept = many.counts(), recount = many.recount_exact();
  EXPECT_EQ(kept.hb, recount.hb);
  EXPECT_EQ(kept.sigma, recount.sigma);
  const std::vector<std::uint8_t> sigma = many.gather_sigma();
  const std::vector<std::uint8_t> cubes = many.gather_cube_state();
  if (comm.is_root()) {
    EXPECT_TRUE(sigma == one.state().sigma_to_host()) << label << "end: sigma differs";
    EXPECT_TRUE(cubes == one.state().cube_state_to_host()) << label << "end: cubes differ";
  } else {
    EXPECT_TRUE(sigma.empty());
    EXPECT_TRUE(cubes.empty());
  }
  EXPECT_EQ(one.volume_acceptances(), many.volume_acceptances());
  return many.volume_acceptances();
}

}  // namespace portamc::cvf::testing

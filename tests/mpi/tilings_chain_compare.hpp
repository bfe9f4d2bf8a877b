#pragma once
// Helpers of test_tilings_distributed.cpp: run the distributed Glauber chain on the ranks of a
// communicator and, on every rank, the one-rank GlauberSampler on the whole domain, and
// compare the states bit for bit after each chunk of steps. (Kernels live in the library
// headers; nothing here is a device lambda.)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "portamc/halo_transport.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/distributed_glauber.hpp"

namespace portamc::tilings::testing {

// The MPI tests run on the default execution space.
using Space = Kokkos::DefaultExecutionSpace;

/// The halo transport of the distributed chains under test: PORTAMC_TEST_HALO_TRANSPORT (set
/// by ctest for a second run over the staged path), else automatic.
inline parallel::HaloTransport transport_under_test() {
  const char* env = std::getenv("PORTAMC_TEST_HALO_TRANSPORT");
  return env == nullptr ? parallel::HaloTransport::automatic : parallel::parse_halo_transport(env);
}

/// Returns the number of bytes that changed from the start (so a test can insist that the
/// chain moved). `chunks`: step counts run between two comparisons.
template <class Model>
std::int64_t expect_same_chain(const typename Model::Domain& domain,
                               const typename Model::Weights& weights, std::uint64_t seed,
                               Start start, UpdateRule rule,
                               const std::vector<std::uint64_t>& chunks,
                               const parallel::Communicator& comm,
                               ClassOrder order = ClassOrder::random) {
  GlauberSampler<Model, Space> one(Space(), domain, weights, seed, start, rule);
  DistributedGlauber<Model, Space> many(Space(), domain, weights, seed, comm, start, rule);
  many.set_halo_transport(transport_under_test());
  one.set_class_order(order);
  many.set_class_order(order);
  const auto initial = Model::bytes(one.tiling());
  EXPECT_EQ(Model::bytes(many.tiling()), initial) << "the start states differ";
  std::uint64_t steps = 0;
  for (const std::uint64_t n : chunks) {
    const std::uint64_t a = one.run_steps(n), b = many.run_steps(n);
    steps += n;
    EXPECT_EQ(a, b) << "flip attempts after step " << steps;
    const auto expected = Model::bytes(one.tiling());
    const auto got = Model::bytes(many.tiling());
    std::int64_t differ = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) differ += expected[i] != got[i] ? 1 : 0;
    EXPECT_EQ(differ, 0) << Model::name << " on " << comm.size() << " ranks: " << differ
                         << " bytes differ from one rank after " << steps << " steps";
    if (differ != 0) break;
  }
  EXPECT_EQ(one.steps_done(), many.steps_done());
  const auto last = Model::bytes(one.tiling());
  std::int64_t moved = 0;
  for (std::size_t i = 0; i < last.size(); ++i) moved += last[i] != initial[i] ? 1 : 0;
  return moved;
}

/// Densities over `samples` samples `sweeps` apart: rank 0's gathered densities must equal the
/// one-rank ones exactly.
/// Runs `samples` times `sweeps` sweeps of the one-rank chain `one` and the slab chain `many`
/// (same domain, weights and seed), accumulating densities after each, and expects the
/// densities gathered on rank 0 to equal the one-rank ones exactly.
template <class OneRank, class Slabs>
void expect_same_densities_of(OneRank& one, Slabs& many, int samples, int sweeps,
                              const parallel::Communicator& comm) {
  many.set_halo_transport(transport_under_test());
  for (int k = 0; k < samples; ++k) {
    one.run_sweeps(sweeps);
    many.run_sweeps(sweeps);
    one.accumulate_densities();
    many.accumulate_densities();
  }
  const TypeDensities a = one.densities();
  const TypeDensities b = many.densities_on_root();
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.cells, b.cells);
  if (comm.is_root()) {
    EXPECT_EQ(a.values, b.values);
  } else {
    EXPECT_TRUE(b.values.empty());
  }
}

template <class Model>
void expect_same_densities(const typename Model::Domain& domain,
                           const typename Model::Weights& weights, std::uint64_t seed, int samples,
                           int sweeps, const parallel::Communicator& comm) {
  GlauberSampler<Model, Space> one(Space(), domain, weights, seed);
  DistributedGlauber<Model, Space> many(Space(), domain, weights, seed, comm);
  expect_same_densities_of(one, many, samples, sweeps, comm);
}

}  // namespace portamc::tilings::testing

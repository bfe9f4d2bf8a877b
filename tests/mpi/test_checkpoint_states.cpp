// Checkpoints of portamc-josephson and portamc-muca across rank counts, in the libraries (ctest
// runs this under mpiexec -n 2 and -n 4): the states of the ranks' shares gathered on rank 0
// equal the state of one rank, and a run checkpointed on R ranks continues on one rank, and one
// checkpointed on one rank continues on R ranks, bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "portamc/josephson/detail/realisation_states.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/muca/simulation.hpp"
#include "portamc/parallel.hpp"

namespace {

using portamc::parallel::Communicator;
using portamc::parallel::share_of;
using portamc::parallel::world;
namespace pj = portamc::josephson;
namespace pm = portamc::muca;

// ---- josephson ---------------------------------------------------------------------------------

TEST(JosephsonStates, GatherJoinsTheSharesInOrder) {
  const Communicator comm = world();
  // 23 realisations: i % 4 = 0 in flight, 1 escaped, 2 censored, 3 not started.
  pj::RealisationStates all = pj::unstarted_realisations(23, 0.01);
  for (std::uint64_t i = 0; i < 23; ++i) {
    if (i % 4 == 1) all.results.outcome[i] = pj::Outcome::escaped;
    if (i % 4 == 2) all.results.outcome[i] = pj::Outcome::censored;
    if (i % 4 == 1 || i % 4 == 2) all.results.steps[i] = 100 + i;
    if (i % 4 != 0) continue;
    all.in_flight.push_back(i);
    all.in_flight_phi.push_back(0.5 * static_cast<double>(i));
    all.in_flight_v.push_back(-0.25 * static_cast<double>(i));
    all.in_flight_step.push_back(7 * i);
  }
  const auto share = share_of(23, comm);
  const pj::RealisationStates g =
      pj::gather_realisations(pj::select_realisations(all, share.begin, share.end), comm);
  if (!comm.is_root()) {
    EXPECT_EQ(g.size(), 0u);
    return;
  }
  EXPECT_EQ(g.results.steps, all.results.steps);
  EXPECT_TRUE(g.results.outcome == all.results.outcome);
  EXPECT_EQ(g.in_flight, all.in_flight);
  EXPECT_EQ(g.in_flight_phi, all.in_flight_phi);
  EXPECT_EQ(g.in_flight_v, all.in_flight_v);
  EXPECT_EQ(g.in_flight_step, all.in_flight_step);
}

/// Two temperatures, so that ranks can stop at different ensembles.
pj::ResolvedRun small_arrhenius() {
  pj::RunParameters p;
  p.mode = pj::RunMode::arrhenius;
  p.V0 = 1;
  p.beta = 0.2;
  p.gamma = 0.8;
  p.h = 0.01;
  p.thetas = {0.2, 0.25};
  p.max_steps = 4000;
  p.realisations = 61;
  p.seed = 19;
  p.ensemble.slots = 3;
  p.ensemble.steps_per_launch = 250;
  return pj::resolve(p);
}

using JosephsonSimulation = pj::Simulation<Kokkos::DefaultExecutionSpace>;

std::vector<pj::PointRecord> run_to_end(JosephsonSimulation& sim) {
  // Every rank calls gathered_points once every rank is done.
  const Communicator& comm = sim.communicator();
  while (comm.max(static_cast<std::uint64_t>(sim.done() ? 0 : 1)) != 0) sim.advance();
  return sim.gathered_points();
}

void expect_same(const std::vector<pj::PointRecord>& a, const std::vector<pj::PointRecord>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].results.steps, b[k].results.steps) << k;
    EXPECT_TRUE(a[k].results.outcome == b[k].results.outcome) << k;
    EXPECT_EQ(a[k].results.final_phi, b[k].results.final_phi) << k;
    EXPECT_EQ(a[k].results.final_v, b[k].results.final_v) << k;
  }
}

TEST(JosephsonStates, RunContinuesOnAnotherRankCount) {
  const Communicator comm = world();
  const pj::ResolvedRun run = small_arrhenius();
  JosephsonSimulation one(Kokkos::DefaultExecutionSpace(), run);  // on every rank, alone
  const std::vector<pj::PointRecord> reference = run_to_end(one);

  for (int launches : {6, 40}) {
    // R ranks -> one rank (on rank 0).
    JosephsonSimulation many(Kokkos::DefaultExecutionSpace(), run, comm);
    for (int i = 0; i < launches; ++i) many.advance();
    const pj::RunCheckpoint c = many.checkpoint();
    if (comm.is_root()) {
      JosephsonSimulation resumed(Kokkos::DefaultExecutionSpace(), run);
      resumed.restore(c);
      double finished = 0;
      for (const pj::PointProgress& p : c.points) finished += double(p.states.finished());
      EXPECT_GT(finished, 0);
      EXPECT_EQ(resumed.fraction_done(), finished / (2 * 61.0));
      expect_same(run_to_end(resumed), reference);
    }
    // One rank -> R ranks (every rank computes the one-rank checkpoint itself).
    JosephsonSimulation alone(Kokkos::DefaultExecutionSpace(), run);
    for (int i = 0; i < launches; ++i) alone.advance();
    JosephsonSimulation spread(Kokkos::DefaultExecutionSpace(), run, comm);
    spread.restore(alone.checkpoint());
    const std::vector<pj::PointRecord> points = run_to_end(spread);
    if (comm.is_root()) expect_same(points, reference);
  }
}

// ---- muca --------------------------------------------------------------------------------------

pm::Parameters small_muca() {
  pm::Parameters p;
  p.L = 6;
  p.walkers = 7;
  p.seed = 23;
  p.production_blocks = 3;
  p.production_updates_per_block = 400;
  p.max_iterations = 6;
  return p;
}

using MucaSimulation = pm::Simulation<Kokkos::DefaultExecutionSpace>;

void advance(MucaSimulation& sim, int units) {
  for (int i = 0; i < units; ++i) {
    if (!sim.converged() && !sim.iterations_exhausted())
      sim.iterate();
    else if (!sim.production_done())
      sim.production_block();
  }
}

void expect_same(const pm::DriverState& a, const pm::DriverState& b) {
  EXPECT_EQ(a.iteration, b.iteration);
  EXPECT_EQ(a.blocks_done, b.blocks_done);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (std::size_t k = 0; k < a.records.size(); ++k) {
    EXPECT_EQ(a.records[k].histogram, b.records[k].histogram) << k;
    EXPECT_EQ(a.records[k].log_weights_after, b.records[k].log_weights_after) << k;
  }
  EXPECT_EQ(a.block_histograms, b.block_histograms);
}

TEST(MucaStates, RunContinuesOnAnotherRankCount) {
  const Communicator comm = world();
  MucaSimulation one(Kokkos::DefaultExecutionSpace(), small_muca());
  advance(one, 100);
  ASSERT_TRUE(one.production_done());
  const pm::Checkpoint reference = one.checkpoint();

  for (int units : {2, 7}) {
    MucaSimulation many(Kokkos::DefaultExecutionSpace(), small_muca(), comm);
    advance(many, units);
    const pm::Checkpoint c = many.checkpoint();
    if (comm.is_root()) {
      EXPECT_EQ(c.model.walkers, 7);
      MucaSimulation resumed(Kokkos::DefaultExecutionSpace(), small_muca());
      resumed.restore(c);
      EXPECT_EQ(resumed.driver().iteration, c.driver.iteration);
      EXPECT_EQ(resumed.model().step(), c.model.step);
      advance(resumed, 100);
      const pm::Checkpoint end = resumed.checkpoint();
      expect_same(end.driver, reference.driver);
      EXPECT_EQ(end.model.spins, reference.model.spins);
      EXPECT_EQ(end.model.bins, reference.model.bins);
    }
    MucaSimulation alone(Kokkos::DefaultExecutionSpace(), small_muca());
    advance(alone, units);
    MucaSimulation spread(Kokkos::DefaultExecutionSpace(), small_muca(), comm);
    spread.restore(alone.checkpoint());
    EXPECT_EQ(spread.model().step(), alone.model().step());
    advance(spread, 100);
    const pm::Checkpoint end = spread.checkpoint();
    expect_same(end.driver, reference.driver);
    if (comm.is_root()) {
      EXPECT_EQ(end.model.spins, reference.model.spins);
      EXPECT_EQ(end.model.bins, reference.model.bins);
    }
  }
}

}  // namespace

// SU(2) domain decomposition under mpiexec -n 2 and -n 4 (and 8): heatbath and overrelaxation
// on a field split over the ranks give BITWISE the configuration of one rank updated with the
// same seed (every rank also runs the one-rank field and rank 0 compares), on several lattices
// and rank grids (split in 1, 2 and 3 directions, P_d = 2 and 4, the automatic grid); the
// plaquette and the Polyakov loop agree to rounding; loads and gathers round-trip; halo copies
// equal their owners; checkpoints continue on other rank counts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"
#include "portamc/su2/distributed_field.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/run.hpp"
#include "portamc/su2/run_output.hpp"
#include "portamc/su2/updater.hpp"

namespace {

using namespace portamc::su2;
using portamc::parallel::Communicator;
using portamc::parallel::world;
using Space = Kokkos::DefaultExecutionSpace;

struct Case {
  std::vector<int> extents;
  std::vector<int> grid;  // empty: automatic
};

std::string text(const std::vector<int>& v) {
  return v.empty() ? "auto" : Decomposition::text(v);
}

// The cases whose grid fits this many ranks.
std::vector<Case> cases_for(int ranks) {
  const std::vector<Case> all = {{{8, 8, 8, 8}, {1, 1, 1, 2}},
                                 {{8, 8, 8, 8}, {2, 1, 1, 1}},
                                 {{8, 8, 4, 8}, {1, 2, 1, 1}},
                                 {{8, 4, 8}, {1, 1, 2}},
                                 {{8, 4, 8}, {2, 1, 1}},
                                 {{6, 8}, {1, 2}},
                                 {{8, 6}, {2, 1}},
                                 {{8, 8, 8, 8}, {1, 1, 1, 4}},
                                 {{8, 8, 8, 8}, {1, 1, 2, 2}},
                                 {{8, 8, 8, 8}, {2, 1, 1, 2}},
                                 {{8, 8, 4, 8}, {2, 2, 1, 1}},
                                 {{8, 8, 8}, {1, 4, 1}},
                                 {{8, 8}, {2, 2}},
                                 {{16, 8}, {4, 1}},
                                 {{8, 8, 8, 8}, {2, 2, 2, 1}},
                                 {{4, 8, 8, 8}, {1, 2, 2, 2}},
                                 {{8, 8, 8}, {2, 2, 2}},
                                 {{8, 8, 8, 8}, {}},
                                 {{8, 8, 4, 8}, {}},
                                 {{8, 8}, {}}};
  std::vector<Case> out;
  for (const Case& c : all) {
    if (c.grid.empty()) {
      out.push_back(c);
      continue;
    }
    int product = 1;
    for (int p : c.grid) product *= p;
    if (product == ranks) out.push_back(c);
  }
  return out;
}

UpdateParameters parameters(double beta, std::uint64_t seed) {
  UpdateParameters p;
  p.beta = beta;
  p.seed = seed;
  p.heatbath_sweeps = 1;
  p.overrelaxation_sweeps = 1;
  return p;
}

// First differing number of two canonical configurations, or -1.
long long first_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return static_cast<long long>(i);
  return -1;
}

template <class Real>
void check_case(const Case& c, double beta, bool hot, bool overlap) {
  const Communicator comm = world();
  SCOPED_TRACE("lattice " + text(c.extents) + " grid " + text(c.grid) + " on " +
               std::to_string(comm.size()) + " ranks, " + (sizeof(Real) == 4 ? "float" : "double") +
               (hot ? ", hot" : ", cold") +
               (overlap ? ", overlapped exchange" : ", plain exchange"));
  ParallelOptions options;
  options.grid = c.grid;
  DistributedField<Space, Real> split(Space(), c.extents, comm, options);
  GaugeField<Space, Real> whole(Space(), c.extents);
  const std::uint64_t seed = 1234;
  if (hot) {
    split.hot_start(seed);
    whole.hot_start(seed);
  }
  const auto p = parameters(beta, 77);
  DistributedUpdater<Space, Real> split_updater(Space(), p);
  split_updater.set_overlap(overlap);
  Updater<Space, Real> whole_updater(Space(), p);
  for (int i = 0; i < 3; ++i) {
    split_updater.update(split);
    whole_updater.update(whole);
  }
  const std::vector<double> reference = whole.to_canonical();
  const std::vector<double> gathered = split.to_canonical();
  if (comm.is_root()) EXPECT_EQ(first_difference(gathered, reference), -1);
  const PlaquetteAverage a = split.plaquette(), b = whole.plaquette();
  EXPECT_NEAR(a.total, b.total, 1e-12 * std::fabs(b.total));
  EXPECT_NEAR(a.temporal, b.temporal, 1e-12 * std::fabs(b.temporal));
  if (c.extents.size() > 2) EXPECT_NEAR(a.spatial, b.spatial, 1e-12 * std::fabs(b.spatial));
  EXPECT_NEAR(split.action(beta), whole.action(beta), 1e-12 * std::fabs(whole.action(beta)));
  // An average of O(1) terms: absolute rounding.
  EXPECT_NEAR(split.polyakov_loop(), whole.polyakov_loop(), 1e-13);
  EXPECT_EQ(split_updater.tally(comm).failures, whole_updater.tally().failures);
  EXPECT_EQ(split_updater.tally(comm).links, whole_updater.tally().links);

  // Load the one-rank configuration (rank 0's copy only) and continue: still bitwise equal.
  DistributedField<Space, Real> loaded(Space(), c.extents, comm, options);
  loaded.from_canonical(comm.is_root() ? reference : std::vector<double>{});
  DistributedUpdater<Space, Real> loaded_updater(Space(), p);
  loaded_updater.set_heatbath_sweeps_done(whole_updater.heatbath_sweeps_done());
  loaded_updater.update(loaded);
  whole_updater.update(whole);
  const std::vector<double> continued = loaded.to_canonical();
  if (comm.is_root()) EXPECT_EQ(first_difference(continued, whole.to_canonical()), -1);
}

TEST(Su2Decomposed, BitwiseEqualToOneRankDouble) {
  for (const Case& c : cases_for(world().size())) {
    check_case<double>(c, 2.3, true, true);
    check_case<double>(c, 2.3, true, false);
  }
}

TEST(Su2Decomposed, BitwiseEqualToOneRankFloatColdStrongCoupling) {
  // Cold start at small beta: the Creutz branch and (float) the other rounding.
  for (const Case& c : cases_for(world().size())) check_case<float>(c, 0.7, false, true);
}

// Halo copies equal the links of the ranks that own them: after arbitrary writes to every
// padded link, an exchange rebuilds the halos that a load (cutting every padded block,
// halos included, from the whole lattice, without any exchange) puts there.
TEST(Su2Decomposed, ExchangedHalosMatchTheirOwners) {
  const Communicator comm = world();
  for (const Case& c : cases_for(comm.size())) {
    SCOPED_TRACE("lattice " + text(c.extents) + " grid " + text(c.grid));
    ParallelOptions options;
    options.grid = c.grid;
    DistributedField<Space, double> field(Space(), c.extents, comm, options);
    // Keyed by the padded link index: different on every rank, halos inconsistent.
    field.local().hot_start(6 + static_cast<std::uint64_t>(comm.rank()));
    field.exchange_halos();
    DistributedField<Space, double> loaded(Space(), c.extents, comm, options);
    loaded.from_canonical(field.to_canonical());
    EXPECT_EQ(first_difference(field.local().to_canonical(), loaded.local().to_canonical()), -1)
        << "rank " << comm.rank();
  }
}

TEST(Su2Decomposed, PaddedParityIsGlobalParityXorSplitCount) {
  const Communicator comm = world();
  for (const Case& c : cases_for(comm.size())) {
    ParallelOptions options;
    options.grid = c.grid;
    DistributedField<Space, double> field(Space(), c.extents, comm, options);
    const Decomposition& d = field.decomposition();
    const Geometry& g = field.geometry();
    const SubLattice e = field.embedding();
    const Geometry whole(c.extents);
    for (std::int64_t s = 0; s < g.volume(); ++s)
      ASSERT_EQ(g.parity(s) ^ d.parity_flip(), whole.parity(e.global_site(g, s)))
          << "grid " << text(c.grid) << " padded site " << s;
  }
}

RunParameters small_run() {
  RunParameters p;
  p.extents = {8, 8, 4, 8};
  p.betas = {2.3, 2.6};
  p.start = StartKind::hot;
  p.seed = 9;
  p.overrelaxation_sweeps = 1;
  p.thermalisation = 2;
  p.measurements = 4;
  p.wilson_r_max = 2;
  p.wilson_t_max = 2;
  p.potential = false;
  p.jackknife_blocks = 2;
  return p;
}

void run_to_end(Simulation& s) {
  while (!s.done()) s.advance();
}

// The records of two runs: equal bitwise except the plaquettes and Polyakov loops, combined
// over ranks (rounding).
void expect_same_records(const Simulation& a, const Simulation& b) {
  ASSERT_EQ(a.points().size(), b.points().size());
  for (std::size_t k = 0; k < a.points().size(); ++k) {
    const PointRecord &x = a.points()[k], &y = b.points()[k];
    EXPECT_EQ(x.step, y.step);
    ASSERT_EQ(x.polyakov.size(), y.polyakov.size());
    for (std::size_t i = 0; i < x.polyakov.size(); ++i)
      EXPECT_NEAR(x.polyakov[i], y.polyakov[i], 1e-13);
    EXPECT_EQ(x.wilson, y.wilson);
    EXPECT_EQ(x.heatbath_links, y.heatbath_links);
    EXPECT_EQ(x.heatbath_failures, y.heatbath_failures);
    ASSERT_EQ(x.plaquette.size(), y.plaquette.size());
    for (std::size_t i = 0; i < x.plaquette.size(); ++i)
      EXPECT_NEAR(x.plaquette[i], y.plaquette[i], 1e-12 * std::fabs(x.plaquette[i]));
  }
}

// A checkpoint holds the canonical configuration, so a run continues on any rank count:
// 1 -> R and R -> 1 ranks give bitwise the configuration of one uninterrupted rank.
TEST(Su2Decomposed, CheckpointsContinueOnAnyRankCount) {
  const Communicator comm = world();
  const RunParameters p = small_run();
  const std::string path = "su2_decomposed_np" + std::to_string(comm.size()) + ".checkpoint";
  Simulation reference(Space(), p);
  reference.start(nullptr);
  run_to_end(reference);
  const std::vector<double> expected = reference.configuration();

  // 1 -> R.
  {
    Simulation first(Space(), p);
    first.start(nullptr);
    for (int i = 0; i < 5; ++i) first.advance();
    if (comm.is_root()) write_checkpoint(path, first.checkpoint(), "test: 1 -> R");
    comm.barrier();
    Simulation second(Space(), p, comm);
    RunCheckpoint c = read_checkpoint(path);
    second.restore(c);
    run_to_end(second);
    const std::vector<double> got = second.configuration();
    if (comm.is_root()) EXPECT_EQ(first_difference(got, expected), -1);
    expect_same_records(reference, second);
    comm.barrier();
  }
  // R -> 1.
  {
    Simulation first(Space(), p, comm);
    first.start(nullptr);
    for (int i = 0; i < 7; ++i) first.advance();
    const RunCheckpoint c = first.checkpoint();
    if (comm.is_root()) write_checkpoint(path, c, "test: R -> 1");
    comm.barrier();
    Simulation second(Space(), p);
    second.restore(read_checkpoint(path));
    run_to_end(second);
    EXPECT_EQ(first_difference(second.configuration(), expected), -1);
    expect_same_records(reference, second);
    comm.barrier();
  }
  if (comm.is_root()) std::remove(path.c_str());
}

}  // namespace

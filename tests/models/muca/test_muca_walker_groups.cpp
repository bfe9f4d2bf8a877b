// Production histograms recorded per walker group (IsingMuca::sample_by_group): the groups
// partition the walkers by global index, group(w) = floor(w G / W), so their rows sum to the
// plain histogram, each row counts its walkers' attempts, and a rank holding a share of the
// walkers records exactly the rows' share of a single-rank run. Checked for team-scratch and
// global lattices, for team widths that straddle group boundaries, and for groups so much
// wider than teams that a team keeps one row and spills the rest to global memory.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/detail/spin_muca.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc;
using namespace portamc::muca;

// team_rows: host backends record through the GPU plan's team histogram rows too.
Parameters grouped(long long walkers, int groups, LatticeStorage storage, bool team_rows = false) {
  Parameters p;
  p.team_histogram_on_host = team_rows;
  p.L = 8;
  p.walkers = walkers;
  p.seed = 99;
  p.walker_groups = groups;
  p.storage = storage;
  return p;
}

std::vector<double> exact_weights() {
  auto lnw = exact::log_dos_transfer_matrix(8);
  for (double& v : lnw) v = std::isfinite(v) ? -v : 0.0;
  return lnw;
}

// Records `steps` attempts of `plain` and, by group, of `split` (two engines alike): each
// row counts its walkers' attempts, the rows sum to the plain histogram, and recording by
// group changes nothing in the trajectories.
template <class Engine>
std::vector<count_type> expect_rows_partition(Engine& plain, Engine& split, std::uint64_t steps) {
  const long long walkers = plain.walkers();
  const auto h = plain.sample(steps);
  const auto rows = split.sample_by_group(steps);
  const int groups = split.walker_groups();
  const std::size_t nbins = h.size();
  if (rows.size() != groups * nbins) {
    ADD_FAILURE() << rows.size() << " grouped counts for " << groups << " x " << nbins;
    return h;
  }
  std::vector<count_type> sum(nbins, 0);
  for (int g = 0; g < groups; ++g) {
    count_type row_total = 0;
    for (std::size_t k = 0; k < nbins; ++k) {
      sum[k] += rows[g * nbins + k];
      row_total += rows[g * nbins + k];
    }
    // Walkers w with floor(w G / W) = g: ceil((g+1) W / G) - ceil(g W / G).
    const long long members =
        ((g + 1) * walkers + groups - 1) / groups - (g * walkers + groups - 1) / groups;
    EXPECT_EQ(row_total, static_cast<count_type>(members) * steps) << "group " << g;
  }
  EXPECT_EQ(sum, h) << "groups " << groups;
  EXPECT_EQ(plain.state().spins, split.state().spins);
  return h;
}

TEST(MucaWalkerGroups, RowsPartitionTheHistogram) {
  for (auto storage : {LatticeStorage::automatic, LatticeStorage::global}) {
    for (int groups : {1, 7, 64}) {
      std::vector<count_type> first_plan;
      for (bool team_rows : {false, true}) {
        IsingMuca<TestSpace> plain(TestSpace(), grouped(300, groups, storage, team_rows)),
            split(TestSpace(), grouped(300, groups, storage, team_rows));
        for (auto* m : {&plain, &split}) {
          m->set_log_weights(exact_weights());
          m->thermalise(500);
        }
        EXPECT_EQ(split.walker_groups(), groups);
        const auto h = expect_rows_partition(plain, split, 333);
        if (first_plan.empty()) first_plan = h;
        EXPECT_EQ(h, first_plan) << "team rows " << team_rows << ", groups " << groups;
      }
    }
  }
}

TEST(MucaWalkerGroups, SharesOfTheWalkersRecordTheirRowsOfTheRun) {
  const long long walkers = 301;
  Parameters whole = grouped(walkers, 64, LatticeStorage::automatic);
  IsingMuca<TestSpace> all(TestSpace(), whole);
  all.set_log_weights(exact_weights());
  const auto full = all.sample_by_group(400);
  std::vector<count_type> sum(full.size(), 0);
  // Three ranks' shares, with boundaries that cut groups and teams.
  for (auto [begin, end] :
       {std::pair{0LL, 97LL}, std::pair{97LL, 250LL}, std::pair{250LL, 301LL}}) {
    Parameters p = whole;
    p.total_walkers = walkers;
    p.first_walker = begin;
    p.walkers = end - begin;
    IsingMuca<TestSpace> share(TestSpace(), p);
    // The shares start from the same spins as the whole run's walkers (RNG by global index).
    share.set_log_weights(exact_weights());
    const auto part = share.sample_by_group(400);
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += part[i];
  }
  EXPECT_EQ(sum, full);
}

// Groups much wider than teams: a team keeps one histogram row (team_group_rows), and the
// walkers of a straddling team's second group count in the global histogram. The rows must
// still partition the plain histogram exactly, in both engines, with global and scratch
// lattices (20000 walkers in 3 groups: boundaries inside teams of 64, 128 and 256).
// On host backends the team rows are forced (teams of 8 or 1 walkers there), so CI runs the
// spill too; both plans must give the same histogram.
template <class Engine, class Make>
void expect_wide_rows_partition(const Make& make) {
  std::vector<count_type> first_plan;
  for (bool team_rows : {false, true}) {
    Engine plain = make(team_rows), split = make(team_rows);
    for (Engine* m : {&plain, &split}) {
      std::vector<double> lnw(m->log_weights().size());
      for (std::size_t k = 0; k < lnw.size(); ++k) lnw[k] = -0.2 * k + 0.1 * std::sin(k);
      m->set_log_weights(lnw);
    }
    const auto h = expect_rows_partition(plain, split, 97);
    if (first_plan.empty()) first_plan = h;
    EXPECT_EQ(h, first_plan) << "team rows " << team_rows;
  }
}

TEST(MucaWalkerGroups, OneTeamRowKeepsTheRowsExactWhenGroupsAreWide) {
  EXPECT_EQ(team_group_rows(3, 20000, 256), 1);
  EXPECT_EQ(team_group_rows(64, 270336, 256), 1);  // the defaults on a GPU
  EXPECT_EQ(team_group_rows(64, 300, 256), 56);    // narrow: 255 * 64 / 300 + 2 spanned
  EXPECT_EQ(team_group_rows(1024, 270336, 256), 2);
  EXPECT_EQ(team_group_rows(1, 10, 256), 1);
  const portamc::muca::Hamiltonian potts =
      portamc::muca::make_hamiltonian(HamiltonianKind::potts, 2, 8, 3);
  for (auto storage : {LatticeStorage::automatic, LatticeStorage::global}) {
    expect_wide_rows_partition<IsingMuca<TestSpace>>([&](bool team_rows) {
      return IsingMuca<TestSpace>(TestSpace(), grouped(20000, 3, storage, team_rows));
    });
    expect_wide_rows_partition<SpinMuca<TestSpace>>([&](bool team_rows) {
      return SpinMuca<TestSpace>(TestSpace(), grouped(20000, 3, storage, team_rows), potts);
    });
  }
}

TEST(MucaWalkerGroups, RejectsBadGroupCounts) {
  EXPECT_THROW(IsingMuca<TestSpace>(TestSpace(), grouped(10, 0, LatticeStorage::automatic)),
               std::invalid_argument);
  EXPECT_THROW(IsingMuca<TestSpace>(TestSpace(), grouped(10, 5000, LatticeStorage::automatic)),
               std::invalid_argument);
  EXPECT_EQ(
      IsingMuca<TestSpace>(TestSpace(), grouped(10, 64, LatticeStorage::automatic)).walker_groups(),
      10);
}

}  // namespace

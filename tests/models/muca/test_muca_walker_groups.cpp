// Production histograms recorded per walker group (IsingMuca::sample_by_group): the groups
// partition the walkers by global index, group(w) = floor(w G / W), so their rows sum to the
// plain histogram, each row counts its walkers' attempts, and a rank holding a share of the
// walkers records exactly the rows' share of a single-rank run. Checked for team-scratch and
// global lattices and for team widths that straddle group boundaries.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc;
using namespace portamc::muca;

Parameters grouped(long long walkers, int groups, LatticeStorage storage) {
  Parameters p;
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

TEST(MucaWalkerGroups, RowsPartitionTheHistogram) {
  for (auto storage : {LatticeStorage::automatic, LatticeStorage::global}) {
    for (int groups : {1, 7, 64}) {
      const long long walkers = 300;
      IsingMuca<TestSpace> plain(TestSpace(), grouped(walkers, groups, storage)),
          split(TestSpace(), grouped(walkers, groups, storage));
      for (auto* m : {&plain, &split}) {
        m->set_log_weights(exact_weights());
        m->thermalise(500);
      }
      const auto h = plain.sample(333);
      const auto rows = split.sample_by_group(333);
      const int g_count = split.walker_groups();
      EXPECT_EQ(g_count, groups);
      const std::size_t nbins = h.size();
      ASSERT_EQ(rows.size(), g_count * nbins);
      std::vector<count_type> sum(nbins, 0);
      for (int g = 0; g < g_count; ++g) {
        count_type row_total = 0;
        for (std::size_t k = 0; k < nbins; ++k) {
          sum[k] += rows[g * nbins + k];
          row_total += rows[g * nbins + k];
        }
        // Walkers w with floor(w G / W) = g: ceil((g+1) W / G) - ceil(g W / G).
        const long long members =
            ((g + 1) * walkers + g_count - 1) / g_count - (g * walkers + g_count - 1) / g_count;
        EXPECT_EQ(row_total, static_cast<count_type>(members) * 333u) << "group " << g;
      }
      EXPECT_EQ(sum, h) << "groups " << groups;
      // Recording by group changes nothing in the trajectories.
      EXPECT_EQ(plain.state().spins, split.state().spins);
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

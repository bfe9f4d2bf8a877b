// Decomposition of a lattice over a rank grid (no MPI needed): grids chosen automatically,
// errors for grids that do not fit, block origins and extents, neighbours on the periodic rank
// grid, and the padded parity (global parity xor the number of split directions).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/su2/detail/decomposition.hpp"
#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/sub_lattice.hpp"

namespace {

using namespace portamc::su2;

std::string message_of(const std::vector<int>& extents, int ranks, const std::vector<int>& grid) {
  try {
    Decomposition d(extents, ranks, 0, grid);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Decomposition, OneRankIsTheWholeLattice) {
  const Decomposition d({8, 6, 4, 10});
  EXPECT_EQ(d.ranks(), 1);
  EXPECT_EQ(d.split_count(), 0);
  EXPECT_EQ(d.padded_extents(), (std::vector<int>{8, 6, 4, 10}));
  EXPECT_EQ(d.local_volume(), 8 * 6 * 4 * 10);
  EXPECT_EQ(d.neighbour(2, 1), 0);
}

TEST(Decomposition, AutomaticGridSplitsTheSlowestDirectionsFirst) {
  EXPECT_EQ(Decomposition::automatic_grid({8, 8, 8, 8}, 1), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(Decomposition::automatic_grid({8, 8, 8, 8}, 2), (std::vector<int>{1, 1, 1, 2}));
  // 1x1x1x4 and 1x1x2x2 have equal halos on 8^4: the slow split wins.
  EXPECT_EQ(Decomposition::automatic_grid({8, 8, 8, 8}, 4), (std::vector<int>{1, 1, 1, 4}));
  // Weak scaling of 48^4 blocks along time.
  EXPECT_EQ(Decomposition::automatic_grid({48, 48, 48, 192}, 4), (std::vector<int>{1, 1, 1, 4}));
  // 16 ranks on 64^4: 1x1x4x4 has half the halo of 1x1x1x16.
  EXPECT_EQ(Decomposition::automatic_grid({64, 64, 64, 64}, 16), (std::vector<int>{1, 1, 4, 4}));
  // Time too short to split: the next direction.
  EXPECT_EQ(Decomposition::automatic_grid({8, 8, 8, 2}, 2), (std::vector<int>{1, 1, 2, 1}));
  // 16x8 over 4: blocks 4x8 (halo 16 sites) beat 8x4 (24) and 16x2 (32).
  EXPECT_EQ(Decomposition::automatic_grid({16, 8}, 4), (std::vector<int>{4, 1}));
  EXPECT_THROW(Decomposition::automatic_grid({6, 6}, 4), std::invalid_argument);
  EXPECT_THROW(Decomposition::automatic_grid({8, 8}, 3), std::invalid_argument);
}

TEST(Decomposition, BadGridsAreRefusedNamingDirectionAndSizes) {
  EXPECT_NE(message_of({8, 8, 8, 8}, 2, {1, 1, 2}).find("3 entries"), std::string::npos);
  EXPECT_NE(message_of({8, 8, 8, 8}, 2, {1, 1, 2, 2}).find("has 4 blocks but the run has 2"),
            std::string::npos);
  EXPECT_NE(message_of({8, 8, 8, 6}, 4, {1, 1, 1, 4})
                .find("direction 3: N_3 = 6 is not divisible by P_3 = 4"),
            std::string::npos);
  EXPECT_NE(message_of({8, 8, 6, 8}, 2, {1, 1, 2, 1})
                .find("direction 2: the local extent N_2 / P_2 = 6 / 2 = 3 must be even"),
            std::string::npos);
  EXPECT_NE(message_of({8, 8, 8, 8}, 8, {8, 1, 1, 1}).find("= 1 must be even and >= 2"),
            std::string::npos);
  EXPECT_NE(message_of({8, 8, 8, 8}, 1, {0, 1, 1, 1}).find("must be >= 1"), std::string::npos);
  EXPECT_NO_THROW(Decomposition({8, 8, 8, 8}, 4, 3, {4, 1, 1, 1}));  // local extent 2 is fine
}

TEST(Decomposition, BlocksTileTheLatticeAndNeighboursArePeriodic) {
  const std::vector<int> extents{8, 4, 12, 8};
  const std::vector<int> grid{2, 1, 3, 2};
  std::set<std::vector<int>> origins;
  for (int r = 0; r < 12; ++r) {
    const Decomposition d(extents, 12, r, grid);
    EXPECT_EQ(d.rank_at(d.coordinates_of(r)), r);
    EXPECT_EQ(d.local_extents(), (std::vector<int>{4, 4, 4, 4}));
    EXPECT_EQ(d.padded_extents(), (std::vector<int>{6, 4, 6, 6}));
    EXPECT_EQ(d.split_count(), 3);
    EXPECT_EQ(d.parity_flip(), 1);
    EXPECT_EQ(d.split_mask(), 0b1101u);
    std::vector<int> o;
    for (int mu = 0; mu < 4; ++mu) o.push_back(d.origin(mu));
    origins.insert(o);
    for (int mu = 0; mu < 4; ++mu) {
      // Forward then backward is the identity; P_mu steps go round.
      const Decomposition f(extents, 12, d.neighbour(mu, 1), grid);
      EXPECT_EQ(f.neighbour(mu, -1), r);
      EXPECT_EQ(f.coordinate(mu), (d.coordinate(mu) + 1) % grid[mu]);
      for (int nu = 0; nu < 4; ++nu)
        if (nu != mu) EXPECT_EQ(f.coordinate(nu), d.coordinate(nu));
    }
  }
  EXPECT_EQ(origins.size(), 12u);
  // Rank order: direction 0 fastest.
  EXPECT_EQ(Decomposition(extents, 12, 1, grid).coordinate(0), 1);
  EXPECT_EQ(Decomposition(extents, 12, 2, grid).coordinate(2), 1);
  EXPECT_EQ(Decomposition(extents, 12, 6, grid).coordinate(3), 1);
}

// Padded parity = global parity xor (split directions mod 2), for every padded site of every
// rank (halos included, whose global sites wrap around), and the embedding's global link of an
// interior site equals the wrapped one.
TEST(Decomposition, PaddedParityAndGlobalSites) {
  struct Case {
    std::vector<int> extents, grid;
  };
  for (const Case& c : {Case{{8, 8, 8, 8}, {1, 1, 1, 2}}, Case{{8, 8, 8, 8}, {2, 1, 2, 1}},
                        Case{{8, 4, 8}, {2, 2, 2}}, Case{{8, 6}, {4, 1}}, Case{{8, 8}, {2, 2}}}) {
    int ranks = 1;
    for (int p : c.grid) ranks *= p;
    const Geometry whole(c.extents);
    std::set<Geometry::index_type> interior_sites;
    for (int r = 0; r < ranks; ++r) {
      const Decomposition d(c.extents, ranks, r, c.grid);
      const Geometry padded(d.padded_extents());
      const SubLattice e(d);
      for (Geometry::index_type s = 0; s < padded.volume(); ++s) {
        const Geometry::index_type g = e.global_site(padded, s);
        ASSERT_EQ(padded.parity(s) ^ d.parity_flip(), whole.parity(g))
            << "grid " << Decomposition::text(c.grid) << " rank " << r << " site " << s;
        const auto x = padded.coords(s);
        bool halo = false;
        for (int mu = 0; mu < d.dimensions(); ++mu)
          halo |= d.split(mu) && (x[mu] == 0 || x[mu] == padded.extent(mu) - 1);
        if (halo) continue;
        EXPECT_TRUE(interior_sites.insert(g).second) << "global site " << g << " owned twice";
        const int dims = d.dimensions();
        if (dims == 4) {
          const LatticeSite<4> at(padded, s);
          EXPECT_FALSE(e.outside(padded, at));
          EXPECT_EQ(e.global_link(padded, at, 3), g * 4 + 3);
        }
      }
    }
    EXPECT_EQ(static_cast<Geometry::index_type>(interior_sites.size()), whole.volume());
  }
}

}  // namespace

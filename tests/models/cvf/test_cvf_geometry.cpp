// The CVF lattice conventions: the nine cube states are exactly the perfect matchings of the
// cube, every edge lies in exactly one checkerboard cube, and every molecule keeps exactly four
// allowed bonds for any cube states.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <set>
#include <vector>

#include "portamc/cvf/geometry.hpp"
#include "test_cvf_support.hpp"

namespace cvf = portamc::cvf;

namespace {

// Corners joined by cube edge e = 4 axis + i (geometry.hpp's numbering).
std::pair<int, int> edge_corners(int e) {
  const int axis = e / 4, i = e % 4;
  const int bit = 1 << axis;
  const int u = axis == 0 ? 2 : 1, w = axis == 2 ? 2 : 4;
  const int v = ((i & 1) ? u : 0) + ((i & 2) ? w : 0);
  return {v, v | bit};
}

TEST(CvfGeometry, CubeStatesAreExactlyThePerfectMatchings) {
  std::set<unsigned> matchings;
  for (unsigned mask = 0; mask < (1u << 12); ++mask) {
    int degree[8] = {};
    for (int e = 0; e < 12; ++e)
      if ((mask >> e) & 1) {
        const auto [a, b] = edge_corners(e);
        ++degree[a];
        ++degree[b];
      }
    bool perfect = true;
    for (int d : degree) perfect = perfect && d == 1;
    if (perfect) matchings.insert(mask);
  }
  std::set<unsigned> states;
  for (int s = 0; s < cvf::cube_states; ++s) states.insert(cvf::forbidden_edges(s));
  EXPECT_EQ(matchings.size(), 9u);
  EXPECT_EQ(states, matchings);
}

TEST(CvfGeometry, RejectsSizesThatAreNotMultiplesOfFour) {
  for (int L : {0, 2, 6, 10, -4}) EXPECT_THROW(cvf::Geometry{L}, std::invalid_argument);
  EXPECT_NO_THROW(cvf::Geometry{4});
}

TEST(CvfGeometry, EveryEdgeLiesInExactlyOneCubeAtItsCornerPosition) {
  for (int L : {4, 8}) {
    const cvf::Geometry g(L);
    std::vector<int> seen(g.cubes() * 12, 0);
    for (int z = 0; z < L; ++z)
      for (int y = 0; y < L; ++y)
        for (int x = 0; x < L; ++x)
          for (int axis = 0; axis < 3; ++axis) {
            const auto ce = g.cube_edge({x, y, z}, axis);
            ASSERT_GE(ce.cube, 0);
            ASSERT_LT(ce.cube, g.cubes());
            ++seen[ce.cube * 12 + ce.edge];
            // The edge's lower end is the cube corner plus the corner offset of the edge.
            const auto corner = g.cube_corner(ce.cube);
            const int v = edge_corners(ce.edge).first;
            EXPECT_EQ(g.wrap(corner.x + (v & 1)), x);
            EXPECT_EQ(g.wrap(corner.y + ((v >> 1) & 1)), y);
            EXPECT_EQ(g.wrap(corner.z + ((v >> 2) & 1)), z);
            EXPECT_EQ(ce.edge / 4, axis);
          }
    for (int count : seen) EXPECT_EQ(count, 1);
  }
}

TEST(CvfGeometry, NeighboursAndArmsAreConsistent) {
  const cvf::Geometry g(8);
  for (std::int64_t cell = 0; cell < g.cells(); cell += 7) {
    for (int arm = 0; arm < cvf::arms; ++arm) {
      const auto n = g.neighbour(cell, arm);
      EXPECT_EQ(g.neighbour(n, cvf::opposite_arm(arm)), cell);
      EXPECT_NE(n, cell);
    }
  }
}

TEST(CvfGeometry, EveryMoleculeKeepsFourAllowedBondsForAnyCubeStates) {
  const int L = 8;
  const cvf::Geometry g(L);
  std::vector<int> states(g.cubes());
  unsigned lcg = 12345;
  for (int round = 0; round < 20; ++round) {
    for (auto& s : states) {
      lcg = lcg * 1664525u + 1013904223u;
      s = static_cast<int>((lcg >> 16) % cvf::cube_states);
    }
    const auto state = cvf::testing::host_cubes(states);
    for (int z = 0; z < L; ++z)
      for (int y = 0; y < L; ++y)
        for (int x = 0; x < L; ++x) {
          int allowed = 0;
          for (int arm = 0; arm < cvf::arms; ++arm) {
            const bool here = g.allowed(state, {x, y, z}, arm);
            allowed += here;
            // Both ends of an edge agree on whether it is allowed.
            const auto n = g.coordinates(g.neighbour(g.cell(x, y, z), arm));
            EXPECT_EQ(here, g.allowed(state, n, cvf::opposite_arm(arm)));
          }
          ASSERT_EQ(allowed, 4) << "cell " << x << "," << y << "," << z;
        }
  }
}

}  // namespace

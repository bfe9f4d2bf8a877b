// The slab decomposition of the CVF lattice (decomposition.hpp): slab arithmetic, every cell
// and cube owned by exactly one rank, the local cube/edge arithmetic against Geometry, the
// rank-count errors, and the slab kernels on one rank (halos filled from the own slab)
// against the one-rank Simulation bit for bit, on TestSpace (every backend of the build). The
// runs on 2 and 4 ranks are in tests/mpi.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../mpi/cvf_chain_compare.hpp"
#include "portamc/cvf/detail/decomposition.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::cvf;

struct Split {
  int L, ranks;
};
const Split valid_splits[] = {{4, 1}, {4, 2}, {8, 2}, {8, 4}, {12, 2}, {12, 6}, {16, 4}, {16, 8}};

TEST(CvfDecomposition, SlabArithmetic) {
  const SlabDecomposition d(16, 4, 2);
  EXPECT_EQ(d.thickness(), 4);
  EXPECT_EQ(d.first_plane(), 8);
  EXPECT_EQ(d.lower_rank(), 1);
  EXPECT_EQ(d.upper_rank(), 3);
  EXPECT_EQ(d.plane_cells(), 256);
  EXPECT_EQ(d.local_cells(), 256 * 6);
  EXPECT_EQ(d.owned_cells(), 256 * 4);
  EXPECT_EQ(d.owned_cell_begin() + d.cell_offset(), 8 * 256);  // first owned cell is global
  EXPECT_EQ(d.layer_cubes(), 128);
  EXPECT_EQ(d.local_cubes(), 128 * 3);
  EXPECT_EQ(d.owned_cube_begin() + d.cube_offset(), 4 * 128);
  const SlabDecomposition first(16, 4, 0), last(16, 4, 3);
  EXPECT_EQ(first.lower_rank(), 3);
  EXPECT_EQ(last.upper_rank(), 0);
  EXPECT_EQ(first.owner_of_plane(15), 3);
}

TEST(CvfDecomposition, EveryCellAndCubeIsOwnedOnce) {
  for (const Split& s : valid_splits) {
    const Geometry g(s.L);
    std::vector<int> cell_owners(g.cells(), 0), cube_owners(g.cubes(), 0);
    std::int64_t cells = 0, cubes = 0;
    for (int r = 0; r < s.ranks; ++r) {
      const SlabDecomposition d(s.L, s.ranks, r);
      for (std::int64_t c = 0; c < g.cells(); ++c) cell_owners[c] += d.owns_cell(c);
      for (std::int64_t c = 0; c < g.cubes(); ++c) cube_owners[c] += d.owns_cube(c);
      cells += d.owned_cells();
      cubes += d.owned_cubes();
      // The owned local ranges map onto the owned global ranges.
      EXPECT_TRUE(d.owns_cell(d.owned_cell_begin() + d.cell_offset()));
      EXPECT_TRUE(d.owns_cell(d.owned_cell_end() - 1 + d.cell_offset()));
      EXPECT_TRUE(d.owns_cube(d.owned_cube_begin() + d.cube_offset()));
      EXPECT_TRUE(d.owns_cube(d.owned_cube_end() - 1 + d.cube_offset()));
      // A cube is owned with the plane of its lower corner, and spans only owned planes or the
      // plane above the slab (the upper halo).
      for (std::int64_t c = 0; c < g.cubes(); ++c) {
        const Coordinates o = g.cube_corner(c);
        EXPECT_EQ(d.owns_cube(c), d.owner_of_plane(o.z) == r);
        if (d.owns_cube(c)) {
          EXPECT_GE(o.z, d.first_plane());
          EXPECT_LE(o.z + 1, d.first_plane() + d.thickness());
        }
      }
    }
    EXPECT_EQ(cells, g.cells());
    EXPECT_EQ(cubes, g.cubes());
    for (int n : cell_owners) ASSERT_EQ(n, 1) << "L = " << s.L << ", " << s.ranks << " ranks";
    for (int n : cube_owners) ASSERT_EQ(n, 1) << "L = " << s.L << ", " << s.ranks << " ranks";
  }
}

// The local cube and edge number of every edge an owned cell's update looks up (through each of
// the six arms, so the -z edges reach the halo cube layer) are those of Geometry.
TEST(CvfDecomposition, LocalCubeEdgesMatchTheGeometry) {
  for (const Split& s : valid_splits) {
    const Geometry g(s.L);
    const std::int64_t layers = s.L / 2, layer = g.cubes() / layers;
    for (int r = 0; r < s.ranks; ++r) {
      const SlabDecomposition d(s.L, s.ranks, r);
      const Slab slab(d);
      for (std::int64_t local = d.owned_cell_begin(); local < d.owned_cell_end(); ++local) {
        const int x = static_cast<int>(local % s.L), y = static_cast<int>(local / s.L % s.L);
        const int zl = static_cast<int>(local / d.plane_cells());
        const Coordinates c{x, y, zl - 1 + d.first_plane()};
        ASSERT_EQ(local + d.cell_offset(), g.cell(c.x, c.y, c.z));
        for (int arm = 0; arm < arms; ++arm) {
          const int axis = arm_axis(arm);
          Coordinates from = c;
          int lx = x, ly = y, lz = zl;
          if (arm & 1) {
            if (axis == 0) from.x = g.wrap(c.x - 1), lx = g.wrap(x - 1);
            if (axis == 1) from.y = g.wrap(c.y - 1), ly = g.wrap(y - 1);
            if (axis == 2) from.z = g.wrap(c.z - 1), lz = zl - 1;
          }
          const Geometry::CubeEdge global = g.cube_edge(from, axis);
          const Geometry::CubeEdge mine = slab.cube_edge(lx, ly, lz, axis);
          ASSERT_EQ(mine.edge, global.edge);
          ASSERT_GE(mine.cube, 0);
          ASSERT_LT(mine.cube, d.local_cubes());
          // Local layer kl is global layer z0/2 - 1 + kl, periodic.
          const std::int64_t kl = mine.cube / layer;
          const std::int64_t k = (kl + d.first_plane() / 2 - 1 + layers) % layers;
          ASSERT_EQ(k * layer + mine.cube % layer, global.cube)
              << "L = " << s.L << " rank " << r << " cell " << local << " arm " << arm;
        }
      }
    }
  }
}

TEST(CvfDecomposition, RankCountsThatCutCubesAreRejected) {
  const auto message = [](int L, int ranks) {
    try {
      SlabDecomposition::validate(L, ranks);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(8, 3).find("multiple of 2 x ranks = 6"), std::string::npos) << message(8, 3);
  EXPECT_NE(message(8, 8).find("even thickness"), std::string::npos);  // slabs of one plane
  EXPECT_NE(message(12, 4).find("multiple of 2 x ranks = 8"), std::string::npos);
  EXPECT_NE(message(8, 3).find("valid sizes: multiples of 12"), std::string::npos);
  EXPECT_NE(message(12, 4).find("valid sizes: multiples of 8"), std::string::npos);
  EXPECT_FALSE(message(8, 0).empty());
  EXPECT_FALSE(message(6, 1).empty());  // L itself
  EXPECT_TRUE(message(12, 6).empty());
  EXPECT_THROW(SlabDecomposition(8, 2, 2), std::invalid_argument);
  EXPECT_THROW(SlabDecomposition(8, 2, -1), std::invalid_argument);
  EXPECT_THROW(SlabDecomposition(16, 16, 0), std::invalid_argument);
}

ModelParameters bonding_model() {
  return ModelParameters{};
}

// One rank: the slab kernels (T = L, halos from the own slab) against Simulation, bit for bit,
// with the volume move, the eta update and each Metropolis kernel, at a temperature where
// hydrogen bonds form.
TEST(CvfDecomposition, OneRankSlabMatchesSimulation) {
  const portamc::parallel::Communicator single;
  for (const MetropolisKernel kernel : {MetropolisKernel::per_cell, MetropolisKernel::packed}) {
    for (const int L : {4, 8}) {
      SimulationSettings s;
      s.L = L;
      s.seed = 17 + L;
      s.initial_v_iso = 1.2;
      s.volume.delta = 0.05;
      s.metropolis_kernel = kernel;
      const std::int64_t accepted = portamc::cvf::testing::expect_same_chain(
          TestSpace(), bonding_model(), StatePoint{220.0, 0.1}, s, single, 24);
      EXPECT_GT(accepted, 0);
    }
  }
}

TEST(CvfDecomposition, CheckpointsAreCanonical) {
  const portamc::parallel::Communicator single;
  SimulationSettings s;
  s.L = 8;
  s.seed = 5;
  s.metropolis_kernel = MetropolisKernel::packed;
  Simulation<TestSpace> one(TestSpace(), bonding_model(), StatePoint{250.0, 0.1}, s);
  for (int k = 0; k < 3; ++k) one.step();
  DistributedSimulation<TestSpace> many(TestSpace(), bonding_model(), StatePoint{250.0, 0.1}, s,
                                        single);
  many.restore(one.checkpoint());
  for (int k = 0; k < 3; ++k) {
    one.step();
    many.step();
  }
  const Checkpoint a = one.checkpoint(), b = many.checkpoint();
  EXPECT_TRUE(a.sigma == b.sigma);
  EXPECT_TRUE(a.cube_state == b.cube_state);
  EXPECT_EQ(a.step, b.step);
  EXPECT_TRUE(portamc::cvf::testing::same_bits(a.v_iso, b.v_iso));
  Checkpoint bad = a;
  bad.sigma[3] = 6;
  EXPECT_THROW(many.restore(bad), std::invalid_argument);
  bad = a;
  bad.cube_state.pop_back();
  EXPECT_THROW(many.restore(bad), std::invalid_argument);
}

}  // namespace

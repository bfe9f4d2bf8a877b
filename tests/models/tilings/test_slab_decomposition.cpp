// The row slabs of the distributed Glauber chain (slab_decomposition.hpp) without MPI: ranges
// cover the rows once, halos and vertex rows are what the moves need, runs restricted to a
// slab are the class's vertices in it (six-vertex colour classes: their faces in the owned
// rows), bad splits are refused naming the sizes; and several
// "ranks" simulated in one process (slab_simulation.hpp: slab kernels plus halo copies)
// reproduce the one-rank GlauberSampler bit for bit, on each backend of the build (TestSpace).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/tilings/engine/detail/distributed_glauber.hpp"
#include "portamc/tilings/engine/detail/six_vertex_slab_family.hpp"
#include "slab_simulation.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;

TEST(SlabDecomposition, SlabsCoverTheRowsWithOneHaloRowEachSide) {
  for (const int rows : {1, 2, 5, 16, 17}) {
    for (int ranks = 1; ranks <= rows && ranks <= 6; ++ranks) {
      int next = 0;
      for (int r = 0; r < ranks; ++r) {
        const RowSlab s = row_slab(rows, 7, r, ranks, "test");
        EXPECT_EQ(s.own_begin, next);
        EXPECT_GE(s.own_end - s.own_begin, rows / ranks);
        EXPECT_LE(s.own_end - s.own_begin, rows / ranks + 1);
        next = s.own_end;
        EXPECT_EQ(s.local_begin, r == 0 ? 0 : s.own_begin - 1);
        EXPECT_EQ(s.local_end, r + 1 == ranks ? rows : s.own_end + 1);
        EXPECT_EQ(s.has_upper_neighbour(), r > 0);
        EXPECT_EQ(s.has_lower_neighbour(), r + 1 < ranks);
        EXPECT_EQ(s.local_cells(), 7 * (s.local_end - s.local_begin));
        EXPECT_EQ(s.local_offset(s.own_begin), 7 * (s.own_begin - s.local_begin));
        // Vertex row v touches cell rows v - 1 and v: the updated rows are exactly those that
        // touch an owned row, and their cells are local.
        for (int v = 1; v < rows; ++v) {
          const bool touches =
              (v - 1 >= s.own_begin && v - 1 < s.own_end) || (v >= s.own_begin && v < s.own_end);
          EXPECT_EQ(v >= s.vertex_begin && v < s.vertex_end, touches)
              << rows << " rows, rank " << r << " of " << ranks << ", vertex row " << v;
          if (touches) {
            EXPECT_GE(v - 1, s.local_begin);
            EXPECT_LT(v, s.local_end);
          }
        }
      }
      EXPECT_EQ(next, rows);
    }
  }
}

TEST(SlabDecomposition, BadSplitsAreRefusedNamingTheSizes) {
  const auto message = [](int rows, int length, int rank, int ranks) {
    try {
      row_slab(rows, length, rank, ranks, "domino tiling");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(3, 8, 0, 4).find("its 3 rows of cells cannot be split over 4 MPI ranks"),
            std::string::npos)
      << message(3, 8, 0, 4);
  EXPECT_NE(message(0, 8, 0, 1).find("0 x 8 cells"), std::string::npos);
  EXPECT_NE(message(8, 8, 2, 2).find("rank 2 of 2"), std::string::npos);
  EXPECT_NE(message(8, 8, 0, 0).find("rank 0 of 0"), std::string::npos);
  EXPECT_EQ(message(4, 8, 3, 4), "accepted");
}

TEST(SlabDecomposition, RestrictedRunsAreTheClassVerticesOfTheSlab) {
  const SquareDomain d = SquareDomain::aztec_diamond(37);  // > 1024 vertices: several hints
  const auto all = DominoModel::vertex_runs(d);
  for (const auto& range :
       std::vector<std::pair<int, int>>{{0, 100}, {1, 30}, {30, 31}, {50, 74}, {80, 90}}) {
    // Named copies: a lambda capturing structured bindings is C++20 (nvcc warns in C++17).
    const int first = range.first, end = range.second;
    const auto expected = build_vertex_runs(
        d.vertex_rows(), d.vertex_cols(), DominoModel::classes,
        [&](int i, int j) { return i >= first && i < end && d.is_interior_vertex(i, j); }, "t");
    for (std::size_t c = 0; c < all.size(); ++c) {
      const VertexRunsHost got = restrict_runs(all[c], first, end);
      EXPECT_EQ(got.row, expected[c].row) << first << ".." << end;
      EXPECT_EQ(got.first_col, expected[c].first_col);
      EXPECT_EQ(got.offset, expected[c].offset);
      EXPECT_EQ(got.hint, expected[c].hint);
    }
  }
}

// Six-vertex: the faces of a colour class restricted to the owned face rows of each slab
// are, over the slabs, the class's faces once each.
std::vector<std::pair<int, int>> class_faces(const SixVertexColourClass& c) {
  std::vector<std::pair<int, int>> out;
  for (const SixVertexSublattice& s : c.part)
    for (int a = 0; a < s.rows && s.cols > 0; ++a)
      for (int b = 0; b < s.cols; ++b) out.emplace_back(s.first_row + 2 * a, s.first_col + 2 * b);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SlabDecomposition, SixVertexClassesSplitOverTheSlabs) {
  for (const bool diagonal_free : {true, false}) {
    for (const int n : {2, 3, 8, 13}) {
      for (const SixVertexColourClass& c : six_vertex_colour_classes(n, n + 1, diagonal_free)) {
        for (int ranks = 1; ranks <= std::min(n + 1, 5); ++ranks) {
          std::vector<std::pair<int, int>> got;
          for (int r = 0; r < ranks; ++r) {
            const RowSlab s = row_slab(n + 1, n + 2, r, ranks, "six-vertex");
            const SixVertexColourClass part = restrict_class(c, s.own_begin, s.own_end);
            const auto faces = class_faces(part);
            EXPECT_EQ(static_cast<std::size_t>(part.size), faces.size());
            for (const auto& f : faces) {
              EXPECT_GE(f.first, s.own_begin);
              EXPECT_LT(f.first, s.own_end);
            }
            got.insert(got.end(), faces.begin(), faces.end());
          }
          std::sort(got.begin(), got.end());
          EXPECT_EQ(got, class_faces(c)) << "n = " << n << ", " << ranks << " slabs";
        }
      }
    }
  }
}

template <class Model>
void expect_simulated_slabs_match(const typename Model::Domain& domain,
                                  const typename Model::Weights& weights, UpdateRule rule,
                                  int ranks) {
  GlauberSampler<Model, TestSpace> one(TestSpace(), domain, weights, 21, Start::maximal, rule);
  portamc::tilings::testing::SlabSimulation<Model, TestSpace> many(TestSpace(), domain, weights, 21,
                                                                   ranks, rule);
  const auto start = Model::bytes(one.tiling());
  for (const std::uint64_t n : {1, 3, 30, 150}) {
    one.run_steps(n);
    many.run_steps(n);
    ASSERT_EQ(Model::bytes(one.tiling()), many.bytes())
        << Model::name << ", " << ranks << " slabs, after a chunk of " << n;
  }
  EXPECT_NE(Model::bytes(one.tiling()), start) << "the chain never moved";
}

TEST(SlabDecomposition, SimulatedSlabsReproduceTheOneRankChain) {
  for (const int ranks : {1, 2, 3, 5, 8}) {
    expect_simulated_slabs_match<DominoModel>(SquareDomain::aztec_diamond(12),
                                              DominoWeights::two_periodic(0.4, 1.0),
                                              UpdateRule::heat_bath, ranks);
    expect_simulated_slabs_match<DominoModel>(
        SquareDomain::rectangle(8, 11), DominoWeights::uniform(), UpdateRule::metropolis, ranks);
    expect_simulated_slabs_match<LozengeModel>(TriangularDomain::hexagon(4, 5, 4),
                                               LozengeWeights{0.7}, UpdateRule::heat_bath, ranks);
  }
}

}  // namespace

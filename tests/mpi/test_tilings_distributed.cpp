// Tilings' Glauber chain split into row slabs over the MPI ranks (DistributedGlauber), run by
// ctest under mpiexec -n 2 and -n 4: every rank also runs the one-rank GlauberSampler on the
// whole domain, and the distributed states must equal it bit for bit after every chunk of
// steps, for dominoes (Aztec diamonds, whose slab boundaries cross the frozen corners and the
// liquid region; rectangles, where the one-rank kernel walks the box instead of the runs;
// weighted and two-periodic measures; heat bath and Metropolis), lozenges (hexagons,
// uniform and q-weighted) and six-vertex height functions (SixVertexGlauber over the ranks
// against SixVertexGlauber on one, 2 and 4 colour classes, down to one face row per rank, one
// copy or several side by side; its pinned one-rank hashes are in test_tilings_pinned_chains);
// densities gathered on rank 0 equal the one-rank ones; cyclic class order as well; states the
// ranks cannot split are refused on every rank with the sizes in the message.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/six_vertex_glauber.hpp"
#include "tilings_chain_compare.hpp"

namespace {

using namespace portamc::tilings;

// The MPI tests run on the default execution space.
using Space = Kokkos::DefaultExecutionSpace;
using portamc::parallel::Communicator;
using portamc::parallel::world;
using portamc::tilings::testing::expect_same_chain;
using portamc::tilings::testing::expect_same_densities;

const std::vector<std::uint64_t> chunks{1, 2, 5, 40, 200};

TEST(TilingsDistributed, UniformAztecDiamondMatchesOneRank) {
  const Communicator comm = world();
  for (const int n : {6, 17, 24}) {
    for (const Start start : {Start::maximal, Start::minimal}) {
      const auto moved =
          expect_same_chain<DominoModel>(SquareDomain::aztec_diamond(n), DominoWeights::uniform(),
                                         100 + n, start, UpdateRule::heat_bath, chunks, comm);
      EXPECT_GT(moved, 0) << "n = " << n << ": the chain never moved";
    }
  }
}

// Two-periodic weights (frozen, liquid and gas regions) and biased vertical dominoes, with
// both update rules: the weight period is read at global coordinates.
TEST(TilingsDistributed, WeightedAztecDiamondsMatchOneRank) {
  const Communicator comm = world();
  const SquareDomain diamond = SquareDomain::aztec_diamond(20);
  for (const UpdateRule rule : {UpdateRule::heat_bath, UpdateRule::metropolis}) {
    EXPECT_GT(expect_same_chain<DominoModel>(diamond, DominoWeights::two_periodic(0.5, 1.0), 7,
                                             Start::maximal, rule, chunks, comm),
              0);
    EXPECT_GT(expect_same_chain<DominoModel>(diamond, DominoWeights::vertical_horizontal(3.0, 0.7),
                                             8, Start::minimal, rule, chunks, comm),
              0);
  }
}

// Rectangles: the one-rank kernel walks the box (domino_glauber_kernel.hpp), the slabs use
// their runs; odd row counts give slabs of unequal height; 4 x 9 on 4 ranks is one row each.
TEST(TilingsDistributed, RectanglesMatchOneRank) {
  const Communicator comm = world();
  for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{12, 10}, {9, 14}, {4, 9}}) {
    EXPECT_GT(expect_same_chain<DominoModel>(SquareDomain::rectangle(rows, cols),
                                             DominoWeights::uniform(), 3 + rows, Start::maximal,
                                             UpdateRule::heat_bath, chunks, comm),
              0)
        << rows << " x " << cols;
  }
}

TEST(TilingsDistributed, HexagonsMatchOneRank) {
  const Communicator comm = world();
  EXPECT_GT(
      expect_same_chain<LozengeModel>(TriangularDomain::hexagon(6, 5, 7), LozengeWeights{}, 11,
                                      Start::maximal, UpdateRule::heat_bath, chunks, comm),
      0);
  EXPECT_GT(
      expect_same_chain<LozengeModel>(TriangularDomain::hexagon(4, 8, 3), LozengeWeights{0.8}, 12,
                                      Start::minimal, UpdateRule::heat_bath, chunks, comm),
      0);
  EXPECT_GT(
      expect_same_chain<LozengeModel>(TriangularDomain::hexagon(5, 5, 5), LozengeWeights{1.3}, 13,
                                      Start::maximal, UpdateRule::metropolis, chunks, comm),
      0);
}

TEST(TilingsDistributed, DensitiesOnRootMatchOneRank) {
  const Communicator comm = world();
  expect_same_densities<DominoModel>(SquareDomain::aztec_diamond(10), DominoWeights::uniform(), 5,
                                     6, 3, comm);
  expect_same_densities<LozengeModel>(TriangularDomain::hexagon(3, 4, 5), LozengeWeights{}, 6, 6, 3,
                                      comm);
}

// The six-vertex heat bath in face-row slabs against the same chains on one rank: domain-wall
// boundaries with a = b = c (two checkerboard classes) and with weights that read the
// diagonals (four parity classes), from the maximal and the minimal state, one copy or several
// side by side (a row then holds every copy's faces of one face row).
void expect_same_six_vertex_chain(const SixVertexBoundary& boundary,
                                  const SixVertexWeights& weights, std::uint64_t seed, bool maximal,
                                  const Communicator& comm, ClassOrder order = ClassOrder::random,
                                  int chains = 1) {
  const SixVertexHeights start =
      maximal ? maximal_six_vertex_heights(boundary) : minimal_six_vertex_heights(boundary);
  SixVertexGlauber<Space> one(Space(), boundary, weights, seed, start, chains);
  SixVertexGlauber<Space> many(Space(), boundary, weights, seed, start, chains, comm);
  many.set_halo_transport(portamc::tilings::testing::transport_under_test());
  one.set_class_order(order);
  many.set_class_order(order);
  EXPECT_EQ(one.class_count(), many.class_count());
  std::uint64_t steps = 0;
  for (const std::uint64_t n : chunks) {
    one.run_steps(n);
    many.run_steps(n);
    steps += n;
    const std::vector<SixVertexHeights> got = many.states();
    if (comm.is_root()) {
      const std::vector<SixVertexHeights> want = one.states();
      ASSERT_EQ(got.size(), static_cast<std::size_t>(chains));
      for (int c = 0; c < chains; ++c)
        EXPECT_EQ(got[c].values(), want[c].values())
            << "six-vertex copy " << c << " on " << comm.size() << " ranks differs after " << steps
            << " steps";
    } else {
      EXPECT_TRUE(got.empty()) << "states() gives the copies on rank 0 only";
    }
  }
  EXPECT_EQ(one.step_count(), many.step_count());
  EXPECT_NE(one.state().values(), start.values()) << "the chain never moved";
  if (chains > 1 && comm.is_root())
    EXPECT_NE(one.state(0).values(), one.state(1).values()) << "the copies moved alike";
}

TEST(TilingsDistributed, SixVertexMatchesOneRank) {
  const Communicator comm = world();
  expect_same_six_vertex_chain(SixVertexBoundary::domain_wall(14), SixVertexWeights{1, 1, 1}, 4,
                               true, comm);
  expect_same_six_vertex_chain(SixVertexBoundary::domain_wall(11), SixVertexWeights{1, 1.6, 0.8}, 5,
                               false, comm);
  expect_same_six_vertex_chain(SixVertexBoundary::domain_wall(3), SixVertexWeights{1, 2, 2.5}, 6,
                               true, comm);
}

TEST(TilingsDistributed, SixVertexCopiesSideBySideMatchOneRank) {
  const Communicator comm = world();
  expect_same_six_vertex_chain(SixVertexBoundary::domain_wall(12), SixVertexWeights{1, 1, 1}, 7,
                               true, comm, ClassOrder::random, 3);
  expect_same_six_vertex_chain(SixVertexBoundary::domain_wall(9), SixVertexWeights{1, 1.6, 0.8}, 8,
                               false, comm, ClassOrder::random, 5);
}

// Averages sum every copy of the whole block: one rank only, refused over several.
TEST(TilingsDistributed, SixVertexAveragesAreRefusedOverRanks) {
  const Communicator comm = world();
  const SixVertexBoundary b = SixVertexBoundary::domain_wall(8);
  SixVertexGlauber<Space> chain(Space(), b, SixVertexWeights{1, 1, 1}, 3,
                                maximal_six_vertex_heights(b), 1, comm);
  if (comm.size() > 1)
    EXPECT_THROW(chain.accumulate(), std::logic_error);
  else
    EXPECT_NO_THROW(chain.accumulate());
}

// Cyclic class order (class_order.hpp): the class of a step is t mod classes on every rank.
TEST(TilingsDistributed, CyclicClassOrderMatchesOneRank) {
  const Communicator comm = world();
  EXPECT_GT(expect_same_chain<DominoModel>(SquareDomain::aztec_diamond(17),
                                           DominoWeights::uniform(), 21, Start::maximal,
                                           UpdateRule::heat_bath, chunks, comm, ClassOrder::cyclic),
            0);
  EXPECT_GT(expect_same_chain<LozengeModel>(TriangularDomain::hexagon(6, 5, 7), LozengeWeights{0.8},
                                            22, Start::minimal, UpdateRule::heat_bath, chunks, comm,
                                            ClassOrder::cyclic),
            0);
  expect_same_six_vertex_chain(SixVertexBoundary::domain_wall(11), SixVertexWeights{1, 1.6, 0.8},
                               23, true, comm, ClassOrder::cyclic);
}

// More ranks than rows of cells: refused on every rank alike, naming both sizes.
TEST(TilingsDistributed, TooFewRowsAreRefusedOnEveryRank) {
  const Communicator comm = world();
  if (comm.size() == 1) GTEST_SKIP() << "needs two ranks or more";
  const int rows = comm.size() - 1;
  try {
    DistributedGlauber<DominoModel, Space> chain(Space(), SquareDomain::rectangle(rows, 4),
                                                 DominoWeights::uniform(), 1, comm);
    ADD_FAILURE() << "a " << rows << "-row state split over " << comm.size() << " ranks";
  } catch (const std::invalid_argument& e) {
    const std::string expected = "its " + std::to_string(rows) +
                                 " rows of cells cannot be split over " +
                                 std::to_string(comm.size()) + " MPI ranks";
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

}  // namespace

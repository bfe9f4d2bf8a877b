// The tiled domino Glauber chain in row slabs (DistributedTiledDomino), run by ctest under
// mpiexec -n 2 and -n 4 (and once with halos staged through host buffers): every rank also
// runs the one-rank GlauberSampler with the same tiled schedule on the whole domain, and the
// states gathered from the slabs must equal it bit for bit after every chunk of launches, as
// must the flip-attempt counts, the step counters and the densities. Random row shifts make
// most launches' tile bands cross the slab boundaries (the rows written by the upper rank
// then travel down); Aztec diamonds (frozen corners, disordered disc), rectangles, a mask
// domain with a hole, uniform and weighted measures, heat bath and Metropolis, tiles from
// 4 x 4 to 16 x 8 and slabs exactly tile_rows thick. Slabs thinner than tile_rows are refused
// on every rank with the sizes in the message.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/distributed_tiled_domino.hpp"
#include "tilings_chain_compare.hpp"

namespace {

using namespace portamc::tilings;

// The MPI tests run on the default execution space.
using Space = Kokkos::DefaultExecutionSpace;
using portamc::parallel::Communicator;
using portamc::parallel::world;
using portamc::tilings::testing::transport_under_test;

// Steps between comparisons: whole launches, and counts that one launch rounds up.
const std::vector<std::uint64_t> chunks{1, 3, 16, 64, 400, 2000};

std::int64_t count_differences(const std::vector<std::uint8_t>& a,
                               const std::vector<std::uint8_t>& b) {
  std::int64_t differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differ += a[i] != b[i] ? 1 : 0;
  return differ;
}

/// Runs both chains over `chunks` and compares them; returns the bytes moved from the start.
std::int64_t expect_same_tiled_chain(const SquareDomain& domain, const DominoWeights& weights,
                                     std::uint64_t seed, const TileSchedule& schedule, Start start,
                                     UpdateRule rule, const Communicator& comm,
                                     ClassOrder order = ClassOrder::random) {
  DominoGlauber<Space> one(Space(), domain, weights, seed, start, rule);
  one.set_schedule(schedule);
  one.set_class_order(order);
  DistributedTiledDomino<Space> many(Space(), domain, weights, seed, schedule, comm, start, rule);
  many.set_halo_transport(transport_under_test());
  many.set_class_order(order);
  const std::vector<std::uint8_t> initial = one.tiling().partner;
  EXPECT_EQ(many.tiling().partner, initial) << "the start states differ";
  std::uint64_t steps = 0;
  for (const std::uint64_t n : chunks) {
    const std::uint64_t a = one.run_steps(n), b = many.run_steps(n);
    steps += n;
    EXPECT_EQ(a, b) << "flip attempts after " << steps << " steps";
    const std::int64_t differ = count_differences(one.tiling().partner, many.tiling().partner);
    EXPECT_EQ(differ, 0) << "tiles " << schedule.tile_rows << " x " << schedule.tile_cols << ", "
                         << schedule.substeps << " substeps on " << comm.size()
                         << " ranks: " << differ << " bytes differ from one rank after " << steps
                         << " steps";
    if (differ != 0) break;
  }
  EXPECT_EQ(one.steps_done(), many.steps_done());
  return count_differences(one.tiling().partner, initial);
}

TEST(TilingsTiledDistributed, UniformAztecDiamondsMatchOneRank) {
  const Communicator comm = world();
  // n = 17: 34 rows (17 + 17, 9 + 9 + 8 + 8); n = 24: 48 rows.
  for (const int n : {17, 24}) {
    for (const TileSchedule schedule :
         {TileSchedule{4, 4, 1}, TileSchedule{8, 4, 8}, TileSchedule{4, 16, 5}}) {
      for (const Start start : {Start::maximal, Start::minimal}) {
        EXPECT_GT(expect_same_tiled_chain(SquareDomain::aztec_diamond(n), DominoWeights::uniform(),
                                          40 + n, schedule, start, UpdateRule::heat_bath, comm),
                  0)
            << "n = " << n << ": the chain never moved";
      }
    }
  }
}

// Cyclic class order: launches alternate the classes from their first step on every rank.
TEST(TilingsTiledDistributed, CyclicClassOrderMatchesOneRank) {
  const Communicator comm = world();
  for (const TileSchedule schedule : {TileSchedule{4, 4, 1}, TileSchedule{8, 4, 8}}) {
    EXPECT_GT(expect_same_tiled_chain(SquareDomain::aztec_diamond(17), DominoWeights::uniform(), 61,
                                      schedule, Start::maximal, UpdateRule::heat_bath, comm,
                                      ClassOrder::cyclic),
              0);
  }
}

// Two-periodic weights (frozen, liquid and gas regions; the period read at global rows) and
// biased vertical dominoes, with both update rules.
TEST(TilingsTiledDistributed, WeightedAztecDiamondsMatchOneRank) {
  const Communicator comm = world();
  const SquareDomain diamond = SquareDomain::aztec_diamond(20);
  for (const UpdateRule rule : {UpdateRule::heat_bath, UpdateRule::metropolis}) {
    EXPECT_GT(expect_same_tiled_chain(diamond, DominoWeights::two_periodic(0.5, 1.0), 7,
                                      TileSchedule{8, 8, 6}, Start::maximal, rule, comm),
              0);
    EXPECT_GT(expect_same_tiled_chain(diamond, DominoWeights::vertical_horizontal(3.0, 0.7), 8,
                                      TileSchedule{4, 8, 3}, Start::minimal, rule, comm),
              0);
  }
}

// Rectangles: 16 rows on 4 ranks with tiles of 4 rows (slabs exactly one band thick), an odd
// row count (unequal slabs), and 16-row tiles on 2 ranks.
TEST(TilingsTiledDistributed, RectanglesMatchOneRank) {
  const Communicator comm = world();
  const struct {
    int rows, cols;
    TileSchedule schedule;
  } cases[] = {{16, 18, {4, 4, 2}}, {19, 14, {4, 8, 7}}, {33, 12, {16, 8, 4}}};
  for (const auto& c : cases) {
    if (c.rows / comm.size() < c.schedule.tile_rows) continue;  // refused: see below
    EXPECT_GT(expect_same_tiled_chain(SquareDomain::rectangle(c.rows, c.cols),
                                      DominoWeights::uniform(), 3 + c.rows, c.schedule,
                                      Start::maximal, UpdateRule::heat_bath, comm),
              0)
        << c.rows << " x " << c.cols;
  }
}

// A user domain: a 32 x 24 box with a 4 x 9 bay cut in from the left, a 2 x 2 corner notch and
// a stepped lower right edge (simply connected, colour balanced), whose box is partly empty.
TEST(TilingsTiledDistributed, MaskDomainMatchesOneRank) {
  const Communicator comm = world();
  std::string mask;
  for (int r = 0; r < 32; ++r) {
    for (int c = 0; c < 24; ++c) {
      const bool bay = r >= 13 && r < 17 && c < 9;
      const bool notch = r < 2 && c < 2;
      const bool step = (r >= 24 && c >= 20) || (r >= 28 && c >= 16);
      mask += bay || notch || step ? '.' : '#';
    }
    mask += '\n';
  }
  const SquareDomain domain = SquareDomain::from_mask(mask);
  for (const TileSchedule schedule : {TileSchedule{8, 8, 8}, TileSchedule{4, 4, 3}}) {
    EXPECT_GT(expect_same_tiled_chain(domain, DominoWeights::vertical_horizontal(1.5, 1.0), 21,
                                      schedule, Start::maximal, UpdateRule::heat_bath, comm),
              0);
  }
}

// Densities gathered on rank 0 equal the one-rank ones exactly (the same integer counts).
TEST(TilingsTiledDistributed, DensitiesMatchOneRank) {
  const Communicator comm = world();
  const SquareDomain diamond = SquareDomain::aztec_diamond(12);
  const TileSchedule schedule{4, 8, 4};
  DominoGlauber<Space> one(Space(), diamond, DominoWeights::uniform(), 5);
  one.set_schedule(schedule);
  DistributedTiledDomino<Space> many(Space(), diamond, DominoWeights::uniform(), 5, schedule, comm);
  portamc::tilings::testing::expect_same_densities_of(one, many, 12, 3, comm);
}

// Slabs thinner than tile_rows: refused on every rank, naming the sizes.
TEST(TilingsTiledDistributed, ThinSlabsAreRefused) {
  const Communicator comm = world();
  const int rows = 8 * comm.size() - 1;  // one rank gets 7 rows
  try {
    DistributedTiledDomino<Space> chain(Space(), SquareDomain::rectangle(rows, 6),
                                        DominoWeights::uniform(), 1, TileSchedule{8, 4, 2}, comm);
    ADD_FAILURE() << "a slab of 7 rows with tiles of 8 rows was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("its " + std::to_string(rows) + " rows of faces split over " +
                        std::to_string(comm.size()) + " MPI ranks give slabs of 7 rows"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("dynamics.tile_rows = 8"), std::string::npos) << what;
  }
  // Bad schedules as on one rank.
  EXPECT_THROW(
      DistributedTiledDomino<Space>(Space(), SquareDomain::rectangle(64, 8),
                                    DominoWeights::uniform(), 1, TileSchedule{6, 4, 2}, comm),
      std::invalid_argument);
}

}  // namespace

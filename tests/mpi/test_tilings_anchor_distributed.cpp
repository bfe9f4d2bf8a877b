// Bibone and rectangle-triangle Glauber chains split into row slabs over the MPI ranks
// (anchor_slab_families.hpp), run by ctest under mpiexec -n 2 and -n 4 (and once with
// staged halos): every rank also runs the one-rank chain (BiboneGlauber, RectTriangleGlauber)
// on the whole domain, and the distributed state must equal it bit for bit after every chunk
// of steps; the chains must have moved. Domains: bibone hexagons, a parallelogram down to 3
// rows per rank (the least h = 3 allows: butterflies span 4 rows) and a mask; rectangle-
// triangle hexagons uniform and weighted (t, c, r apart) and a notched hexagon (stars span 2
// rows, h = 1); the slab boundaries cut through moves in all of them (asserted: some anchor is
// run by two ranks). Rows the ranks cannot split (fewer than h per rank) are refused on every
// rank with the sizes in the message.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/halo_transport.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/anchor_slab_families.hpp"
#include "portamc/tilings/engine/detail/bibone_glauber.hpp"
#include "portamc/tilings/engine/detail/rect_triangle_glauber.hpp"

namespace {

using namespace portamc::tilings;

// The MPI tests run on the default execution space.
using Space = Kokkos::DefaultExecutionSpace;
using portamc::parallel::Communicator;
using portamc::parallel::world;

portamc::parallel::HaloTransport transport_under_test() {
  const char* env = std::getenv("PORTAMC_TEST_HALO_TRANSPORT");
  return env == nullptr ? portamc::parallel::HaloTransport::automatic
                        : portamc::parallel::parse_halo_transport(env);
}

// Every step ends in a halo exchange, so the step count sets the test's time when the ranks
// share busy cores (each exchange then waits for a scheduler slice): 1864 steps per domain
// compare the chains at six points, far past the first moves that cross slab boundaries.
const std::vector<std::uint64_t> chunks{1, 3, 10, 50, 300, 1500};

std::int64_t differing(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  std::int64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i] ? 1 : 0;
  return n;
}

/// Anchors run by more than one rank (summed over the ranks minus the domain's count): > 0
/// means the slab boundaries cut through moves.
template <class Chain>
std::int64_t shared_anchors(const Chain& chain, const Communicator& comm) {
  const auto& m = chain.model().moves;
  const SlabAnchors local = restrict_anchors(
      chain.slab(), m.pair_family, m.pair_offset, m.anchors, 0,
      [&](std::int32_t a, int f, int& lo, int& hi) { chain.model().rows_of(a, f, lo, hi); });
  const auto total = comm.sum(static_cast<std::uint64_t>(local.anchors.size()));
  return static_cast<std::int64_t>(total) - static_cast<std::int64_t>(m.anchors.size());
}

/// Runs One and Many side by side; `bytes_one` / `bytes_many` read the whole states. Returns
/// the bytes that moved from the start.
template <class One, class Many, class BytesOne, class BytesMany>
std::int64_t expect_same(One& one, Many& many, const BytesOne& bytes_one,
                         const BytesMany& bytes_many, const Communicator& comm,
                         const std::string& what) {
  many.set_halo_transport(transport_under_test());
  const std::vector<std::uint8_t> initial = bytes_one();
  EXPECT_EQ(bytes_many(), initial) << what << ": the start states differ";
  std::uint64_t steps = 0;
  for (const std::uint64_t n : chunks) {
    const std::uint64_t a = one.run_steps(n), b = many.run_steps(n);
    steps += n;
    EXPECT_EQ(a, b) << what << ": attempts after step " << steps;
    const std::int64_t d = differing(bytes_one(), bytes_many());
    EXPECT_EQ(d, 0) << what << " on " << comm.size() << " ranks: " << d
                    << " bytes differ from one rank after " << steps << " steps";
    if (d != 0) break;
  }
  EXPECT_EQ(one.steps_done(), many.steps_done());
  if (comm.size() > 1) EXPECT_GT(shared_anchors(many, comm), 0) << what;
  return differing(bytes_one(), initial);
}

std::int64_t expect_same_bibone(const BiboneDomain& d, std::uint64_t seed, const Communicator& comm,
                                const std::string& what,
                                MoveColouring colouring = default_move_colouring) {
  const BiboneMatching start = bibone_initial_matching(d);
  BiboneGlauber<Space> one(Space(), d, seed, start, colouring);
  BiboneGlauber<Space> many(Space(), d, seed, start, colouring, comm, what);
  EXPECT_EQ(many.slab().halo, 3) << "bibone butterflies span four rows";
  return expect_same(
      one, many, [&] { return one.matching().bytes(); }, [&] { return many.matching().bytes(); },
      comm, what);
}

// The one-rank chain's run() is its run_steps().
struct OneRectTriangle {
  RectTriangleGlauber<Space> chain;
  std::uint64_t run_steps(std::uint64_t n) { return chain.run(n); }
  std::uint64_t steps_done() const { return chain.steps_done(); }
};

std::int64_t expect_same_rect_triangle(const TriangularDomain& d, const RectTriangleWeights& w,
                                       std::uint64_t seed, const Communicator& comm,
                                       const std::string& what,
                                       MoveColouring colouring = default_move_colouring) {
  const RectTriangleTiling start = rect_triangle_initial_tiling(d);
  OneRectTriangle one{RectTriangleGlauber<Space>(Space(), d, w, seed, start, colouring)};
  RectTriangleGlauber<Space> many(Space(), d, w, seed, start, colouring, comm, what);
  return expect_same(
      one, many, [&] { return one.chain.tiling().codes(); }, [&] { return many.tiling().codes(); },
      comm, what);
}

TEST(TilingsAnchorDistributed, BiboneHexagonsMatchOneRank) {
  const Communicator comm = world();
  // 9, 10, 7 has 16 rows (4 per rank on 4 ranks), 7, 6, 7 has 12 (3 per rank).
  EXPECT_GT(expect_same_bibone(BiboneDomain::hexagon(9, 10, 7), 5, comm, "hexagon 9 10 7"), 0);
  EXPECT_GT(expect_same_bibone(BiboneDomain::hexagon(7, 6, 7), 77, comm, "hexagon 7 6 7"), 0);
  // The other colouring: fixed periodic classes instead of the domain's graph colouring.
  EXPECT_GT(expect_same_bibone(BiboneDomain::hexagon(9, 10, 7), 6, comm,
                               "hexagon 9 10 7, periodic classes", MoveColouring::periodic),
            0);
}

TEST(TilingsAnchorDistributed, BiboneParallelogramAndMaskMatchOneRank) {
  const Communicator comm = world();
  // 12 rows: 3 per rank on 4 ranks, the least h = 3 allows.
  EXPECT_GT(expect_same_bibone(BiboneDomain::parallelogram(9, 12), 3, comm, "parallelogram 9 12"),
            0);
  const BiboneDomain mask = BiboneDomain::from_mask(
      "..####.\n"
      ".######\n"
      "#######\n"
      "######.\n"
      "#####..\n"
      "######.\n"
      ".######\n"
      "..####.\n"
      "..####.\n"
      ".######\n"
      "######.\n"
      "..####.\n");
  EXPECT_GT(expect_same_bibone(mask, 12, comm, "mask"), 0);
}

TEST(TilingsAnchorDistributed, RectTriangleHexagonsMatchOneRank) {
  const Communicator comm = world();
  const TriangularDomain hex = TriangularDomain::hexagon(5, 4, 6);
  EXPECT_GT(expect_same_rect_triangle(hex, {}, 9, comm, "uniform hexagon 5 4 6"), 0);
  EXPECT_GT(expect_same_rect_triangle(hex, {2.5, 0.6, 1.7}, 10, comm, "weighted hexagon 5 4 6"), 0);
  EXPECT_GT(expect_same_rect_triangle(TriangularDomain::hexagon(4, 4, 4), {0.7, 1.3, 2.2}, 11, comm,
                                      "weighted hexagon 4 4 4"),
            0);
  EXPECT_GT(expect_same_rect_triangle(hex, {2.5, 0.6, 1.7}, 14, comm,
                                      "weighted hexagon 5 4 6, periodic classes",
                                      MoveColouring::periodic),
            0);
}

TEST(TilingsAnchorDistributed, RectTriangleNotchedHexagonMatchesOneRank) {
  const Communicator comm = world();
  // The 5 x 4 x 6 hexagon with the lozenge of its first top cell cut out.
  std::string mask = TriangularDomain::hexagon(5, 4, 6).to_mask();
  const std::size_t cut = mask.find("##");
  ASSERT_EQ(cut % 2, 0u);
  mask[cut] = mask[cut + 1] = '.';
  const TriangularDomain d = TriangularDomain::from_mask(mask);
  EXPECT_GT(expect_same_rect_triangle(d, {1.0, 2.0, 0.5}, 13, comm, "notched hexagon"), 0);
}

TEST(TilingsAnchorDistributed, TooFewRowsAreRefusedOnEveryRank) {
  const Communicator comm = world();
  if (comm.size() == 1) GTEST_SKIP() << "needs two ranks or more";
  // 2 ranks: 5 rows; 4 ranks: 11 rows; both give a rank two rows, fewer than h = 3.
  const int rows = 3 * comm.size() - 1;
  const BiboneDomain d = BiboneDomain::parallelogram(4, rows);
  const std::string expected = "its " + std::to_string(rows) +
                               " rows of cells cannot be split over " +
                               std::to_string(comm.size()) + " MPI ranks";
  try {
    BiboneGlauber<Space> chain(Space(), d, 1, bibone_initial_matching(d), default_move_colouring,
                               comm);
    ADD_FAILURE() << "no std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(expected), std::string::npos) << what;
    EXPECT_NE(what.find("each rank needs at least 3 rows"), std::string::npos) << what;
  }
}

}  // namespace

// Colour classes of the bibone and rectangle-triangle moves from Kokkos Kernels' colouring of
// the conflict graphs (move_colouring.hpp): the CRS conflict graph and the colouring of small
// hand-made graphs (including the maximum degrees 0 and 1 that plain COLORING_VBD leaves
// uncoloured), and for small, irregular and a few-hundred-site domains of both models: every
// candidate move lies in exactly one (family, class) pair, no two moves of a pair share a
// site/face (brute force), pairs are (family, colour) in order with increasing anchors, the
// colouring on every backend of the build equals Serial's bit for bit (portamc::for_each_space;
// compiled once, not per backend), and the colours per family are at most the maximum degree + 1
// (printed next to the periodic classes).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/bibone/detail/bibone_moves.hpp"
#include "portamc/tilings/engine/detail/move_colouring.hpp"
#include "portamc/tilings/engine/detail/move_colouring_kokkos_kernels.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/names.hpp"
#include "portamc/tilings/rect_triangle/detail/rect_triangle_moves.hpp"

namespace {

using namespace portamc::tilings;

// Colours of g by Kokkos Kernels on every backend of the build, each checked equal to the
// first backend's (Serial's where the build has it) bit for bit; returns the first.
std::vector<int> colours_on_every_backend(const ConflictGraph& g, const std::string& what) {
  std::vector<int> first;
  std::string first_backend;
  portamc::for_each_space([&](auto space) {
    const std::string backend = portamc::backend_name<decltype(space)>();
    const std::vector<int> colours = kokkos_kernels_colours(space, g);
    if (first_backend.empty()) {
      first = colours;
      first_backend = backend;
    } else {
      EXPECT_EQ(colours, first) << what << ": " << backend << " against " << first_backend;
    }
  });
  return first;
}

#define SKIP_WITHOUT_KOKKOS_KERNELS()                                   \
  if (!move_colouring_available(MoveColouring::kokkos_kernels)) {       \
    GTEST_SKIP() << "this build has no Kokkos Kernels (periodic only)"; \
  }

TEST(MoveColouring, NamesRoundTripAndUnknownOnesAreRefused) {
  for (const MoveColouring c : {MoveColouring::periodic, MoveColouring::kokkos_kernels})
    EXPECT_EQ(move_colouring_names().value(to_string(c)), c);
  EXPECT_THROW(move_colouring_names().value("greedy"), std::invalid_argument);
  EXPECT_TRUE(move_colouring_available(MoveColouring::periodic));
#ifdef PORTAMC_HAVE_KOKKOSKERNELS
  EXPECT_EQ(default_move_colouring, MoveColouring::kokkos_kernels);
#else
  EXPECT_EQ(default_move_colouring, MoveColouring::periodic);
  EXPECT_THROW(require_available(MoveColouring::kokkos_kernels), std::invalid_argument);
  EXPECT_THROW(bibone_move_set(BiboneDomain::parallelogram(2, 2), MoveColouring::kokkos_kernels),
               std::invalid_argument);
  EXPECT_THROW(
      rect_triangle_move_set(TriangularDomain::hexagon(2, 2, 1), {},
                             RectTriangleMoves::vertex_and_open_ear, MoveColouring::kokkos_kernels),
      std::invalid_argument);
#endif
}

TEST(MoveColouring, ConflictGraphJoinsMovesSharingAResource) {
  // Moves touching {0, 1}, {1, 2}, {3, 4}, {4, 0}, {5, 6}: the path 1 - 0 - 3 - 2 and a lone move.
  const ConflictGraph g = conflict_graph(2, {0, 1, 1, 2, 3, 4, 4, 0, 5, 6}, 7);
  ASSERT_EQ(g.vertices(), 5);
  EXPECT_EQ(g.row_map, (std::vector<std::size_t>{0, 2, 3, 4, 6, 6}));
  EXPECT_EQ(g.entries, (std::vector<int>{1, 3, 0, 3, 0, 2}));
  EXPECT_EQ(g.max_degree(), 2);
  EXPECT_THROW(conflict_graph(2, {0, 7}, 7), std::logic_error);
  EXPECT_THROW(conflict_graph(3, {0, 1}, 7), std::logic_error);
  EXPECT_THROW(check_colouring(g, {0, 0, 1, 2, 0}), std::logic_error);  // 0 and 1 conflict
  EXPECT_THROW(check_colouring(g, {0, 1, -1, 1, 0}), std::logic_error);
  EXPECT_NO_THROW(check_colouring(g, {0, 1, 1, 2, 0}));
}

// Graphs where plain VBD fails (maximum degree 0 or 1) and a clique that needs degree + 1.
TEST(MoveColouring, SmallGraphsGetProperColouringsOnBothSpaces) {
  SKIP_WITHOUT_KOKKOS_KERNELS();
  struct Case {
    const char* name;
    int per_vertex;
    std::vector<std::int64_t> touched;
    int colours;
  };
  const std::vector<Case> cases = {
      {"one move", 1, {0}, 1},
      {"isolated moves", 1, {0, 1, 2}, 1},
      {"one conflict", 2, {0, 1, 1, 2}, 2},
      {"path of three", 2, {0, 1, 1, 2, 2, 3}, 2},
      {"triangle", 2, {0, 1, 1, 2, 2, 0}, 3},
      {"clique of five", 1, {0, 0, 0, 0, 0}, 5},
  };
  for (const Case& c : cases) {
    const ConflictGraph g = conflict_graph(c.per_vertex, c.touched, 4);
    const std::vector<int> host = colours_on_every_backend(g, c.name);
    EXPECT_EQ(colour_conflict_graph(g), host) << c.name;
    EXPECT_NO_THROW(check_colouring(g, host)) << c.name;
    EXPECT_EQ(*std::max_element(host.begin(), host.end()) + 1, c.colours) << c.name;
  }
  EXPECT_TRUE(colour_conflict_graph(ConflictGraph{}).empty());
}

// What every move set must satisfy, whatever the model: `moves_of(family)` lists the
// candidates of a family (brute force from the domain), `bytes_of(family, anchor)` the bytes
// its move touches, `bytes` the size of the state.
struct Family {
  std::vector<std::int32_t> candidates;
  std::vector<std::int64_t> touched;  // per candidate, per_vertex bytes
  int per_vertex = 0;
};

template <class MoveSet>
void expect_classes(const MoveSet& moves, const std::vector<Family>& families, std::int64_t bytes,
                    const std::string& what, bool is_kokkos_kernels) {
  // Exactly one pair per candidate, pairs grouped by family in order, anchors increasing.
  std::vector<std::set<std::int32_t>> seen(families.size());
  int last_family = 0;
  for (int p = 0; p < moves.pairs(); ++p) {
    const int f = moves.pair_family[static_cast<std::size_t>(p)];
    ASSERT_GE(f, last_family) << what;
    last_family = f;
    for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
      const std::int32_t a = moves.anchors[static_cast<std::size_t>(k)];
      if (k > moves.pair_offset[p]) EXPECT_LT(moves.anchors[k - 1], a) << what << " pair " << p;
      EXPECT_TRUE(seen[static_cast<std::size_t>(f)].insert(a).second)
          << what << ": family " << f << " anchor " << a << " in two pairs";
    }
    if (is_kokkos_kernels) EXPECT_GT(moves.pair_offset[p + 1], moves.pair_offset[p]) << what;
  }
  for (std::size_t f = 0; f < families.size(); ++f) {
    EXPECT_EQ(std::vector<std::int32_t>(seen[f].begin(), seen[f].end()), families[f].candidates)
        << what << ": family " << f;
  }
  // Brute force: no two moves of a pair touch a common byte.
  for (int p = 0; p < moves.pairs(); ++p) {
    const Family& fam = families[static_cast<std::size_t>(moves.pair_family[p])];
    std::vector<std::set<std::int64_t>> sets;
    for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
      const auto at = std::lower_bound(fam.candidates.begin(), fam.candidates.end(),
                                       moves.anchors[static_cast<std::size_t>(k)]);
      ASSERT_TRUE(at != fam.candidates.end());
      const auto i = static_cast<std::size_t>(at - fam.candidates.begin());
      const auto first = fam.touched.begin() +
                         static_cast<std::ptrdiff_t>(i * static_cast<std::size_t>(fam.per_vertex));
      sets.emplace_back(first, first + fam.per_vertex);
      for (const std::int64_t b : sets.back()) {
        ASSERT_GE(b, 0);
        ASSERT_LT(b, bytes);
      }
    }
    for (std::size_t i = 0; i < sets.size(); ++i)
      for (std::size_t j = i + 1; j < sets.size(); ++j)
        for (const std::int64_t b : sets[i])
          ASSERT_EQ(sets[j].count(b), 0u) << what << ": pair " << p << " shares byte " << b;
  }
}

// The Kokkos Kernels classes equal the colouring of the family's conflict graph on every
// backend (the same on each), and use at most max degree + 1 colours.
template <class MoveSet>
void expect_same_colouring_on_every_backend(const MoveSet& moves,
                                            const std::vector<Family>& families, std::int64_t bytes,
                                            const std::string& what) {
  std::printf("%s: %d kokkos_kernels pairs; colours (max degree) per family:", what.c_str(),
              moves.pairs());
  for (std::size_t f = 0; f < families.size(); ++f) {
    const ConflictGraph g = conflict_graph(families[f].per_vertex, families[f].touched, bytes);
    const std::vector<int> host =
        colours_on_every_backend(g, what + ": family " + std::to_string(f));
    ASSERT_FALSE(::testing::Test::HasFailure()) << what << ": family " << f;
    const int colours = host.empty() ? 0 : *std::max_element(host.begin(), host.end()) + 1;
    EXPECT_LE(colours, g.max_degree() + 1) << what;
    std::printf(" %d (%d)", colours, g.max_degree());
    // Pair of (f, c) holds exactly the candidates of colour c.
    int c = 0;
    for (int p = 0; p < moves.pairs(); ++p) {
      if (moves.pair_family[static_cast<std::size_t>(p)] != static_cast<int>(f)) continue;
      std::vector<std::int32_t> expected;
      for (std::size_t v = 0; v < host.size(); ++v)
        if (host[v] == c) expected.push_back(families[f].candidates[v]);
      EXPECT_EQ(std::vector<std::int32_t>(moves.anchors.begin() + moves.pair_offset[p],
                                          moves.anchors.begin() + moves.pair_offset[p + 1]),
                expected)
          << what << ": family " << f << " colour " << c;
      ++c;
    }
    EXPECT_EQ(c, colours) << what << ": family " << f;
  }
  std::printf("\n");
}

std::vector<Family> bibone_families(const BiboneDomain& d) {
  std::vector<Family> out;
  for (const BiboneCycle& cycle : bibone_cycles()) {
    Family fam;
    const auto offsets = cycle.offsets();
    fam.per_vertex = static_cast<int>(offsets.size());
    for (int y = 0; y < d.height(); ++y) {
      for (int x = 0; x < d.width(); ++x) {
        bool inside = true;
        for (const auto& o : offsets) inside = inside && d.contains(x + o[0], y + o[1]);
        if (!inside) continue;
        fam.candidates.push_back(x + d.width() * y);
        for (const auto& o : offsets) fam.touched.push_back(x + o[0] + d.width() * (y + o[1]));
      }
    }
    out.push_back(std::move(fam));
  }
  return out;
}

std::vector<Family> rect_triangle_families(const TriangularDomain& d) {
  std::vector<Family> out;
  for (const RectTriangleRegion& region :
       rect_triangle_regions(RectTriangleMoves::vertex_and_open_ear)) {
    Family fam;
    fam.per_vertex = static_cast<int>(region.faces.size());
    for (int y = 0; y <= d.height(); ++y) {
      for (int x = 0; x <= d.width(); ++x) {
        bool inside = true;
        for (const auto& q : region.faces)
          inside = inside && (q[2] ? d.has_up(x + q[0], y + q[1]) : d.has_down(x + q[0], y + q[1]));
        if (!inside) continue;
        fam.candidates.push_back(x + (d.width() + 1) * y);
        for (const auto& q : region.faces)  // face byte 2 (cx + width cy) + (0 up, 1 down)
          fam.touched.push_back(2 * (x + q[0] + std::int64_t{d.width()} * (y + q[1])) +
                                (q[2] ? 0 : 1));
      }
    }
    out.push_back(std::move(fam));
  }
  return out;
}

TEST(MoveColouring, BiboneClassesAreExactPartitionsIntoDisjointCycles) {
  SKIP_WITHOUT_KOKKOS_KERNELS();
  const std::vector<std::pair<std::string, BiboneDomain>> domains = {
      {"parallelogram 2 2", BiboneDomain::parallelogram(2, 2)},
      {"parallelogram 3 4", BiboneDomain::parallelogram(3, 4)},
      {"irregular", BiboneDomain::from_mask("###.\n####\n.###\n..##\n")},
      {"hourglass", BiboneDomain::from_mask(".###..\n..##..\n..###.\n....##\n")},
      {"triangle 4", BiboneDomain::triangle(4)},
      {"hexagon 3 4 2", BiboneDomain::hexagon(3, 4, 2)},
      {"slanted", BiboneDomain::from_mask("..####\n.#####\n######\n#####.\n####..\n")},
      {"hexagon 9 10 7", BiboneDomain::hexagon(9, 10, 7)},
      {"parallelogram 23 19", BiboneDomain::parallelogram(23, 19)},
  };
  for (const auto& [name, d] : domains) {
    const std::vector<Family> families = bibone_families(d);
    const BiboneMoveSet kk = bibone_move_set(d, MoveColouring::kokkos_kernels);
    const BiboneMoveSet periodic = bibone_move_set(d, MoveColouring::periodic);
    EXPECT_EQ(kk.colouring, MoveColouring::kokkos_kernels);
    EXPECT_TRUE(kk.colourings.empty());
    EXPECT_EQ(periodic.pairs(), 50);
    expect_classes(kk, families, d.box_sites(), "bibone kk " + name, true);
    expect_classes(periodic, families, d.box_sites(), "bibone periodic " + name, false);
    expect_same_colouring_on_every_backend(kk, families, d.box_sites(), "bibone " + name);
    std::printf("  (%d sites, %lld candidate cycles, periodic: 50 pairs)\n", d.site_count(),
                static_cast<long long>(kk.candidates()));
  }
}

TEST(MoveColouring, BiboneRegionWithoutCyclesGetsOneEmptyPair) {
  SKIP_WITHOUT_KOKKOS_KERNELS();
  const BiboneDomain d = BiboneDomain::from_mask("##\n");  // one dimer, no cycle
  const BiboneMoveSet kk = bibone_move_set(d, MoveColouring::kokkos_kernels);
  ASSERT_EQ(kk.pairs(), 1);
  EXPECT_EQ(kk.candidates(), 0);
  EXPECT_EQ(kk.pair_offset, (std::vector<std::int32_t>{0, 0}));
}

TEST(MoveColouring, RectTriangleClassesAreExactPartitionsIntoDisjointRegions) {
  SKIP_WITHOUT_KOKKOS_KERNELS();
  const std::vector<std::pair<std::string, TriangularDomain>> domains = {
      {"hexagon 1 1 1", TriangularDomain::hexagon(1, 1, 1)},
      {"hexagon 2 2 1", TriangularDomain::hexagon(2, 2, 1)},
      {"hexagon 4 1 1", TriangularDomain::hexagon(4, 1, 1)},
      {"notched", TriangularDomain::from_mask("..#####.\n########\n.#######\n")},
      {"irregular", TriangularDomain::from_mask("..###...\n#######.\n.#######\n...#####\n")},
      {"hexagon 7 5 6", TriangularDomain::hexagon(7, 5, 6)},
      {"hexagon 9 10 7", TriangularDomain::hexagon(9, 10, 7)},
  };
  const RectTriangleWeights w{1.2, 0.9, 1.7};
  for (const auto& [name, d] : domains) {
    const std::vector<Family> families = rect_triangle_families(d);
    const std::int64_t bytes = 2 * std::int64_t{d.width()} * d.height();
    const RectTriangleMoveSet kk = rect_triangle_move_set(
        d, w, RectTriangleMoves::vertex_and_open_ear, MoveColouring::kokkos_kernels);
    const RectTriangleMoveSet periodic = rect_triangle_move_set(
        d, w, RectTriangleMoves::vertex_and_open_ear, MoveColouring::periodic);
    EXPECT_EQ(periodic.pairs(), 21);
    expect_classes(kk, families, bytes, "rect_triangle kk " + name, true);
    expect_classes(periodic, families, bytes, "rect_triangle periodic " + name, false);
    expect_same_colouring_on_every_backend(kk, families, bytes, "rect_triangle " + name);
    // pair_class is the colour: 0, 1, ... within each family.
    for (int p = 0; p < kk.pairs(); ++p) {
      const bool first = p == 0 || kk.pair_family[p - 1] != kk.pair_family[p];
      EXPECT_EQ(kk.pair_class[p], first ? 0 : kk.pair_class[p - 1] + 1) << name;
    }
    std::printf("  (%d triangle pairs, %zu candidate regions, periodic: 21 pairs)\n",
                d.triangle_pairs(), kk.anchors.size());
  }
}

// Setup cost on a larger domain (printed; the checks inside colour_conflict_graph run too).
TEST(MoveColouring, LargerDomainsAreColouredQuickly) {
  SKIP_WITHOUT_KOKKOS_KERNELS();
  using Clock = std::chrono::steady_clock;
  const BiboneDomain b = BiboneDomain::hexagon(40, 40, 40);
  auto start = Clock::now();
  const BiboneMoveSet bk = bibone_move_set(b, MoveColouring::kokkos_kernels);
  const double kk_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  start = Clock::now();
  const BiboneMoveSet bp = bibone_move_set(b, MoveColouring::periodic);
  const double periodic_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(bk.candidates(), bp.candidates());
  std::printf(
      "bibone hexagon 40 40 40: %lld cycles, kokkos_kernels %d pairs in %.3f s, "
      "periodic %d pairs in %.3f s\n",
      static_cast<long long>(bk.candidates()), bk.pairs(), kk_seconds, bp.pairs(),
      periodic_seconds);
  const TriangularDomain t = TriangularDomain::hexagon(40, 40, 40);
  start = Clock::now();
  const RectTriangleMoveSet tk = rect_triangle_move_set(
      t, {}, RectTriangleMoves::vertex_and_open_ear, MoveColouring::kokkos_kernels);
  const double t_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(tk.anchors.size(), rect_triangle_move_set(t, {}, RectTriangleMoves::vertex_and_open_ear,
                                                      MoveColouring::periodic)
                                   .anchors.size());
  std::printf("rect_triangle hexagon 40 40 40: %zu regions, kokkos_kernels %d pairs in %.3f s\n",
              tk.anchors.size(), tk.pairs(), t_seconds);
}

}  // namespace

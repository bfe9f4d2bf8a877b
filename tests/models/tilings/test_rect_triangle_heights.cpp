// Half-cube height functions of rectangle-triangle tilings (rect_triangle_heights.hpp):
// consistency and fixed boundary on every enumerated tiling of small domains, equality with the
// lozenge heights on lozenge tilings, the +3 of the lozenge vertex move, invariants after every
// Glauber step, what the heights do and do not determine, rejection of corrupted tilings and
// heights, and the heights the app's sampler returns.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/tilings/engine/detail/rect_triangle_glauber.hpp"
#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"
#include "portamc/tilings/lozenge/lozenge_heights.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_enumeration.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_heights.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"
#include "portamc/tilings/run.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
namespace rt = portamc::tilings::rect_triangle;

// The 3x2x1 hexagon with a lozenge cut out of a corner of its top side (83 tilings).
TriangularDomain notched_domain() {
  return TriangularDomain::from_mask(
      "..#####.\n"
      "########\n"
      ".#######\n");
}

std::vector<TriangularDomain> small_domains() {
  return {TriangularDomain::hexagon(1, 1, 1), TriangularDomain::hexagon(2, 1, 1),
          TriangularDomain::hexagon(2, 2, 1), TriangularDomain::hexagon(2, 2, 2), notched_domain()};
}

template <class E>
void expect_throw_mentioning(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no exception (expected one mentioning '" << needle << "')";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// The rectangles of a tiling as (centre vertex index, orientation).
std::set<std::pair<int, int>> rectangles(const TriangularDomain& d, const RectTriangleTiling& t) {
  std::set<std::pair<int, int>> out;
  for (const RectTriangleTile& tile : tiles_of(t)) {
    if (tile.kind == RectTriangleTile::rectangle)
      out.insert({d.vertex_index(tile.x, tile.y), tile.direction});
  }
  return out;
}

// A lozenge tiling cut along its long diagonals (written here from lozenge_tiling.hpp's partner
// convention, independently of the library's own conversion).
RectTriangleTiling cut_lozenges(const TriangularDomain& d, const LozengeTiling& lozenges) {
  std::vector<RectTriangleTile> tiles;
  for (int y = 0; y < d.height(); ++y) {
    for (int x = 0; x < d.width(); ++x) {
      if (!d.has_up(x, y)) continue;
      // The shared edge of U(x, y) and its partner, from p to q (corners of U(x, y)).
      static constexpr int px[3] = {1, 0, 0}, py[3] = {0, 1, 0};
      static constexpr int qx[3] = {0, 0, 1}, qy[3] = {1, 0, 0};
      const int k = lozenges.partner(x, y);
      const int dx = qx[k] - px[k], dy = qy[k] - py[k];
      int d_pq = -1;
      for (int dir = 0; dir < 6; ++dir)
        if (rt::direction_dx(dir) == dx && rt::direction_dy(dir) == dy) d_pq = dir;
      tiles.push_back({RectTriangleTile::triangle, x + px[k], y + py[k], d_pq});
      tiles.push_back({RectTriangleTile::triangle, x + qx[k], y + qy[k], (d_pq + 3) % 6});
    }
  }
  return tiling_from_tiles(d, tiles);
}

TEST(RectTriangleHeights, EveryTilingHasConsistentHeightsAndTheDomainsBoundary) {
  for (const TriangularDomain& d : small_domains()) {
    const RectTriangleHeights boundary = rect_triangle_boundary_heights(d);
    // Boundary heights: +1 along every boundary edge in its positive direction.
    for (const DomainEdge& e : domain_edges(d)) {
      if (!e.interior) EXPECT_EQ(boundary.values[e.to] - boundary.values[e.from], 1);
    }
    const auto all = list_rect_triangle_tilings(d, 100000);
    ASSERT_GT(all.size(), 0u);
    for (const RectTriangleTiling& t : all) {
      const RectTriangleHeights h = heights_from_tiling(d, t);
      ASSERT_NO_THROW(validate_heights(d, t, h)) << d.to_mask();
      ASSERT_TRUE(is_valid_heights(d, t, h));
      const auto rects = rectangles(d, t);
      std::set<int> centres;
      for (const auto& r : rects) centres.insert(r.first);
      for (int v = 0; v < d.vertex_count(); ++v) {
        const int x = v % (d.width() + 1), y = v / (d.width() + 1);
        if (boundary.values[v] != no_height) EXPECT_EQ(h.values[v], boundary.values[v]);
        // Heights at exactly the domain vertices that are not rectangle centres.
        EXPECT_EQ(h.values[v] != no_height, d.contains_vertex(x, y) && centres.count(v) == 0)
            << "vertex (" << x << ", " << y << ")\n"
            << d.to_mask();
        // The lift lies in the cubic lattice: h = x - y (mod 3) as for lozenges.
        if (h.values[v] != no_height) EXPECT_EQ(((h.values[v] - x + y) % 3 + 3) % 3, 0);
      }
    }
  }
}

TEST(RectTriangleHeights, LozengeTilingsGiveTheirLozengeHeights) {
  // The map between the two conventions is the identity (same base vertex and height).
  int checked = 0;
  for (const TriangularDomain& d :
       {TriangularDomain::hexagon(1, 1, 1), TriangularDomain::hexagon(2, 1, 1),
        TriangularDomain::hexagon(2, 2, 2), TriangularDomain::hexagon(3, 2, 2), notched_domain()}) {
    for_each_lozenge_tiling(d, [&](const LozengeTiling& lozenges) {
      const RectTriangleTiling t = cut_lozenges(d, lozenges);
      ASSERT_EQ(rectangles(d, t).size(), 0u);
      EXPECT_EQ(heights_from_tiling(d, t), heights_from_tiling(d, lozenges)) << d.to_mask();
      ++checked;
    });
  }
  const std::uint64_t expected = macmahon_box_count(1, 1, 1) + macmahon_box_count(2, 1, 1) +
                                 macmahon_box_count(2, 2, 2) + macmahon_box_count(3, 2, 2) +
                                 count_lozenge_tilings(notched_domain());
  EXPECT_EQ(static_cast<std::uint64_t>(checked), expected);
  // And the rectangle-free tilings of the enumeration are exactly those.
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 2);
  std::set<std::vector<int>> lozenge_heights, rect_free_heights;
  for_each_lozenge_tiling(hex, [&](const LozengeTiling& t) {
    lozenge_heights.insert(heights_from_tiling(hex, t).values);
  });
  for (const RectTriangleTiling& t : list_rect_triangle_tilings(hex, 1000)) {
    if (rectangles(hex, t).empty()) rect_free_heights.insert(heights_from_tiling(hex, t).values);
  }
  EXPECT_EQ(rect_free_heights, lozenge_heights);
  EXPECT_EQ(rect_free_heights.size(), 20u);
}

TEST(RectTriangleHeights, LozengeVertexMoveAddsACube) {
  // At every interior vertex in a lozenge configuration (0 or 1) of every tiling of the
  // 2x2x2 hexagon, the other lozenge configuration changes the centre height by exactly 3
  // (config 0 is the higher) and no other height; the rectangle configurations remove it.
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 2);
  int moves = 0;
  for (const RectTriangleTiling& t : list_rect_triangle_tilings(hex, 1000)) {
    const RectTriangleHeights h = heights_from_tiling(hex, t);
    for (const auto& v : rect_triangle_move_vertices(hex)) {
      const int config = t.vertex_configuration(v[0], v[1]);
      if (config < 0) continue;
      const int centre = hex.vertex_index(v[0], v[1]);
      for (int other = 0; other < rt::vertex_configs; ++other) {
        if (other == config) continue;
        RectTriangleTiling moved = t;
        moved.set_vertex_configuration(v[0], v[1], other);
        RectTriangleHeights expected = h;
        if (other >= 2) {
          expected.values[centre] = no_height;
        } else if (config >= 2) {
          continue;  // the centre height is new: checked by the lozenge pair below
        } else {
          expected.values[centre] += other == 0 ? 3 : -3;
          ++moves;
        }
        EXPECT_EQ(heights_from_tiling(hex, moved), expected);
      }
    }
  }
  EXPECT_GT(moves, 20);
}

void check_chain_keeps_heights_valid(const TriangularDomain& d, const RectTriangleWeights& w,
                                     std::uint64_t seed, int steps, std::size_t min_seen,
                                     MoveColouring colouring) {
  RectTriangleGlauber<TestSpace> chain(TestSpace(), d, w, seed, colouring);
  const RectTriangleHeights boundary = rect_triangle_boundary_heights(d);
  std::set<std::vector<int>> seen;
  int with_rectangles = 0;
  for (int s = 0; s < steps; ++s) {
    chain.run(1);
    const RectTriangleTiling t = chain.tiling();
    const RectTriangleHeights h = heights_from_tiling(d, t);
    ASSERT_NO_THROW(validate_heights(d, t, h)) << "step " << chain.steps_done();
    for (int v = 0; v < d.vertex_count(); ++v) {
      if (boundary.values[v] != no_height)
        ASSERT_EQ(h.values[v], boundary.values[v]) << "step " << chain.steps_done();
    }
    seen.insert(h.values);
    with_rectangles += rectangles(d, t).empty() ? 0 : 1;
  }
  std::printf("%zu height functions, %d of %d tilings with rectangles\n", seen.size(),
              with_rectangles, steps);
  // The chain moved through many height functions and reached rectangles.
  EXPECT_GE(seen.size(), min_seen);
  EXPECT_GT(with_rectangles, steps / 4);
}

// The thresholds are for these seeds' trajectories, which depend on the colour classes: two
// runs use the default classes (kokkos_kernels where built with Kokkos Kernels), two the
// periodic ones.
TEST(RectTriangleHeights, HeightsStayValidAfterEveryGlauberStep) {
  check_chain_keeps_heights_valid(TriangularDomain::hexagon(3, 3, 3), {1, 1, 1}, 5, 3000, 100,
                                  default_move_colouring);
  check_chain_keeps_heights_valid(TriangularDomain::hexagon(4, 3, 2), {1.5, 0.7, 2}, 7, 3000, 100,
                                  MoveColouring::periodic);
  check_chain_keeps_heights_valid(notched_domain(), {0.6, 1.4, 1}, 9, 2000, 10,
                                  MoveColouring::periodic);
  check_chain_keeps_heights_valid(TriangularDomain::hexagon(3, 3, 3), {1, 2, 0.5}, 13, 2000, 30,
                                  default_move_colouring);
}

TEST(RectTriangleHeights, HeightsWithTheRectanglesDetermineTheTiling) {
  // The heights alone do not: the three rectangle configurations of a hexagon share all
  // corner heights (different diagonal sections of one cube). Heights plus the rectangles
  // (centre, orientation) are injective, and tilings with equal heights have the same
  // rectangle centres and triangles away from the rectangles.
  for (const TriangularDomain& d : small_domains()) {
    const auto all = list_rect_triangle_tilings(d, 100000);
    std::map<std::vector<int>, std::vector<const RectTriangleTiling*>> by_heights;
    std::set<std::pair<std::vector<int>, std::set<std::pair<int, int>>>> lifts;
    for (const RectTriangleTiling& t : all) {
      const RectTriangleHeights h = heights_from_tiling(d, t);
      by_heights[h.values].push_back(&t);
      lifts.insert({h.values, rectangles(d, t)});
    }
    EXPECT_EQ(lifts.size(), all.size()) << d.to_mask();
    for (const auto& [heights, tilings] : by_heights) {
      const RectTriangleTiling& first = *tilings.front();
      for (const RectTriangleTiling* t : tilings) {
        EXPECT_EQ(rectangles(d, *t).size(), rectangles(d, first).size());
        // Triangles with no corner or straddled-edge end at a rectangle centre agree.
        std::set<int> centres;
        for (const auto& r : rectangles(d, *t)) centres.insert(r.first);
        auto far_triangles = [&](const RectTriangleTiling& u) {
          std::set<RectTriangleTile> out;
          for (const RectTriangleTile& tile : tiles_of(u)) {
            if (tile.kind != RectTriangleTile::triangle) continue;
            const int end = d.vertex_index(tile.x + rt::direction_dx(tile.direction),
                                           tile.y + rt::direction_dy(tile.direction));
            if (centres.count(end) == 0) out.insert(tile);
          }
          return out;
        };
        EXPECT_EQ(far_triangles(*t), far_triangles(first)) << d.to_mask();
      }
    }
    std::printf("%zu tilings, %zu height functions\n%s", all.size(), by_heights.size(),
                d.to_mask().c_str());
    if (d.width() == 2 && d.height() == 2) EXPECT_EQ(by_heights.size(), 3u);  // 1x1x1: 0, 1, R
  }
  // The 2x1x1 hexagon: 10 tilings, 10 distinct lifts, fewer height functions.
  const TriangularDomain hex211 = TriangularDomain::hexagon(2, 1, 1);
  std::set<std::vector<int>> heights211;
  const auto all211 = list_rect_triangle_tilings(hex211, 100);
  ASSERT_EQ(all211.size(), 10u);
  for (const auto& t : all211) heights211.insert(heights_from_tiling(hex211, t).values);
  EXPECT_LT(heights211.size(), 10u);
}

TEST(RectTriangleHeights, CorruptedTilingsAndHeightsAreRejected) {
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 1);
  const RectTriangleTiling good = rect_triangle_initial_tiling(hex);
  const RectTriangleHeights h = heights_from_tiling(hex, good);
  // A face code changed: the tiling check names the face.
  RectTriangleTiling bad = good;
  const int inside = hex.has_up(1, 1) ? 1 : 0;
  ASSERT_EQ(inside, 1);
  bad.codes()[rt::face_index(hex.width(), 1, 1, true)] =
      static_cast<std::uint8_t>(bad.code(1, 1, true) == 1 ? 2 : 1);
  expect_throw_mentioning<std::invalid_argument>([&] { heights_from_tiling(hex, bad); },
                                                 "rect-triangle tiling");
  expect_throw_mentioning<std::invalid_argument>([&] { validate_heights(hex, bad, h); },
                                                 "rect-triangle tiling");
  // Overlapping tiles (both lozenge configurations of one hexagon): paths disagree.
  const TriangularDomain one = TriangularDomain::hexagon(1, 1, 1);
  RectTriangleTiling c0 = rect_triangle_initial_tiling(one), c1 = c0;
  c0.set_vertex_configuration(1, 1, 0);
  c1.set_vertex_configuration(1, 1, 1);
  std::vector<RectTriangleTile> both = tiles_of(c0);
  for (const auto& tile : tiles_of(c1)) both.push_back(tile);
  expect_throw_mentioning<std::logic_error>([&] { heights_from_tiles(one, both); },
                                            "two paths from the base give vertex (");
  // A tile reaching out of the box or the domain.
  expect_throw_mentioning<std::invalid_argument>(
      [&] {
        heights_from_tiles(one, {{RectTriangleTile::triangle, 0, 0, 3}});
      },
      "outside the domain's box");
  expect_throw_mentioning<std::invalid_argument>(
      [&] {
        heights_from_tiles(one, {{RectTriangleTile::triangle, 1, 0, 2}});
      },
      "corner (0, 0) of triangle");
  // Heights changed in each way validate_heights names.
  RectTriangleTiling with_rect = good;
  int cx = -1, cy = -1;
  for (const auto& v : rect_triangle_move_vertices(hex)) {
    if (with_rect.vertex_configuration(v[0], v[1]) >= 0) {
      with_rect.set_vertex_configuration(v[0], v[1], 2);
      cx = v[0];
      cy = v[1];
      break;
    }
  }
  ASSERT_GE(cx, 0);
  const RectTriangleHeights hr = heights_from_tiling(hex, with_rect);
  const int centre = hex.vertex_index(cx, cy);
  ASSERT_EQ(hr.values[centre], no_height);
  auto expect_bad = [&](RectTriangleHeights changed, const std::string& needle) {
    EXPECT_FALSE(is_valid_heights(hex, with_rect, changed)) << needle;
    expect_throw_mentioning<std::invalid_argument>(
        [&] { validate_heights(hex, with_rect, changed); }, needle);
  };
  RectTriangleHeights x = hr;
  x.values[centre] = 0;
  expect_bad(x, "is a rectangle centre");
  x = hr;
  x.values[0] = 0;  // (0, 0) is outside the 2x2x1 hexagon
  ASSERT_FALSE(hex.contains_vertex(0, 0));
  expect_bad(x, "outside the domain");
  x = hr;
  const int base = base_vertex(hex);
  x.values[base] += 3;
  expect_bad(x, "boundary vertex");
  x = hr;
  x.values[base] = no_height;
  expect_bad(x, "has no height");
  // An interior tile corner shifted by 3 (a lattice-consistent but wrong value).
  int interior = -1;
  const RectTriangleHeights boundary = rect_triangle_boundary_heights(hex);
  for (int v = 0; v < hex.vertex_count(); ++v)
    if (hr.values[v] != no_height && boundary.values[v] == no_height) interior = v;
  ASSERT_GE(interior, 0);
  x = hr;
  x.values[interior] += 3;
  expect_bad(x, "along a tile side");
  x = hr;
  x.width += 1;
  expect_bad(x, "does not match");
  EXPECT_TRUE(is_valid_heights(hex, with_rect, hr));
}

TEST(RectTriangleHeights, SamplerReturnsTheLastSamplesHeights) {
  RunParameters p;
  p.model = TilingModel::rect_triangle;
  p.mode = SamplingMode::glauber;
  p.domain_kind = "hexagon";
  p.domain_size = {3, 2, 2};
  p.weights_kind = "tcr";
  p.weight_values = {1.0, 1.3, 0.9};
  p.seed = 4;
  p.samples = 3;
  p.thermalisation_sweeps = 20;
  p.sweeps_between_samples = 2;
  const std::string backend = portamc::backend_name<TestSpace>();
  const PreparedRun run = prepare_run(p, backend);
  const RunResults r = run_sampling(
      run, [](double, const std::string&) { return true; }, portamc::parallel::Communicator(),
      backend);
  const TriangularDomain& d = *run.triangular;
  ASSERT_EQ(r.heights.rows, static_cast<std::size_t>(d.height()) + 1);
  ASSERT_EQ(r.heights.cols, static_cast<std::size_t>(d.width()) + 1);
  const RectTriangleTiling last(d.width(), d.height(), r.configuration.values);
  RectTriangleHeights h{d.width(), d.height(), {r.heights.values.begin(), r.heights.values.end()}};
  EXPECT_NO_THROW(validate_heights(d, last, h));
  EXPECT_EQ(h, heights_from_tiling(d, last));
}

}  // namespace

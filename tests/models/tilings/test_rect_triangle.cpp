// Rectangle-triangle tilings: geometry tables, validity of initial tilings and moves, exact
// enumeration (cross-checked by symmetry and by the lozenge tilings it contains), connectivity
// of the vertex moves by breadth-first search, disjointness of the colour classes, and the
// Glauber sampler on each backend of the build (TestSpace: host reference bit for bit, uniform and
// weighted chi-square with periodic and with Kokkos Kernels colour classes, bad inputs).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "chi_square.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/engine/detail/rect_triangle_glauber.hpp"
#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"
#include "portamc/tilings/rect_triangle/detail/rect_triangle_moves.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_enumeration.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
namespace rt = portamc::tilings::rect_triangle;
namespace rng = portamc::rng;

void expect_invalid_argument(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no std::invalid_argument (expected one mentioning '" << needle << "')";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// The 3x2x1 hexagon with a lozenge cut out of a corner of its top side (83 tilings).
const char* const notched_mask =
    "..#####.\n"
    "########\n"
    ".#######\n";
TriangularDomain irregular_domain() {
  return TriangularDomain::from_mask(notched_mask);
}

// The half-turn of a mask: U(x, y) <-> D(w-1-x, h-1-y) is the text read backwards.
std::string half_turn(const std::string& mask) {
  std::string body = mask.substr(0, mask.size() - 1);  // drop the last newline
  std::reverse(body.begin(), body.end());
  return body + "\n";
}

TEST(RectTriangleGeometry, HexagonConfigurationsAreTheFiveTilingsOfAStar) {
  // Each configuration's six codes are distinct configurations, and their face types give
  // the documented weights t^6 (configs 0, 1) and r^2 c^4 (configs 2..4).
  std::set<std::vector<int>> distinct;
  for (int config = 0; config < rt::vertex_configs; ++config) {
    std::vector<int> codes;
    int types[3] = {0, 0, 0};
    for (int j = 0; j < 6; ++j) {
      const int code = rt::vertex_config_code(config, j);
      ASSERT_GE(code, 1);
      ASSERT_LE(code, 15);
      codes.push_back(code);
      ++types[rt::face_type(code)];
    }
    distinct.insert(codes);
    int star[6];
    std::copy(codes.begin(), codes.end(), star);
    EXPECT_EQ(rt::vertex_configuration(star), config);
    if (config < 2) {
      EXPECT_EQ(types[rt::face_a_triangles], 6) << config;
    } else {
      EXPECT_EQ(types[rt::face_c_rectangles], 2) << config;
      EXPECT_EQ(types[rt::face_b_mixed], 4) << config;
    }
  }
  EXPECT_EQ(distinct.size(), 5u);
  // The single hexagon has exactly these five tilings.
  const TriangularDomain hex = TriangularDomain::hexagon(1, 1, 1);
  const auto all = list_rect_triangle_tilings(hex, 100);
  ASSERT_EQ(all.size(), 5u);
  std::set<int> configs;
  for (const auto& t : all) configs.insert(t.vertex_configuration(1, 1));
  EXPECT_EQ(configs, (std::set<int>{0, 1, 2, 3, 4}));
}

TEST(RectTriangleGeometry, TilePartsRoundTripThroughFaceCodes) {
  // Every tile placed alone in a big hexagon's face codes claims itself back from each part.
  for (int kind = 0; kind < 2; ++kind) {
    for (int d = 0; d < (kind == 0 ? 6 : 3); ++d) {
      const RectTriangleTile tile{kind, 3, 3, d};
      for (const auto& part : tile_parts(tile)) {
        const int cx = 3 + rt::star_cell_dx(part.j), cy = 3 + rt::star_cell_dy(part.j);
        const auto claimed =
            tiles_claimed_by_face(cx, cy, rt::star_is_up(part.j), part_code(tile, part));
        EXPECT_TRUE(std::find(claimed.begin(), claimed.end(), tile) != claimed.end())
            << to_string(tile) << " part j=" << part.j;
      }
    }
  }
}

TEST(RectTriangleTiling, InitialTilingsAreValidAllTriangleTilings) {
  for (const auto& d : {TriangularDomain::hexagon(1, 1, 1), TriangularDomain::hexagon(3, 2, 4),
                        TriangularDomain::hexagon(6, 6, 6), irregular_domain()}) {
    const RectTriangleTiling t = rect_triangle_initial_tiling(d);
    EXPECT_NO_THROW(validate_tiling(d, t)) << d.to_mask();
    const auto n = face_type_counts(t);
    EXPECT_EQ(n[0], 2 * d.triangle_pairs());
    EXPECT_EQ(n[1] + n[2], 0);
    EXPECT_EQ(tiling_from_tiles(d, tiles_of(t)), t);
    EXPECT_EQ(tiles_of(t).size(), static_cast<std::size_t>(2 * d.triangle_pairs()));
    EXPECT_EQ(rect_triangle_initial_tiling(d), t);  // deterministic
  }
}

TEST(RectTriangleTiling, WeightIsTheProductOverFaces) {
  const TriangularDomain hex = TriangularDomain::hexagon(1, 1, 1);
  RectTriangleTiling t = rect_triangle_initial_tiling(hex);
  const RectTriangleWeights w{1.5, 0.7, 2.25};
  EXPECT_NEAR(weight(w, t), std::pow(1.5, 6), 1e-9);
  const int config = t.vertex_configuration(1, 1);
  ASSERT_GE(config, 0);
  t.set_vertex_configuration(1, 1, 3);
  EXPECT_NEAR(log_weight(w, t), 2 * std::log(2.25) + 4 * std::log(0.7), 1e-12);
  EXPECT_NEAR(vertex_config_weight(w, 3), weight(w, t), 1e-12);
  const auto tiles = tiles_of(t);
  ASSERT_EQ(tiles.size(), 3u);  // one rectangle, two ears
  EXPECT_EQ(std::count_if(tiles.begin(), tiles.end(),
                          [](const auto& x) { return x.kind == RectTriangleTile::rectangle; }),
            1);
}

TEST(RectTriangleTiling, ValidationNamesTheFault) {
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 1);
  const RectTriangleTiling good = rect_triangle_initial_tiling(hex);
  RectTriangleTiling t = good;
  // A face outside the domain with a code.
  auto& codes = t.codes();
  const auto outside = std::find(hex.up_flags().begin(), hex.up_flags().end(), 0);
  ASSERT_NE(outside, hex.up_flags().end());
  codes[2 * static_cast<std::size_t>(outside - hex.up_flags().begin())] = 1;
  expect_invalid_argument([&] { validate_tiling(hex, t); }, "outside the domain but has code");
  // A domain face left uncovered.
  t = good;
  const auto inside = std::find(hex.up_flags().begin(), hex.up_flags().end(), 1);
  const std::size_t f = 2 * static_cast<std::size_t>(inside - hex.up_flags().begin());
  t.codes()[f] = 0;
  expect_invalid_argument([&] { validate_tiling(hex, t); }, "is not covered");
  // A face claiming a rectangle that is not there.
  t = good;
  t.codes()[f] = 1;
  expect_invalid_argument([&] { validate_tiling(hex, t); }, "is missing");
  EXPECT_FALSE(is_valid_tiling(hex, t));
  expect_invalid_argument(
      [&] {
        tiling_from_tiles(
            hex, {{RectTriangleTile::rectangle, 1, 1, 0}, {RectTriangleTile::rectangle, 1, 1, 1}});
      },
      "overlaps");
}

TEST(RectTriangleTiling, VertexMovesKeepTilingsValid) {
  const TriangularDomain d = TriangularDomain::hexagon(3, 3, 3);
  RectTriangleTiling t = rect_triangle_initial_tiling(d);
  const auto vertices = rect_triangle_move_vertices(d);
  std::uint64_t moves = 0;
  for (std::uint64_t step = 0; step < 3000; ++step) {
    const auto b = rng::draw(17, rng::purpose_test, 0, step);
    const auto& v = vertices[b[0] % vertices.size()];
    if (t.vertex_configuration(v[0], v[1]) < 0) continue;
    t.set_vertex_configuration(v[0], v[1], static_cast<int>(b[1] % rt::vertex_configs));
    ++moves;
    ASSERT_NO_THROW(validate_tiling(d, t)) << "after move " << moves;
  }
  EXPECT_GT(moves, 300u);
  const auto n = face_type_counts(t);
  EXPECT_GT(n[2], 0);  // some rectangles appeared
  EXPECT_EQ(n[0] + n[1] + n[2], 2 * d.triangle_pairs());
}

// Counts of hexagons agree under the lattice symmetries permuting the sides, and every
// lozenge tiling is one of the rectangle-triangle tilings (the ones with only (A) faces).
TEST(RectTriangleEnumeration, SearchFindsATilingOrReportsNone) {
  const TriangularDomain hex = TriangularDomain::hexagon(3, 2, 2);
  const auto found = find_rect_triangle_tiling(hex, 100000);
  ASSERT_TRUE(found.has_value());
  EXPECT_NO_THROW(validate_tiling(hex, *found));
  EXPECT_FALSE(
      find_rect_triangle_tiling(TriangularDomain::from_mask("#...\n####\n...#\n"), 100000));
  expect_invalid_argument([] { find_rect_triangle_tiling(TriangularDomain::hexagon(6, 6, 6), 10); },
                          "gave up");
  expect_invalid_argument(
      [] { list_rect_triangle_tilings(TriangularDomain::hexagon(2, 2, 2), 100); },
      "more than 100 tilings");
}

TEST(RectTriangleEnumeration, CountsAgreeUnderSymmetryAndContainTheLozengeTilings) {
  const std::uint64_t n211 = count_rect_triangle_tilings(TriangularDomain::hexagon(2, 1, 1));
  EXPECT_EQ(count_rect_triangle_tilings(TriangularDomain::hexagon(1, 2, 1)), n211);
  EXPECT_EQ(count_rect_triangle_tilings(TriangularDomain::hexagon(1, 1, 2)), n211);
  const std::uint64_t n221 = count_rect_triangle_tilings(TriangularDomain::hexagon(2, 2, 1));
  EXPECT_EQ(count_rect_triangle_tilings(TriangularDomain::hexagon(1, 2, 2)), n221);
  EXPECT_EQ(count_rect_triangle_tilings(TriangularDomain::hexagon(2, 1, 2)), n221);
  std::printf("rect-triangle tilings: hexagon 1x1x1 5, 2x1x1 %llu, 2x2x1 %llu\n",
              static_cast<unsigned long long>(n211), static_cast<unsigned long long>(n221));
  // Notched (non-hexagonal) domains and their half-turns.
  const std::string notched_222 =
      "..###...\n"
      "#######.\n"
      ".#######\n"
      "...#####\n";
  EXPECT_EQ(half_turn(notched_222), "#####...\n#######.\n.#######\n...###..\n");
  for (const std::string& mask : {std::string(notched_mask), notched_222}) {
    const std::uint64_t n = count_rect_triangle_tilings(TriangularDomain::from_mask(mask));
    EXPECT_EQ(count_rect_triangle_tilings(TriangularDomain::from_mask(half_turn(mask))), n);
    std::printf("%s%llu tilings\n", mask.c_str(), static_cast<unsigned long long>(n));
  }
  EXPECT_EQ(count_rect_triangle_tilings(irregular_domain()), 83u);
  EXPECT_EQ(count_rect_triangle_tilings(TriangularDomain::from_mask(notched_222)), 217u);
  for (const auto& d : {TriangularDomain::hexagon(2, 2, 1), irregular_domain()}) {
    const auto all = list_rect_triangle_tilings(d, 100000);
    std::uint64_t all_triangle = 0;
    for (const auto& t : all) {
      ASSERT_NO_THROW(validate_tiling(d, t));
      all_triangle += face_type_counts(t)[0] == 2 * d.triangle_pairs();
    }
    EXPECT_EQ(all_triangle, count_lozenge_tilings(d)) << d.to_mask();
  }
}

// The paper's elementary vertex move alone does not connect the tilings of the 2 x 1 x 1
// hexagon (the two-parallel-rectangles tilings are frozen), so the double-star moves exist.
TEST(RectTriangleMoves, VertexMovesAloneLeaveTilingsIsolated) {
  const TriangularDomain d = TriangularDomain::hexagon(2, 1, 1);
  const auto moves = rect_triangle_move_set(d, {}, RectTriangleMoves::vertex_only);
  const auto reached = tilings_reachable_by_moves(d, moves, rect_triangle_initial_tiling(d), 1000);
  EXPECT_EQ(reached.size(), 9u);
  EXPECT_EQ(count_rect_triangle_tilings(d), 10u);
}

TEST(RectTriangleMoves, StarAndOpenEarMovesConnectAllTilings) {
  for (const auto& d :
       {TriangularDomain::hexagon(1, 1, 1), TriangularDomain::hexagon(2, 1, 1),
        TriangularDomain::hexagon(1, 2, 1), TriangularDomain::hexagon(2, 2, 1),
        TriangularDomain::hexagon(3, 1, 1), TriangularDomain::hexagon(3, 2, 1),
        TriangularDomain::hexagon(2, 2, 2), TriangularDomain::hexagon(4, 1, 1),
        TriangularDomain::hexagon(3, 3, 1), TriangularDomain::hexagon(3, 2, 2), irregular_domain(),
        TriangularDomain::from_mask("..###...\n#######.\n.#######\n...#####\n")}) {
    const auto all = list_rect_triangle_tilings(d, 2000000);
    const auto moves = rect_triangle_move_set(d, {}, RectTriangleMoves::vertex_and_open_ear);
    const auto reached =
        tilings_reachable_by_moves(d, moves, rect_triangle_initial_tiling(d), 2000000);
    EXPECT_EQ(reached.size(), all.size()) << d.to_mask();
    EXPECT_TRUE(reached == all) << d.to_mask();
    std::printf("%zu tilings, connected: %s\n", all.size(), reached == all ? "yes" : "no");
  }
}

// The regions' tilings: the star's are the five documented configurations; every region
// tiling is a valid local tiling; colour classes touch disjoint faces.
TEST(RectTriangleMoves, RegionsAndColouringsAreConsistent) {
  const auto regions = rect_triangle_regions(RectTriangleMoves::vertex_and_open_ear);
  ASSERT_EQ(regions.size(), 7u);
  EXPECT_EQ(regions[0].tilings.size(), 5u);
  std::set<std::vector<std::uint8_t>> star;
  for (int config = 0; config < rt::vertex_configs; ++config) {
    std::vector<std::uint8_t> codes;
    for (int j = 0; j < 6; ++j)
      codes.push_back(static_cast<std::uint8_t>(rt::vertex_config_code(config, j)));
    star.insert(codes);
  }
  EXPECT_EQ(star, std::set<std::vector<std::uint8_t>>(regions[0].tilings.begin(),
                                                      regions[0].tilings.end()));
  for (std::size_t f = 1; f < 7; ++f) {
    EXPECT_EQ(regions[f].tilings.size(), 2u) << f;
    EXPECT_EQ(rect_triangle_colouring(regions[f]).classes, 3) << f;
  }
  EXPECT_EQ(rect_triangle_colouring(regions[0]).classes, 3);

  const TriangularDomain d = TriangularDomain::hexagon(7, 5, 6);
  const auto moves = rect_triangle_move_set(d, {}, RectTriangleMoves::vertex_and_open_ear,
                                            MoveColouring::periodic);
  ASSERT_EQ(moves.pairs(), 21);
  for (int p = 0; p < moves.pairs(); ++p) {
    const auto& shape = moves.shapes[static_cast<std::size_t>(moves.pair_family[p])];
    std::vector<int> touched(2 * static_cast<std::size_t>(d.width() * d.height()), 0);
    for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
      const std::int32_t base = moves.base_of(moves.anchors[static_cast<std::size_t>(k)]);
      for (int i = 0; i < shape.faces; ++i) {
        const std::int32_t f = base + shape.offset[i];
        ASSERT_GE(f, 0);
        ASSERT_LT(static_cast<std::size_t>(f), touched.size());
        EXPECT_EQ(touched[static_cast<std::size_t>(f)]++, 0) << "pair " << p << " face " << f;
      }
    }
  }
  std::printf("%d (family, class) pairs; classes per family:", moves.pairs());
  for (const auto& c : moves.colourings) std::printf(" %d", c.classes);
  std::printf("\n");
}

// Host reference of step t: the chosen pair's anchors, one after the other.
void host_step(const RectTriangleMoveSet& moves, ClassOrder order, std::uint64_t seed,
               std::uint64_t t, std::uint64_t vertex_count, std::vector<std::uint8_t>& codes) {
  const int p = step_class(order, seed, t, moves.pairs());
  const int f = moves.pair_family[static_cast<std::size_t>(p)];
  const RectTriangleMoveShape& shape = moves.shapes[static_cast<std::size_t>(f)];
  for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
    const std::int32_t vertex = moves.anchors[static_cast<std::size_t>(k)];
    const std::int32_t base = moves.base_of(vertex);
    if (shape.config_at(codes.data(), base) < 0) continue;
    const std::uint64_t entity = static_cast<std::uint64_t>(f) * vertex_count + vertex;
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update, entity, t)[0];
    shape.set_config(codes.data(), base, shape.choose(u));
  }
}

TEST(RectTriangleGlauber, TilingStaysValidAfterEveryStep) {
  const TriangularDomain d = TriangularDomain::hexagon(3, 3, 2);
  RectTriangleGlauber<TestSpace> sampler(TestSpace(), d, {1.0, 1.5, 0.8}, 11);
  int changed = 0;
  RectTriangleTiling last = sampler.tiling();
  for (int s = 0; s < 2000; ++s) {
    sampler.run(1);
    const RectTriangleTiling now = sampler.tiling();
    ASSERT_NO_THROW(validate_tiling(d, now)) << "after step " << s + 1;
    changed += now != last;
    last = now;
  }
  EXPECT_GT(changed, 100);
  EXPECT_EQ(sampler.steps_done(), 2000u);
  EXPECT_GT(face_type_counts(last)[2], 0);
}

TEST(RectTriangleGlauber, StepsMatchTheHostReference) {
  const TriangularDomain d = TriangularDomain::hexagon(9, 10, 7);
  const RectTriangleWeights w{1.2, 0.9, 1.7};
  const std::uint64_t seed = 0x5eed'0000'0000'7e77ULL;
  for (const ClassOrder order : {ClassOrder::random, ClassOrder::cyclic}) {
    RectTriangleGlauber<TestSpace> device(TestSpace(), d, w, seed);
    device.set_class_order(order);
    std::vector<std::uint8_t> reference = device.tiling().codes();
    const RectTriangleMoveSet& moves = device.move_set();
    std::uint64_t t = 0;
    for (int block = 0; block < 20; ++block) {
      device.run(50);
      for (int s = 0; s < 50; ++s) {
        host_step(moves, order, seed, ++t, static_cast<std::uint64_t>(d.vertex_count()), reference);
      }
      ASSERT_EQ(device.tiling().codes(), reference) << to_string(order) << ", step " << t;
    }
    EXPECT_NE(reference, rect_triangle_initial_tiling(d).codes());
    EXPECT_NO_THROW(validate_tiling(d, device.tiling()));
  }
}

// Counts of the thinned states of one long run, per tiling (sorted enumeration order).
std::vector<std::uint64_t> sample_counts(const TriangularDomain& d, const RectTriangleWeights& w,
                                         const std::vector<RectTriangleTiling>& all,
                                         std::uint64_t seed, int samples, int thin_sweeps,
                                         MoveColouring colouring) {
  RectTriangleGlauber<TestSpace> sampler(TestSpace(), d, w, seed, colouring);
  sampler.run_sweeps(50);  // burn-in
  std::vector<std::uint64_t> counts(all.size(), 0);
  for (int i = 0; i < samples; ++i) {
    sampler.run_sweeps(static_cast<std::uint64_t>(thin_sweeps));
    const RectTriangleTiling t = sampler.tiling();
    const auto it = std::lower_bound(all.begin(), all.end(), t);
    EXPECT_TRUE(it != all.end() && *it == t);
    ++counts[static_cast<std::size_t>(it - all.begin())];
  }
  return counts;
}

// Chi-square of one long thinned run against the exact law (weights from the enumeration), and
// the same counts must reject a visibly wrong law (so the test has power).
// colouring: the chain's colour classes (both kinds are tested; a sweep is one step per pair).
void expect_law(const TriangularDomain& d, const RectTriangleWeights& w, std::uint64_t seed,
                int samples, MoveColouring colouring, int thin = 4) {
  if (!move_colouring_available(colouring)) GTEST_SKIP() << "no Kokkos Kernels in this build";
  const auto all = list_rect_triangle_tilings(d, 100000);
  ASSERT_GE(all.size(), 3u);
  std::vector<double> exact(all.size());
  double z = 0;
  for (std::size_t i = 0; i < all.size(); ++i) z += exact[i] = weight(w, all[i]);
  for (double& p : exact) p /= z;
  const auto counts = sample_counts(d, w, all, seed, samples, thin, colouring);
  const auto fit = portamc::tilings::testing::chi_square(counts, exact);
  EXPECT_GT(fit.p_value, 1e-6) << d.to_mask() << fit.table;
  std::vector<double> wrong(all.size());
  double total = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    total += wrong[i] = exact[i] * (i < all.size() / 2 ? 1.5 : 1.0);
  }
  for (double& p : wrong) p /= total;
  EXPECT_LT(portamc::tilings::testing::chi_square(counts, wrong).p_value, 1e-6);
  std::printf(
      "%zu tilings, %d samples, t c r = %g %g %g, %s classes (%d pairs): chi2 %.1f, %d dof, "
      "p %.3g\n",
      all.size(), samples, w.t, w.c, w.r, to_string(colouring),
      rect_triangle_move_set(d, w, RectTriangleMoves::vertex_and_open_ear, colouring).pairs(),
      fit.statistic, fit.degrees_of_freedom, fit.p_value);
}

TEST(RectTriangleGlauber, UniformOnTheTwoTwoOneHexagon) {
  expect_law(TriangularDomain::hexagon(2, 2, 1), {}, 2024, 20000, MoveColouring::periodic);
}

TEST(RectTriangleGlauber, UniformOnANotchedHexagon) {
  expect_law(irregular_domain(), {}, 4242, 20000, MoveColouring::kokkos_kernels);
}

TEST(RectTriangleGlauber, UniformOnTheFourOneOneHexagon) {
  // Rows of up to four parallel rectangles: only the open-ear moves dissolve them.
  expect_law(TriangularDomain::hexagon(4, 1, 1), {}, 7, 20000, MoveColouring::kokkos_kernels);
}

// Weights far from 1 make rectangles sticky (slow mixing), so these stay moderate and the
// exact detailed-balance test below covers strong weights.
TEST(RectTriangleGlauber, WeightedOnTheTwoTwoOneHexagon) {
  expect_law(TriangularDomain::hexagon(2, 2, 1), {0.8, 1.2, 1.4}, 99, 20000,
             MoveColouring::periodic, 6);
}

TEST(RectTriangleGlauber, WeightedOnTheThreeOneOneHexagon) {
  expect_law(TriangularDomain::hexagon(1, 3, 1), {1.5, 0.7, 1.2}, 5, 20000,
             MoveColouring::kokkos_kernels);
}

// Every move of every family satisfies detailed balance exactly (up to the 2^-32 rounding of
// the thresholds) for strong weights, and leads to a tiling of the enumeration.
TEST(RectTriangleGlauber, HeatBathMovesSatisfyDetailedBalance) {
  const TriangularDomain d = TriangularDomain::hexagon(2, 2, 1);
  const RectTriangleWeights w{0.5, 2.5, 3.0};
  const auto all = list_rect_triangle_tilings(d, 1000);
  const auto moves = rect_triangle_move_set(d, w, RectTriangleMoves::vertex_and_open_ear);
  auto probability = [](const RectTriangleMoveShape& shape, int c) {
    const double hi =
        c + 1 < shape.configs ? static_cast<double>(shape.cumulative[c]) : 4294967296.0;
    const double lo = c > 0 ? static_cast<double>(shape.cumulative[c - 1]) : 0.0;
    return (hi - lo) / 4294967296.0;
  };
  int checked = 0;
  for (const auto& t : all) {
    for (int p = 0; p < moves.pairs(); ++p) {
      const auto& shape = moves.shapes[static_cast<std::size_t>(moves.pair_family[p])];
      for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
        const std::int32_t base = moves.base_of(moves.anchors[static_cast<std::size_t>(k)]);
        const int c = shape.config_at(t.codes().data(), base);
        if (c < 0) continue;
        for (int next = 0; next < shape.configs; ++next) {
          RectTriangleTiling moved = t;
          shape.set_config(moved.codes().data(), base, next);
          ASSERT_TRUE(std::binary_search(all.begin(), all.end(), moved));
          ASSERT_EQ(shape.config_at(moved.codes().data(), base), next);
          const double forward = weight(w, t) * probability(shape, next);
          const double backward = weight(w, moved) * probability(shape, c);
          // Each probability is a difference of two thresholds rounded to 2^-32.
          const double rounding =
              std::ldexp(1.0, -32) * (1 / probability(shape, next) + 1 / probability(shape, c));
          EXPECT_NEAR(forward / backward, 1.0, rounding + 1e-12) << "pair " << p << " anchor " << k;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(RectTriangleGlauber, RefusesBadInputs) {
  const TriangularDomain hex = TriangularDomain::hexagon(2, 2, 1);
  expect_invalid_argument(
      [&] {
        RectTriangleGlauber<TestSpace>(TestSpace(), hex, {0.0, 1.0, 1.0}, 1);
      },
      "t (faces covered by triangles only) is 0");
  expect_invalid_argument(
      [&] {
        RectTriangleGlauber<TestSpace>(TestSpace(), hex, {1.0, -2.0, 1.0}, 1);
      },
      "c (faces");
  expect_invalid_argument(
      [&] {
        RectTriangleGlauber<TestSpace>(TestSpace(), hex, {1.0, 1.0, std::nan("")}, 1);
      },
      "r (faces");
  expect_invalid_argument(
      [&] {
        RectTriangleGlauber<TestSpace>(TestSpace(), hex, {1.0, 1.0, INFINITY}, 1);
      },
      "finite and positive");
  // Balanced and simply connected but without any tiling (found by exhaustive search).
  const TriangularDomain untileable = TriangularDomain::from_mask("#...\n####\n...#\n");
  EXPECT_EQ(count_rect_triangle_tilings(untileable), 0u);
  expect_invalid_argument([&] { RectTriangleGlauber<TestSpace>(TestSpace(), untileable, {}, 1); },
                          "not tileable");
  // One lozenge: tileable, but no vertex move can ever apply.
  const TriangularDomain lozenge = TriangularDomain::from_mask("##\n");
  EXPECT_EQ(count_rect_triangle_tilings(lozenge), 1u);
  expect_invalid_argument([&] { RectTriangleGlauber<TestSpace>(TestSpace(), lozenge, {}, 1); },
                          "too small");
  // A given initial tiling is validated.
  RectTriangleTiling bad = rect_triangle_initial_tiling(hex);
  bad.codes()[bad.codes().size() / 2] ^= 3;
  EXPECT_THROW(RectTriangleGlauber<TestSpace>(TestSpace(), hex, {}, 1, bad), std::invalid_argument);
}

}  // namespace

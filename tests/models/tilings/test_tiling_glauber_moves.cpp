// The device Glauber step against a sequential host re-implementation built on the host
// rotation code (domino_tiling.hpp, lozenge_tiling.hpp) and the same Philox draws; the height
// function stays valid with fixed boundary heights after every step; densities count what they
// should; on each backend of the build (TestSpace). That one seed gives bitwise the same states
// on every backend: test_tilings_backends.cpp.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "portamc/rng.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"
#include "portamc/tilings/domino/thurston.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
namespace rng = portamc::rng;

// Host reference of step t: every rotatable vertex of the chosen class, in any order, ends in
// configuration B (vertical pair / with the cube) as ends_in_b decides for its current state.
void host_domino_step(const SquareDomain& domain, const DominoWeights& weights, UpdateRule rule,
                      std::uint64_t seed, std::uint64_t t, DominoTiling& tiling) {
  const auto thresholds = domino_move_thresholds(weights, rule);
  const int c = DominoGlauber<TestSpace>::class_of_step(seed, t);
  for (int i = 1; i < domain.rows(); ++i) {
    for (int j = 1; j < domain.cols(); ++j) {
      if (SquareDomain::vertex_colour(i, j) != c) continue;
      const int dir = rotation_direction(domain, tiling, i, j);
      if (dir == 0) continue;
      const bool vertical = tiling.at(i - 1, j - 1) == direction::south;
      const std::uint32_t u =
          rng::draw(seed, rng::purpose_tiling_update, domain.vertex_index(i, j), t)[0];
      const int entry =
          2 * ((i % weights.period_rows) * weights.period_cols + j % weights.period_cols);
      const bool want_vertical = ends_in_b(u, thresholds[entry + (vertical ? 1 : 0)]);
      if (want_vertical != vertical) {
        ASSERT_TRUE(rotate(domain, tiling, i, j, dir));
      }
    }
  }
}

void host_lozenge_step(const TriangularDomain& domain, const LozengeWeights& weights,
                       UpdateRule rule, std::uint64_t seed, std::uint64_t t,
                       LozengeTiling& tiling) {
  const auto thresholds = lozenge_move_thresholds(weights, rule);
  const int c = LozengeGlauber<TestSpace>::class_of_step(seed, t);
  for (int y = 0; y <= domain.height(); ++y) {
    for (int x = 0; x <= domain.width(); ++x) {
      if (vertex_colour(x, y) != c) continue;
      const int dir = tiling.rotation_direction(x, y);
      if (dir == 0) continue;
      const bool cube = dir < 0;
      const std::uint32_t u =
          rng::draw(seed, rng::purpose_tiling_update, domain.vertex_index(x, y), t)[0];
      if (ends_in_b(u, thresholds[cube ? 1 : 0]) != cube) {
        ASSERT_TRUE(tiling.rotate(x, y, dir));
      }
    }
  }
}

std::vector<int> boundary_only(const SquareDomain& domain, const std::vector<int>& heights) {
  std::vector<int> out(heights.size(), 0);
  for (int i = 0; i < domain.vertex_rows(); ++i) {
    for (int j = 0; j < domain.vertex_cols(); ++j) {
      if (domain.is_boundary_vertex(i, j))
        out[domain.vertex_index(i, j)] = heights[domain.vertex_index(i, j)];
    }
  }
  return out;
}

void check_domino_steps_against_host_reference(const SquareDomain& domain) {
  const std::vector<int> boundary = domino_boundary_heights(domain);
  struct Case {
    DominoWeights weights;
    UpdateRule rule;
  };
  const Case cases[] = {{DominoWeights::uniform(), UpdateRule::heat_bath},
                        {DominoWeights::vertical_horizontal(3.0, 0.5), UpdateRule::heat_bath},
                        {DominoWeights::two_periodic(1.0, 0.25), UpdateRule::heat_bath},
                        {DominoWeights::vertical_horizontal(3.0), UpdateRule::metropolis}};
  for (const Case& k : cases) {
    DominoGlauber<TestSpace> sampler(TestSpace(), domain, k.weights, 77, Start::minimal, k.rule);
    DominoTiling reference = minimal_domino_tiling(domain);
    int moved = 0;
    for (std::uint64_t t = 1; t <= 400; ++t) {
      const DominoTiling before = reference;
      host_domino_step(domain, k.weights, k.rule, 77, t, reference);
      sampler.run_steps(1);
      const DominoTiling now = sampler.tiling();
      ASSERT_EQ(now, reference) << "step " << t;
      moved += now != before;
      ASSERT_TRUE(is_valid_domino_tiling(domain, now)) << domino_tiling_error(domain, now);
      const std::vector<int> h = sampler.heights();
      ASSERT_TRUE(is_height_function(domain, h)) << height_function_error(domain, h);
      ASSERT_EQ(boundary_only(domain, h), boundary) << "boundary heights moved at step " << t;
    }
    EXPECT_GT(moved, 40) << to_string(k.rule);  // the chain does move
    EXPECT_EQ(sampler.steps_done(), 400u);
  }
}

TEST(TilingGlauberMoves, DominoStepsMatchTheHostReferenceAndKeepHeightsValid) {
  // An even and an odd number of columns: the kernel maps threads to every other column.
  check_domino_steps_against_host_reference(
      SquareDomain::from_mask("..####..\n"
                              ".######.\n"
                              "########\n"
                              "########\n"
                              "######..\n"
                              "######..\n"));
  // The Aztec diamond fills half its box: the kernel finds its vertices through the runs.
  check_domino_steps_against_host_reference(SquareDomain::aztec_diamond(5));
  check_domino_steps_against_host_reference(
      SquareDomain::from_mask("#####..\n"
                              "#######\n"
                              "#######\n"
                              "#######\n"
                              "#######\n"
                              "..#####\n"));
}

TEST(TilingGlauberMoves, LozengeStepsMatchTheHostReferenceAndKeepHeightsValid) {
  const TriangularDomain domain = TriangularDomain::hexagon(3, 4, 2);
  const LozengeHeights boundary = boundary_heights(domain);
  for (const auto& [q, rule] :
       {std::pair{1.0, UpdateRule::heat_bath}, std::pair{0.3, UpdateRule::heat_bath},
        std::pair{2.5, UpdateRule::metropolis}}) {
    LozengeGlauber<TestSpace> sampler(TestSpace(), domain, LozengeWeights{q}, 5, Start::maximal,
                                      rule);
    LozengeTiling reference = maximal_tiling(domain);
    int moved = 0;
    for (std::uint64_t t = 1; t <= 400; ++t) {
      const LozengeTiling before = reference;
      host_lozenge_step(domain, LozengeWeights{q}, rule, 5, t, reference);
      sampler.run_steps(1);
      const LozengeTiling now = sampler.tiling();
      ASSERT_EQ(now, reference) << "step " << t;
      moved += now != before;
      const LozengeHeights h = sampler.heights();  // validates the tiling
      ASSERT_TRUE(is_valid_heights(domain, h));
      for (std::size_t v = 0; v < h.values.size(); ++v) {
        if (boundary.values[v] != no_height) {
          ASSERT_EQ(h.values[v], boundary.values[v]) << v;
        }
      }
    }
    EXPECT_GT(moved, 40) << q;
  }
}

// Chains from the maximal and the minimal tiling driven by one seed are the monotone coupling
// of CFTP: under heat-bath the upper height function never drops below the lower one, and the
// two meet; the Metropolis flip rule breaks the order (why exact_sample refuses it): on the 2 x 2
// square both chains flip at once with probability 1/2 and swap places.
template <class Rule>
std::uint64_t steps_until_crossing_or_meeting(const SquareDomain& domain, UpdateRule rule,
                                              Rule check_order, bool& met) {
  const DominoWeights weights = DominoWeights::vertical_horizontal(1.5);
  DominoGlauber<TestSpace> upper(TestSpace(), domain, weights, 31, Start::maximal, rule);
  DominoGlauber<TestSpace> lower(TestSpace(), domain, weights, 31, Start::minimal, rule);
  met = false;
  for (std::uint64_t t = 1; t <= 20000; ++t) {
    upper.run_steps(1);
    lower.run_steps(1);
    const std::vector<int> hu = upper.heights(), hl = lower.heights();
    for (std::size_t v = 0; v < hu.size(); ++v) {
      if (!check_order(hu[v] >= hl[v])) return t;
    }
    if (hu == hl) {
      met = true;
      return t;
    }
  }
  return 0;
}

TEST(TilingGlauberMoves, HeatBathIsMonotoneAndMetropolisIsNot) {
  bool met = false;
  const std::uint64_t t = steps_until_crossing_or_meeting(
      SquareDomain::aztec_diamond(5), UpdateRule::heat_bath,
      [](bool ordered) {
        EXPECT_TRUE(ordered) << "heat-bath chains crossed";
        return ordered;
      },
      met);
  EXPECT_TRUE(met) << "no coalescence within 20000 steps, stopped at step " << t;
  const std::uint64_t crossing = steps_until_crossing_or_meeting(
      SquareDomain::rectangle(2, 2), UpdateRule::metropolis, [](bool ordered) { return ordered; },
      met);
  EXPECT_FALSE(met);
  EXPECT_GT(crossing, 0u) << "Metropolis chains never crossed";
}

TEST(TilingGlauberMoves, ClassesHoldEveryInteriorVertexOnce) {
  const SquareDomain aztec = SquareDomain::aztec_diamond(7);
  const DominoGlauber<TestSpace> d(TestSpace(), aztec, DominoWeights::uniform(), 1);
  std::int64_t interior[2] = {0, 0};
  for (int i = 0; i < aztec.vertex_rows(); ++i) {
    for (int j = 0; j < aztec.vertex_cols(); ++j) {
      if (aztec.is_interior_vertex(i, j)) ++interior[SquareDomain::vertex_colour(i, j)];
    }
  }
  EXPECT_EQ(d.class_size(0), interior[0]);
  EXPECT_EQ(d.class_size(1), interior[1]);
  const TriangularDomain hex = TriangularDomain::hexagon(4, 3, 5);
  const LozengeGlauber<TestSpace> l(TestSpace(), hex, LozengeWeights{}, 1);
  std::int64_t inner[3] = {0, 0, 0};
  for (int y = 0; y <= hex.height(); ++y) {
    for (int x = 0; x <= hex.width(); ++x) {
      if (hex.is_interior_vertex(x, y)) ++inner[vertex_colour(x, y)];
    }
  }
  for (int c = 0; c < 3; ++c) EXPECT_EQ(l.class_size(c), inner[c]) << c;
}

// locate(k) must list the movable vertices of a class in row-major order, across many runs
// and many 1024-vertex hint blocks, here on the host copy of the runs.
void expect_runs_list_the_class(int rows, int cols, int classes,
                                const std::function<bool(int, int)>& movable) {
  const auto host = build_vertex_runs(rows, cols, classes, movable, "test");
  for (int k = 0; k < classes; ++k) {
    std::vector<std::pair<int, int>> expected;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        if (((c - r) % classes + classes) % classes == k && movable(r, c))
          expected.push_back({r, c});
      }
    }
    const VertexRuns<Kokkos::HostSpace> runs = to_device<Kokkos::HostSpace>(host[k], classes);
    ASSERT_EQ(runs.vertices, static_cast<std::int32_t>(expected.size()));
    for (std::int32_t v = 0; v < runs.vertices; ++v) {
      std::int32_t r = -1, c = -1;
      runs.locate(v, r, c);
      ASSERT_EQ(std::make_pair(r, c), expected[v]) << "class " << k << ", vertex " << v;
    }
  }
}

TEST(TilingGlauberMoves, RunsLocateEveryVertexOfItsClass) {
  const SquareDomain aztec = SquareDomain::aztec_diamond(70);  // ~4900 vertices per class
  expect_runs_list_the_class(aztec.vertex_rows(), aztec.vertex_cols(), 2,
                             [&](int i, int j) { return aztec.is_interior_vertex(i, j); });
  // Several runs per row and rows without any.
  expect_runs_list_the_class(90, 130, 3, [](int r, int c) {
    return r % 7 != 3 && (c / 5) % 3 != 1 && (r * 31 + c * 17) % 11 != 0;
  });
}

TEST(TilingGlauberMoves, DensitiesAverageTheTileTypesOfTheSamples) {
  const SquareDomain domain = SquareDomain::aztec_diamond(5);
  DominoGlauber<TestSpace> sampler(TestSpace(), domain, DominoWeights::uniform(), 11);
  std::vector<double> sum(4 * domain.face_flags().size(), 0.0);
  for (int s = 0; s < 25; ++s) {
    sampler.run_sweeps(3);
    sampler.accumulate_densities();
    const DominoTiling t = sampler.tiling();
    for (std::size_t f = 0; f < t.partner.size(); ++f) {
      if (t.partner[f] < 4) sum[t.partner[f] * t.partner.size() + f] += 1;
    }
  }
  const TypeDensities d = sampler.densities();
  ASSERT_EQ(d.samples, 25u);
  for (int f = 0; f < d.cells; ++f) {
    double total = 0;
    for (int type = 0; type < 4; ++type) {
      EXPECT_DOUBLE_EQ(d.at(f, type), sum[type * d.cells + f] / 25.0);
      total += d.at(f, type);
    }
    EXPECT_DOUBLE_EQ(total, domain.face_flags()[f] ? 1.0 : 0.0) << f;
  }
  sampler.reset_densities();
  EXPECT_EQ(sampler.densities().samples, 0u);
  sampler.restart(Start::minimal);
  EXPECT_EQ(sampler.tiling(), minimal_domino_tiling(domain));
  EXPECT_EQ(sampler.steps_done(), 25u * 3u * 2u);
}

}  // namespace

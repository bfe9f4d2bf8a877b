// The bibone move set: breadth-first search over all enumerated matchings of many small simply
// connected regions shows that rhombus, side-2 triangle and butterfly flips connect them (and
// that each kind is needed); the periodic colouring of each family puts only site-disjoint cycles
// in one class.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/bibone/bibone_enumeration.hpp"
#include "portamc/tilings/bibone/detail/bibone_moves.hpp"

namespace {

using namespace portamc::tilings;

// Number of matchings reached from the first one by flips of the families with use(cycle).
std::size_t reachable(const BiboneDomain& domain, const std::vector<BiboneMatching>& all,
                      const std::function<bool(const BiboneCycle&)>& use) {
  const BiboneMoveSet moves = bibone_move_set(domain);
  std::vector<unsigned char> seen(all.size(), 0);
  std::vector<std::size_t> queue{0};
  seen[0] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::vector<std::uint8_t>& bytes = all[queue[head]].bytes();
    for (int p = 0; p < moves.pairs(); ++p) {
      const int f = moves.pair_family[p];
      if (!use(moves.cycles[f])) continue;
      for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
        const int state = bibone_cycle_state(bytes, moves.shapes[f], moves.anchors[k]);
        if (state < 0) continue;
        std::vector<std::uint8_t> next = bytes;
        bibone_set_cycle(next, moves.shapes[f], moves.anchors[k], 1 - state);
        const BiboneMatching m(next);
        validate_matching(domain, m);
        const auto it = std::lower_bound(all.begin(), all.end(), m);
        EXPECT_TRUE(it != all.end() && *it == m);
        const std::size_t i = static_cast<std::size_t>(it - all.begin());
        if (!seen[i]) {
          seen[i] = 1;
          queue.push_back(i);
        }
      }
    }
  }
  return queue.size();
}

std::vector<BiboneDomain> test_regions() {
  std::vector<BiboneDomain> out;
  for (int w = 1; w <= 5; ++w) {
    for (int h = 1; h <= 5; ++h) {
      if (w * h % 2 == 0 && w * h <= 20) out.push_back(BiboneDomain::parallelogram(w, h));
    }
  }
  for (int n : {3, 4, 7, 8}) out.push_back(BiboneDomain::triangle(n));
  for (int a = 1; a <= 4; ++a) {
    for (int b = 1; b <= 4; ++b) {
      for (int c = 1; c <= 3; ++c) {
        const BiboneDomain d = BiboneDomain::hexagon(a, b, c);
        if (d.site_count() % 2 == 0 && d.site_count() <= 24) out.push_back(d);
      }
    }
  }
  // Irregular regions: grown site by site from the centre of a 7 x 7 box by a fixed LCG (a
  // random neighbour of the region joins), kept when simply connected.
  std::uint32_t state = 12345;
  const auto next = [&state](int n) {
    state = state * 1664525u + 1013904223u;
    return static_cast<int>((state >> 8) % static_cast<std::uint32_t>(n));
  };
  for (int region = 0; region < 400; ++region) {
    const int size = 8 + 2 * next(10);  // 8 .. 26 sites
    std::vector<unsigned char> in(49, 0);
    std::vector<int> members{24};
    in[24] = 1;
    while (static_cast<int>(members.size()) < size) {
      const int s = members[next(static_cast<int>(members.size()))];
      const int d = next(6);
      const int x = s % 7 + bibone::dx[d], y = s / 7 + bibone::dy[d];
      if (x < 0 || y < 0 || x >= 7 || y >= 7 || in[x + 7 * y]) continue;
      in[x + 7 * y] = 1;
      members.push_back(x + 7 * y);
    }
    try {
      out.emplace_back(7, 7, in);
    } catch (const std::invalid_argument&) {
    }
  }
  return out;
}

bool all_cycles(const BiboneCycle&) {
  return true;
}
bool rhombi_only(const BiboneCycle& c) {
  return c.directions.size() == 4;
}

TEST(BiboneMoves, FlipsConnectAllMatchings) {
  int regions = 0, rhombi_not_enough = 0;
  std::size_t largest = 0;
  const auto cycles = bibone_cycles();
  std::vector<int> needed(cycles.size(), 0);
  for (const BiboneDomain& d : test_regions()) {
    const auto all = enumerate_bibone_matchings(d);
    if (all.size() < 2) continue;
    ++regions;
    largest = std::max(largest, all.size());
    ASSERT_EQ(reachable(d, all, all_cycles), all.size()) << d.to_mask();
    if (reachable(d, all, rhombi_only) < all.size()) ++rhombi_not_enough;
    for (std::size_t f = 0; f < cycles.size(); ++f) {
      const auto without = [&](const BiboneCycle& c) { return c.name != cycles[f].name; };
      needed[f] += reachable(d, all, without) < all.size();
    }
  }
  EXPECT_GT(regions, 300);
  EXPECT_GT(largest, 1000u);
  EXPECT_GT(rhombi_not_enough, 10);  // 6-cycle flips are needed, not a convenience
  std::printf("connected: %d regions (largest %zu matchings); rhombi alone fail on %d\n", regions,
              largest, rhombi_not_enough);
  // Each kind is needed somewhere (by symmetry, each orientation is, in rotated regions).
  EXPECT_GT(needed[0] * needed[1] * needed[2], 0);
  EXPECT_GT(needed[3] * needed[4], 0);
  EXPECT_GT(needed[5] + needed[6] + needed[7], 0);
  for (std::size_t f = 0; f < cycles.size(); ++f) {
    std::printf("  without %s: %d regions disconnected\n", cycles[f].name.c_str(), needed[f]);
  }
}

TEST(BiboneMoves, RhombiAloneDoNotConnectTheSide3Triangle) {
  const BiboneDomain d = BiboneDomain::triangle(3);
  const auto all = enumerate_bibone_matchings(d);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(reachable(d, all, rhombi_only), 1u);
  EXPECT_EQ(reachable(d, all, all_cycles), 2u);
}

// Rows of 3, 2, 3 sites with a tail: one of its three matchings leaves the others only by a
// butterfly flip (an 8-cycle), so 4- and 6-cycles do not suffice.
TEST(BiboneMoves, FourAndSixCyclesDoNotConnectTheHourglass) {
  const BiboneDomain d = BiboneDomain::from_mask(".###..\n..##..\n..###.\n....##\n");
  const auto all = enumerate_bibone_matchings(d);
  ASSERT_EQ(all.size(), 3u);
  const auto up_to_six = [](const BiboneCycle& c) { return c.directions.size() <= 6; };
  EXPECT_LT(reachable(d, all, up_to_six), all.size());
  EXPECT_EQ(reachable(d, all, all_cycles), 3u);
}

TEST(BiboneMoves, ColourClassesAreSiteDisjoint) {
  const BiboneDomain d = BiboneDomain::parallelogram(23, 19);
  const BiboneMoveSet moves = bibone_move_set(d, MoveColouring::periodic);
  ASSERT_EQ(moves.cycles.size(), 8u);
  const int expected_classes[8] = {4, 4, 4, 7, 7, 8, 8, 8};
  for (int f = 0; f < 8; ++f) EXPECT_EQ(moves.colourings[f].classes(), expected_classes[f]);
  ASSERT_EQ(moves.pairs(), 50);
  for (int p = 0; p < moves.pairs(); ++p) {
    const BiboneCycleShape& shape = moves.shapes[moves.pair_family[p]];
    std::vector<int> used(d.box_sites(), 0);
    for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k) {
      for (int i = 0; i < shape.length; ++i) {
        ASSERT_EQ(used[moves.anchors[k] + shape.offset[i]]++, 0) << "pair " << p;
      }
    }
  }
  // Every cycle lying in the region is a candidate exactly once.
  std::int64_t expected = 0;
  for (const BiboneCycle& c : moves.cycles) {
    const auto offsets = c.offsets();
    for (int y = 0; y < d.height(); ++y) {
      for (int x = 0; x < d.width(); ++x) {
        bool in = true;
        for (const auto& o : offsets) in = in && d.contains(x + o[0], y + o[1]);
        expected += in;
      }
    }
  }
  EXPECT_EQ(moves.candidates(), expected);
}

TEST(BiboneMoves, CyclesAreSimpleAndAlternateInLength) {
  for (const BiboneCycle& c : bibone_cycles()) {
    const auto offsets = c.offsets();
    EXPECT_EQ(offsets.size() % 2, 0u);
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      for (std::size_t j = i + 1; j < offsets.size(); ++j) EXPECT_NE(offsets[i], offsets[j]);
    }
  }
}

}  // namespace

// Row slabs with h > 1 halo rows and the anchors a slab runs (slab_decomposition.hpp,
// anchor_slab_families.hpp) without MPI: slabs cover the rows once with h halo rows,
// splits with fewer than h rows per rank are refused naming the sizes, the halo widths come
// out of the move shapes (bibone 3, rect_triangle 1), and over the ranks the restricted anchor
// lists run every move that touches an owned row, each inside the local rows, so that every
// anchor of the domain is run by some rank (and some by two, where a boundary cuts a move).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "portamc/tilings/engine/detail/anchor_slab_families.hpp"

namespace {

using namespace portamc::tilings;

TEST(SlabAnchors, SlabsCarryHHaloRowsEachSide) {
  for (const int halo : {1, 2, 3}) {
    for (const int rows : {3, 7, 12, 17}) {
      for (int ranks = 1; ranks <= 5 && (ranks == 1 || rows / ranks >= halo); ++ranks) {
        int next = 0;
        for (int r = 0; r < ranks; ++r) {
          const RowSlab s = row_slab(rows, 5, r, ranks, "test", halo);
          EXPECT_EQ(s.halo, halo);
          EXPECT_EQ(s.own_begin, next);
          next = s.own_end;
          if (ranks > 1) {
            EXPECT_GE(s.own_end - s.own_begin, halo);
          }
          EXPECT_EQ(s.local_begin, r == 0 ? 0 : s.own_begin - halo);
          EXPECT_EQ(s.local_end, r + 1 == ranks ? rows : s.own_end + halo);
        }
        EXPECT_EQ(next, rows);
      }
    }
  }
}

TEST(SlabAnchors, TooFewRowsPerRankAreRefusedNamingTheSizes) {
  try {
    row_slab(11, 4, 0, 4, "bibone glauber on parallelogram 11 4", 3);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("parallelogram 11 4: its 11 rows of cells cannot be split over 4 MPI "
                        "ranks: its moves span up to 4 rows, so each rank needs at least 3 "
                        "rows (at most 3 ranks)"),
              std::string::npos)
        << what;
  }
  EXPECT_NO_THROW(row_slab(12, 4, 3, 4, "t", 3));
  EXPECT_NO_THROW(row_slab(2, 4, 0, 1, "t", 3));  // one rank: no halo needed
}

template <class SlabModel>
void expect_anchors_covered(const SlabModel& m, int ranks, const std::string& what) {
  const int h = m.halo();
  std::multiset<std::int32_t> run;
  for (int r = 0; r < ranks; ++r) {
    const RowSlab s = row_slab(m.rows(), m.row_length(), r, ranks, what, h);
    const std::int64_t shift = m.anchor_shift(s.local_begin);
    const SlabAnchors a =
        restrict_anchors(s, m.moves.pair_family, m.moves.pair_offset, m.moves.anchors, shift,
                         [&](std::int32_t x, int f, int& lo, int& hi) { m.rows_of(x, f, lo, hi); });
    ASSERT_EQ(a.pair_offset.size(), m.moves.pair_offset.size());
    for (int p = 0; p < m.pairs(); ++p) {
      EXPECT_EQ(a.pair_sizes[p], m.moves.pair_offset[p + 1] - m.moves.pair_offset[p]);
      for (std::int32_t k = m.moves.pair_offset[p]; k < m.moves.pair_offset[p + 1]; ++k) {
        int lo = 0, hi = 0;
        m.rows_of(m.moves.anchors[k], m.moves.pair_family[p], lo, hi);
        EXPECT_LE(hi - lo, h) << what;
        const bool touches = hi >= s.own_begin && lo < s.own_end;
        bool kept = false;
        for (std::int32_t j = a.pair_offset[p]; j < a.pair_offset[p + 1]; ++j)
          kept = kept || a.anchors[j] + shift == m.moves.anchors[k];
        EXPECT_EQ(kept, touches) << what << ": rank " << r << " of " << ranks << ", anchor "
                                 << m.moves.anchors[k];
        if (kept) run.insert(m.moves.anchors[k] + static_cast<std::int32_t>(p) * (1 << 24));
      }
    }
  }
  std::set<std::int32_t> distinct(run.begin(), run.end());
  EXPECT_EQ(distinct.size(), m.moves.anchors.size()) << what << ": every move is run somewhere";
  if (ranks > 1) {
    EXPECT_GT(run.size(), distinct.size()) << what << ": no move is shared";
  }
}

TEST(SlabAnchors, BiboneMovesSpanFourRowsAndAreAllRun) {
  const BiboneSlabModel m(BiboneDomain::hexagon(9, 10, 7));
  EXPECT_EQ(bibone_row_span(m.moves), 3);
  EXPECT_EQ(m.halo(), 3);
  for (int ranks = 1; ranks <= 5; ++ranks)
    expect_anchors_covered(m, ranks, "bibone hexagon 9 10 7");
}

TEST(SlabAnchors, RectTriangleMovesSpanTwoRowsAndAreAllRun) {
  const RectTriangleSlabModel m(TriangularDomain::hexagon(5, 4, 6), {1.5, 0.5, 2.0});
  EXPECT_EQ(rect_triangle_row_span(m.moves), 1);
  EXPECT_EQ(m.halo(), 1);
  for (int ranks = 1; ranks <= 6; ++ranks)
    expect_anchors_covered(m, ranks, "rect_triangle hexagon 5 4 6");
}

}  // namespace

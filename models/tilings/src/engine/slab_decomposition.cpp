#include "portamc/tilings/engine/detail/slab_decomposition.hpp"

#include <algorithm>
#include <stdexcept>

#include "portamc/parallel.hpp"

namespace portamc::tilings {

RowSlab row_slab(int rows, int row_length, int rank, int ranks, const std::string& what, int halo) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw std::invalid_argument(what + ": rank " + std::to_string(rank) + " of " +
                                std::to_string(ranks) + " ranks");
  if (rows < 1 || row_length < 1)
    throw std::invalid_argument(what + ": a state of " + std::to_string(rows) + " x " +
                                std::to_string(row_length) + " cells has nothing to split");
  if (ranks > rows)
    throw std::invalid_argument(what + ": its " + std::to_string(rows) +
                                " rows of cells cannot be split over " + std::to_string(ranks) +
                                " MPI ranks (each rank needs at least one row)");
  if (halo < 1) throw std::invalid_argument(what + ": a halo of " + std::to_string(halo) + " rows");
  if (ranks > 1 && rows / ranks < halo)
    throw std::invalid_argument(what + ": its " + std::to_string(rows) +
                                " rows of cells cannot be split over " + std::to_string(ranks) +
                                " MPI ranks: its moves span up to " + std::to_string(halo + 1) +
                                " rows, so each rank needs at least " + std::to_string(halo) +
                                " rows (at most " + std::to_string(rows / halo) + " ranks)");
  const parallel::Share share = parallel::share_of(static_cast<std::uint64_t>(rows), rank, ranks);
  RowSlab s;
  s.rows = rows;
  s.row_length = row_length;
  s.rank = rank;
  s.ranks = ranks;
  s.own_begin = static_cast<int>(share.begin);
  s.own_end = static_cast<int>(share.end);
  s.halo = halo;
  s.local_begin = std::max(0, s.own_begin - halo);
  s.local_end = std::min(rows, s.own_end + halo);
  s.vertex_begin = std::max(1, s.own_begin);
  s.vertex_end = std::max(s.vertex_begin, std::min(rows - 1, s.own_end) + 1);
  return s;
}

VertexRunsHost restrict_runs(const VertexRunsHost& all, int first_row, int end_row) {
  VertexRunsHost out;
  out.offset.push_back(0);
  std::int64_t n = 0;
  for (std::size_t r = 0; r < all.row.size(); ++r) {
    if (all.row[r] < first_row || all.row[r] >= end_row) continue;
    if (!out.row.empty()) out.offset.push_back(static_cast<std::int32_t>(n));
    out.row.push_back(all.row[r]);
    out.first_col.push_back(all.first_col[r]);
    n += all.offset[r + 1] - all.offset[r];
  }
  if (out.row.empty()) return out;
  out.offset.push_back(static_cast<std::int32_t>(n));
  // Hints as build_vertex_runs makes them: the run of vertex min(1024 b, n - 1).
  const std::int64_t blocks = ((n - 1) >> vertex_hint_shift) + 1;
  std::int32_t run = 0;
  for (std::int64_t b = 0; b <= blocks; ++b) {
    const std::int64_t first = std::min(b << vertex_hint_shift, n - 1);
    while (out.offset[static_cast<std::size_t>(run) + 1] <= first) ++run;
    out.hint.push_back(run);
  }
  return out;
}

}  // namespace portamc::tilings

#pragma once
// Rows of a tiling's state split over MPI ranks for the distributed Glauber chain
// (distributed_glauber.hpp). Dominoes (faces, row-major) and lozenges (up triangles, index
// x + width y) share one shape: the state is `rows` rows of `row_length` bytes, and a move at
// a vertex of row v (1 <= v <= rows - 1) reads and writes cell rows v - 1 and v only.
//
// Rank r owns the cell rows [own_begin, own_end) (parallel::share_of: contiguous, the first
// rows % ranks ranks one row more). It updates every vertex row that touches an owned row,
// [max(1, own_begin), min(rows - 1, own_end)], so the vertex row own_end is updated by both
// r and r + 1, from the same bytes with the same random word (the RNG is keyed by the global
// vertex): the two copies agree, and after a pass every owned row is exactly the one-rank
// row. That needs one halo row on each side (the neighbour's boundary row), local rows
// [local_begin, local_end); after a pass each rank sends its first owned row up and its last
// one down, and the halo rows, partly written by the pass, are overwritten.
//
// Wider moves (bibone cycles, rectangle-triangle regions: anchor_slab_families.hpp)
// span up to h + 1 rows (h = `halo`): the slab then carries h halo rows on each side, local
// rows [own_begin - h, own_end + h) clipped to the state, and every rank must own at least h
// rows so that its halo rows all come from its direct neighbours. The exchange sends the h
// first owned rows up and the h last ones down (still two contiguous messages). h = 1 is the
// layout above, unchanged.
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/tilings/engine/detail/vertex_runs.hpp"

namespace portamc::tilings {

struct RowSlab {
  int rows = 0;        ///< cell rows of the whole state
  int row_length = 0;  ///< bytes per row
  int rank = 0, ranks = 1;
  int own_begin = 0, own_end = 0;        ///< owned cell rows
  int local_begin = 0, local_end = 0;    ///< owned rows and halo rows
  int vertex_begin = 0, vertex_end = 0;  ///< vertex rows this rank updates, [begin, end)
  int halo = 1;                          ///< halo rows on each side (where there is a neighbour)

  bool has_upper_neighbour() const { return own_begin > 0; }
  bool has_lower_neighbour() const { return own_end < rows; }
  std::int64_t local_cells() const {
    return std::int64_t{local_end - local_begin} * std::int64_t{row_length};
  }
  std::int64_t own_cells() const {
    return std::int64_t{own_end - own_begin} * std::int64_t{row_length};
  }
  /// Local byte index of the first byte of global row `row` (local_begin <= row < local_end).
  std::int64_t local_offset(int row) const {
    return std::int64_t{row - local_begin} * std::int64_t{row_length};
  }
};

/// The slab of `rank` of `ranks` with `halo` rows on each side. Throws std::invalid_argument
/// naming the sizes when the ranks cannot split the rows (more ranks than rows, or over one
/// rank fewer than `halo` rows per rank, empty state) or the arguments are bad. `what` names
/// the state in the message, e.g. "domino tiling (aztec_diamond 40)". vertex_begin/end are
/// the vertex rows of the h = 1 models.
RowSlab row_slab(int rows, int row_length, int rank, int ranks, const std::string& what,
                 int halo = 1);

/// The vertices of `all` (one colour class, rows = vertex rows) whose row lies in
/// [first_row, end_row), with offsets and hints rebuilt: the class restricted to a slab.
VertexRunsHost restrict_runs(const VertexRunsHost& all, int first_row, int end_row);

}  // namespace portamc::tilings

#pragma once
// Exact flip-attempt counts of tiled launches (domino_tiled_kernel.hpp): a sub-step of class c
// visits the movable vertices of c except those on the launch's tile edges, i.e. vertex rows
// i with (i + row_shift) mod tile_rows == 0 and columns j with (j + col_shift) mod tile_cols
// == 0. Counting the class's vertices by (i mod tile_rows, j mod tile_cols) once makes every
// launch's count an O(1) inclusion-exclusion, so benchmarks report attempts actually made.
#include <cstdint>
#include <vector>

#include "portamc/tilings/engine/detail/vertex_runs.hpp"

namespace portamc::tilings {

class TileAttemptCounter {
 public:
  TileAttemptCounter() = default;
  TileAttemptCounter(const std::vector<VertexRunsHost>& classes, int stride, int tile_rows,
                     int tile_cols)
      : tile_rows_(tile_rows), tile_cols_(tile_cols) {
    for (const VertexRunsHost& runs : classes) {
      Table t;
      t.cells.assign(static_cast<std::size_t>(tile_rows) * tile_cols, 0);
      t.row_sum.assign(static_cast<std::size_t>(tile_rows), 0);
      t.col_sum.assign(static_cast<std::size_t>(tile_cols), 0);
      for (std::size_t r = 0; r < runs.row.size(); ++r) {
        const int i = runs.row[r] % tile_rows;
        for (std::int32_t k = runs.offset[r]; k < runs.offset[r + 1]; ++k) {
          const int j = (runs.first_col[r] + stride * (k - runs.offset[r])) % tile_cols;
          ++t.cells[static_cast<std::size_t>(i) * tile_cols + j];
          ++t.row_sum[static_cast<std::size_t>(i)];
          ++t.col_sum[static_cast<std::size_t>(j)];
        }
        t.total += runs.offset[r + 1] - runs.offset[r];
      }
      tables_.push_back(std::move(t));
    }
  }

  /// Attempts of one sub-step of class c under the given shift.
  std::int64_t attempts(int c, int row_shift, int col_shift) const {
    const Table& t = tables_[static_cast<std::size_t>(c)];
    const int i = (tile_rows_ - row_shift) % tile_rows_;
    const int j = (tile_cols_ - col_shift) % tile_cols_;
    return t.total - t.row_sum[static_cast<std::size_t>(i)] -
           t.col_sum[static_cast<std::size_t>(j)] +
           t.cells[static_cast<std::size_t>(i) * tile_cols_ + j];
  }

 private:
  struct Table {
    std::vector<std::int64_t> cells, row_sum, col_sum;
    std::int64_t total = 0;
  };
  int tile_rows_ = 1;
  int tile_cols_ = 1;
  std::vector<Table> tables_;
};

}  // namespace portamc::tilings

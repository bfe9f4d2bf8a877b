#include "portamc/tilings/six_vertex/detail/six_vertex_colouring.hpp"

namespace portamc::tilings {

namespace {

// Interior faces 1..last with the given parity: the first of them and how many there are.
void parity_range(int last, int parity, std::int32_t& first, std::int32_t& count) {
  first = parity == 1 ? 1 : 2;
  count = last >= first ? (last - first) / 2 + 1 : 0;
}

SixVertexSublattice sublattice(int rows, int cols, int row_parity, int col_parity) {
  SixVertexSublattice s;
  parity_range(rows - 1, row_parity, s.first_row, s.rows);
  parity_range(cols - 1, col_parity, s.first_col, s.cols);
  if (s.rows == 0 || s.cols == 0) s.rows = s.cols = 0;
  return s;
}

}  // namespace

std::vector<SixVertexColourClass> six_vertex_colour_classes(int rows, int cols,
                                                            bool diagonal_free) {
  std::vector<SixVertexColourClass> classes;
  if (diagonal_free) {
    for (int colour = 0; colour < 2; ++colour) {
      SixVertexColourClass c;
      c.part[0] = sublattice(rows, cols, 0, colour);
      c.part[1] = sublattice(rows, cols, 1, 1 - colour);
      c.size = c.part[0].size() + c.part[1].size();
      classes.push_back(c);
    }
  } else {
    for (int parity = 0; parity < 4; ++parity) {
      SixVertexColourClass c;
      c.part[0] = sublattice(rows, cols, parity / 2, parity % 2);
      c.size = c.part[0].size();
      classes.push_back(c);
    }
  }
  return classes;
}

}  // namespace portamc::tilings

#pragma once
// Colour classes of the interior faces: faces updated in one step must not read each other.
// A face's heat-bath move reads its 4 side neighbours (is it movable, at which height) and,
// for general weights, its 4 diagonal neighbours (the types of its corner vertices). Faces
// whose row and column parities both agree are at least 2 apart in each direction, so the
// four sublattices (row % 2, col % 2) are valid classes (Keating & Sridhar colour by "both
// the parity of the x- and y-coordinate"). When the table ignores the diagonals (a = b = c),
// faces of one checkerboard colour (row + col) % 2 only read the other colour: 2 classes,
// each the union of two sublattices.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

namespace portamc::tilings {

/// Interior faces (first_row + 2 a, first_col + 2 b), 0 <= a < rows, 0 <= b < cols.
struct SixVertexSublattice {
  std::int32_t first_row = 0;
  std::int32_t first_col = 0;
  std::int32_t rows = 0;
  std::int32_t cols = 0;
  KOKKOS_INLINE_FUNCTION std::int32_t size() const { return rows * cols; }
};

/// One or two sublattices; cheap to copy into kernels. Face k of the class is face k of part
/// 0 for k < part[0].size(), else face k - part[0].size() of part 1.
struct SixVertexColourClass {
  SixVertexSublattice part[2];
  std::int32_t size = 0;
};

/// The classes for a block of rows x cols vertices (interior faces 1..rows-1 x 1..cols-1):
/// four parity sublattices, or two checkerboard colours when diagonal_free.
std::vector<SixVertexColourClass> six_vertex_colour_classes(int rows, int cols, bool diagonal_free);

}  // namespace portamc::tilings

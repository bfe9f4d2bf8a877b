#pragma once
// A finite, simply connected set of unit faces of the square lattice, stored as row-major flags
// over its bounding box, so that GPU kernels can later index it as a plain array.
//
// Coordinates (shared by every domino_* header):
//   face   (r, c): row r = 0..rows-1 from the top, column c = 0..cols-1 from the left; index
//                  r * cols + c.
//   vertex (i, j): the lattice point at the top-left corner of face (i, j); i = 0..rows,
//                  j = 0..cols; index i * (cols + 1) + j.  Face (r, c) has corners (r, c),
//                  (r, c+1), (r+1, c), (r+1, c+1).
//   colour: face (r, c) is black when r + c is even (for every integer r, c, also outside the
//           box, because edge orientations on the boundary need the colour of outside faces).
//   vertex colour: (i + j) mod 2.  Vertices of one colour are never joined by an edge, so a
//           kernel may update the heights at all vertices of one colour at once.
//
// Thurston's height function exists (and his algorithm works) only on simply connected
// domains: around a hole the height increments need not sum to zero.  The constructor therefore
// demands 4-connected faces and a complement that is 4-connected to the outside; the latter also
// rules out "pinch" vertices where two faces touch only at a corner, which would enclose a hole.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace portamc::tilings {

class SquareDomain {
 public:
  /// faces: rows * cols flags (non-zero = face in the domain), row-major. Throws
  /// std::invalid_argument for a size mismatch, no faces, faces that are not 4-connected, or a
  /// hole (naming an enclosed empty cell).
  SquareDomain(int rows, int cols, std::vector<std::uint8_t> faces);

  /// The full m x n rectangle.
  static SquareDomain rectangle(int rows, int cols);
  /// Aztec diamond AD(n) (Elkies-Kuperberg-Larsen-Propp): the unit squares whose centres (x, y)
  /// satisfy |x| + |y| <= n; rows of lengths 2, 4, ..., 2n, 2n, ..., 4, 2; equals
  /// aztec_rectangle(n, n).
  static SquareDomain aztec_diamond(int n);
  /// Aztec rectangle AR(a, b) (as in Helfgott-Gessel): the 45-degree rotated rectangle with a unit
  /// squares along one staircase side and b along the other.  Here: face (r, c) in the
  /// (a+b) x (a+b) box belongs to it iff P = r + c - b + 1 lies in [0, 2a] and Q = c - r + b in
  /// [0, 2b].  It has 2ab + a + b faces and |b - a| more of one colour, so it is tileable only for
  /// a == b.
  static SquareDomain aztec_rectangle(int a, int b);
  /// Rows of '#' (face) and '.' (empty), separated by '\n'; blank lines at either end are
  /// ignored, all rows must have the same length. Throws naming line and column of a bad
  /// character or the line of a row of the wrong length.
  static SquareDomain from_mask(const std::string& text);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  std::size_t face_index(int r, int c) const {
    return static_cast<std::size_t>(r) * static_cast<std::size_t>(cols_) +
           static_cast<std::size_t>(c);
  }
  /// False outside the bounding box.
  bool contains(int r, int c) const {
    return r >= 0 && c >= 0 && r < rows_ && c < cols_ && faces_[face_index(r, c)] != 0;
  }
  const std::vector<std::uint8_t>& face_flags() const { return faces_; }
  std::size_t face_count() const { return face_count_; }
  std::size_t black_count() const { return black_count_; }
  std::size_t white_count() const { return face_count_ - black_count_; }
  static constexpr bool is_black(int r, int c) { return ((r + c) & 1) == 0; }

  int vertex_rows() const { return rows_ + 1; }
  int vertex_cols() const { return cols_ + 1; }
  std::size_t vertex_count() const {
    return static_cast<std::size_t>(rows_ + 1) * static_cast<std::size_t>(cols_ + 1);
  }
  std::size_t vertex_index(int i, int j) const {
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(cols_ + 1) +
           static_cast<std::size_t>(j);
  }
  /// Number of the four faces around vertex (i, j) that belong to the domain.
  int faces_around(int i, int j) const {
    return int(contains(i - 1, j - 1)) + int(contains(i - 1, j)) + int(contains(i, j - 1)) +
           int(contains(i, j));
  }
  /// A vertex of the domain is a corner of at least one of its faces.
  bool has_vertex(int i, int j) const { return faces_around(i, j) > 0; }
  bool is_interior_vertex(int i, int j) const { return faces_around(i, j) == 4; }
  bool is_boundary_vertex(int i, int j) const {
    const int n = faces_around(i, j);
    return n > 0 && n < 4;
  }
  static constexpr int vertex_colour(int i, int j) { return (i + j) & 1; }
  /// The top-left corner of the first face in row-major order: a boundary vertex, where every
  /// height function is normalised to 0.
  int reference_row() const { return reference_row_; }
  int reference_col() const { return reference_col_; }

  /// The mask text that from_mask reads back into this domain.
  std::string to_mask() const;

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::vector<std::uint8_t> faces_;
  std::size_t face_count_ = 0;
  std::size_t black_count_ = 0;
  int reference_row_ = 0;
  int reference_col_ = 0;
};

}  // namespace portamc::tilings

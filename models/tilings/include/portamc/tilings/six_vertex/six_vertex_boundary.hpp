#pragma once
// Fixed boundary conditions of the six-vertex model on a block of rows x cols vertices, in the
// height-function picture (the six-vertex states of the block are exactly the height functions
// on its faces with the given boundary values; see six_vertex_local.hpp for the conventions).
//
// Faces: (i, j) with i = 0..rows (from the top) and j = 0..cols (from the left), index
// i * (cols + 1) + j; vertex (r, c) has the faces (r, c), (r, c+1), (r+1, c), (r+1, c+1) around
// it. The faces with i = 0, i = rows, j = 0 or j = cols carry the fixed heights; each boundary
// edge of the block separates two consecutive faces of that ring. The ring is listed clockwise
// from the corner face (0, 0): the top row left to right, the right column downwards, the bottom
// row right to left, the left column upwards (2 (rows + cols) faces).
//
// A height function on faces changes by exactly +-1 between faces that share an edge. Because
// the face grid is a full rectangle (no holes, no pinches), a boundary admits one iff
//   (1) consecutive ring faces differ by +-1 (the boundary arrows exist), and
//   (2) |h(b) - h(b')| <= d(b, b') for all ring faces b, b' (d = Manhattan distance),
// and the pointwise largest / smallest height functions are the Lipschitz (McShane) envelopes
//   h_max(f) = min_b h(b) + d(b, f),   h_min(f) = max_b h(b) - d(b, f)
// (Thurston's argument; the parity of h(b) + d(b, f) is the same for every b by (1)). They are
// the top and bottom of the monotone coupling used by coupling from the past. The constructor
// checks (1) and (2) and computes both envelopes with a separable min-plus distance transform
// (rows, then columns: exact for the L1 metric on a rectangle) in time linear in the faces.
#include <cstddef>
#include <string>
#include <vector>

namespace portamc::tilings {

struct FacePosition {
  int row = 0;
  int col = 0;
};

class SixVertexBoundary {
 public:
  /// ring_heights: 2 (rows + cols) heights in the ring order above. Throws
  /// std::invalid_argument for rows or cols < 1, a wrong count, a step other than +-1 between
  /// consecutive ring faces (naming both), or an infeasible boundary (naming two ring faces
  /// whose heights differ by more than their distance).
  SixVertexBoundary(int rows, int cols, std::vector<int> ring_heights);

  /// Domain-wall boundary conditions on n x n vertices: horizontal boundary arrows point
  /// inwards, vertical ones outwards; heights h(0, j) = j, h(i, 0) = i, h(n, j) = n - j,
  /// h(i, n) = n - i. Its states are the n x n alternating-sign matrices.
  static SixVertexBoundary domain_wall(int n);
  /// The boundary as 2 (rows + cols) steps '+' / '-' (height change from one ring face to the
  /// next, the last one closing the ring back to face (0, 0)), starting from corner_height at
  /// face (0, 0). Whitespace is ignored. Throws naming the position of a bad character, a wrong
  /// length or a ring that does not close.
  static SixVertexBoundary from_steps(int rows, int cols, const std::string& steps,
                                      int corner_height = 0);
  /// A mask-like grid of rows + 1 lines with cols + 1 whitespace-separated tokens each: an
  /// integer height on every boundary face and '.' on every interior face. Blank lines and
  /// lines starting with '#' are ignored. Throws naming line and token of what is wrong.
  static SixVertexBoundary from_text(const std::string& text);
  /// from_text on a file's contents; throws std::invalid_argument naming an unreadable file.
  static SixVertexBoundary from_file(const std::string& path);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int face_rows() const { return rows_ + 1; }
  int face_cols() const { return cols_ + 1; }
  std::size_t face_count() const {
    return static_cast<std::size_t>(rows_ + 1) * static_cast<std::size_t>(cols_ + 1);
  }
  std::size_t face_index(int i, int j) const {
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(cols_ + 1) +
           static_cast<std::size_t>(j);
  }
  bool is_boundary_face(int i, int j) const { return i == 0 || j == 0 || i == rows_ || j == cols_; }
  int ring_size() const { return 2 * (rows_ + cols_); }
  FacePosition ring_face(int k) const;
  const std::vector<int>& ring_heights() const { return ring_; }
  /// Height of a boundary face; throws std::out_of_range for an interior face.
  int height(int i, int j) const;
  bool is_domain_wall() const;

  /// The extremal height functions on all faces (index face_index(i, j)).
  const std::vector<int>& maximal_heights() const { return maximal_; }
  const std::vector<int>& minimal_heights() const { return minimal_; }
  /// Largest |height| over all states (for the width of device height arrays).
  int max_abs_height() const;

  friend bool operator==(const SixVertexBoundary& a, const SixVertexBoundary& b) {
    return a.rows_ == b.rows_ && a.cols_ == b.cols_ && a.ring_ == b.ring_;
  }

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::vector<int> ring_;
  std::vector<int> maximal_;
  std::vector<int> minimal_;
};

/// Face k of the boundary ring of a rows x cols block (order as above).
FacePosition six_vertex_ring_face(int rows, int cols, int k);

/// "(i, j)", for error messages.
std::string six_vertex_face_name(int i, int j);

}  // namespace portamc::tilings

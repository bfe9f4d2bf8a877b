#pragma once
// A finite, simply connected set of unit triangles of the triangular lattice: the region that
// lozenge tilings cover.
//
// Skewed coordinates: the lattice vertex (x, y) sits at x e1 + y e2 with e1 = (1, 0) and
// e2 = (1/2, sqrt(3)/2). The parallelogram cell (x, y) with corners (x, y), (x+1, y), (x, y+1),
// (x+1, y+1) is cut by its short diagonal into
//   the up triangle   U(x, y) with corners (x, y), (x+1, y), (x, y+1), and
//   the down triangle D(x, y) with corners (x+1, y), (x+1, y+1), (x, y+1).
// A domain lives in the box of cells 0 <= x < width, 0 <= y < height (vertices 0..width,
// 0..height); cell (x, y) has index x + width * y, so both flags are plain arrays that a later
// Kokkos port can copy into Views unchanged.
//
// Mask text (from_mask / to_mask): one line per cell row, the FIRST line is the TOP row
// y = height-1 (so the text looks like the region, sheared). Character 2x of a line is U(x, y),
// character 2x+1 is D(x, y); '#' = in the domain, '.' = not. All lines have the same even length;
// a trailing '\r' is ignored. Example: the 1x1x1 hexagon is "###.\n.###\n".
#include <string>
#include <vector>

namespace portamc::tilings {

class TriangularDomain {
 public:
  TriangularDomain() = default;
  /// up/down: width*height flags (index x + width*y). Throws std::invalid_argument unless the
  /// domain is non-empty, has as many up as down triangles, is connected through edges, has no
  /// hole and does not touch itself at a vertex; the message says where it fails.
  TriangularDomain(int width, int height, std::vector<unsigned char> up,
                   std::vector<unsigned char> down);

  /// The a x b x c hexagon (a, b, c >= 1): sides a e1, b e2, c (e2 - e1), a (-e1), b (-e2),
  /// c (e1 - e2) from the corner (c, 0); the box is (a+c) x (b+c) cells and it holds ab+bc+ca
  /// triangles of each kind. Its tilings are the a x b x c boxes of stacked cubes.
  static TriangularDomain hexagon(int a, int b, int c);
  /// Parses the mask format above; malformed text throws naming line and column.
  static TriangularDomain from_mask(const std::string& text);
  std::string to_mask() const;

  int width() const { return width_; }
  int height() const { return height_; }
  /// False outside the box, so neighbour look-ups need no bounds checks at call sites.
  bool has_up(int x, int y) const { return inside(x, y) && up_[x + width_ * y] != 0; }
  bool has_down(int x, int y) const { return inside(x, y) && down_[x + width_ * y] != 0; }
  int triangle_pairs() const { return pairs_; }  ///< number of up (= down) triangles
  const std::vector<unsigned char>& up_flags() const { return up_; }
  const std::vector<unsigned char>& down_flags() const { return down_; }

  /// Vertices are numbered x + (width+1) y for 0 <= x <= width, 0 <= y <= height.
  int vertex_count() const { return (width_ + 1) * (height_ + 1); }
  int vertex_index(int x, int y) const { return x + (width_ + 1) * y; }
  /// Number of domain triangles (0..6) around vertex (x, y); a vertex of the domain has >= 1,
  /// an interior vertex all 6.
  int triangles_at_vertex(int x, int y) const;
  bool contains_vertex(int x, int y) const { return triangles_at_vertex(x, y) > 0; }
  bool is_interior_vertex(int x, int y) const { return triangles_at_vertex(x, y) == 6; }

 private:
  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  void check_shape();

  int width_ = 0;
  int height_ = 0;
  int pairs_ = 0;
  std::vector<unsigned char> up_;
  std::vector<unsigned char> down_;
};

/// The six triangles around vertex (x, y) in counter-clockwise order starting between the
/// directions e1 and e2: U(x,y), D(x-1,y), U(x-1,y), D(x-1,y-1), U(x,y-1), D(x,y-1).
/// is_up[i] tells the kind of triangle i, and (dx[i], dy[i]) its cell offset from (x, y).
struct VertexStar {
  static constexpr int is_up[6] = {1, 0, 1, 0, 1, 0};
  static constexpr int dx[6] = {0, -1, -1, -1, 0, 0};
  static constexpr int dy[6] = {0, 0, 0, -1, -1, -1};
};

}  // namespace portamc::tilings

#pragma once
// Geometry of Nienhuis' rectangle-triangle tilings on the triangular lattice, and the byte code
// that stores, for every unit triangle ("face") of a TriangularDomain, how the tiles cover it.
// Everything here is inline and usable in device code.
//
// Lattice (triangular_domain.hpp): vertex (x, y) at x e1 + y e2, unit edges. The six directions
// d_0..d_5 from a vertex are e1, e2, e2-e1, -e1, -e2, e1-e2 (0, 60, ..., 300 degrees). The star
// of a vertex v is its six faces; star face j lies between d_j and d_{j+1} and its corners,
// counter-clockwise, are v, v + d_j, v + d_{j+1} (star faces are those of VertexStar).
//
// Tiles. Both have unit edges on lattice edges and their sqrt(3) edges on the medians of faces,
// so every face is either covered whole by one tile or cut by one of its three medians into two
// halves covered by two tiles (the face's vertex opposite the bisected edge is the median's
// start s; each half contains one end of the bisected edge).
//   triangle T(v, d), d = 0..5: isosceles, sides 1, 1, sqrt(3), apex (120 degrees) at the
//     vertex v, legs v -> v + d_{d-1} and v -> v + d_{d+1}, so it straddles the edge v -> v + d_d.
//     It covers the halves at v of the two faces next to that edge (star faces d-1 and d of v),
//     each cut by the median that bisects the edge. Area: one face.
//   rectangle R(v, o), o = 0..2: 1 x sqrt(3), centred at the vertex v with its long axis
//     perpendicular to the edges v -> v + d_o and v -> v + d_{o+3}. It covers star faces o+1
//     and o+4 of v whole, and the halves at v of the four faces next to those two edges (star
//     faces o-1, o, o+2, o+3), cut by the medians bisecting the edges. Area: four faces.
//   E.g. R(v, 0) has corners v + d_1, v + d_2, v + d_4, v + d_5: the upright rectangle around v
//   whose short sides are the lattice edges above and below v.
// Two triangles straddling one edge from both ends form a lozenge cut along its long diagonal,
// so every lozenge tiling is a rectangle-triangle tiling (the all-triangle ones).
//
// Face types (weights of the paper, section II.B.3): a face is (A) covered by triangles only
// (two triangle halves) -> weight t; (B) one half by a triangle and one by a rectangle -> c;
// (C) by rectangles only (whole by one, or two rectangle halves) -> r. A tiling weighs
// t^#A c^#B r^#C. (Figures 6 and 17/18 are not in our copy of the paper; this reading matches
// the authors' OpenCL code, whose 16 face states have the same 3 + 6 + 6 split into t, c, r.)
//
// Face code (one byte per face; corners of U(x, y): 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1); of
// D(x, y): 0 = (x+1, y+1), 1 = (x, y+1), 2 = (x+1, y); both counter-clockwise):
//   0          not a face of the domain
//   1 + k      whole face covered by the rectangle centred at corner k (k = 0, 1, 2)
//   4 + 4 s + ra + 2 rb   cut by the median from corner s; a = s+1, b = s+2 (mod 3) are the
//              ends of the bisected edge; ra / rb = 1 if the half at a / b belongs to a
//              rectangle (centred at a / b), 0 if to a triangle (apex a / b).
// So codes 1..15 are exactly the 15 ways a tile can cover a face, as in the paper's code.
//
// Elementary move (the paper's Fig. 6) at an interior vertex v: the regular hexagon formed by
// the star of v has exactly five tilings, and whenever the six star faces are covered by one of
// them (no tile crosses the hexagon's boundary) it may be replaced by any other:
//   config 0: triangles T(v, 0), T(v, 2), T(v, 4) and T(v + d_0, 3), T(v + d_2, 5),
//             T(v + d_4, 1) (three lozenges: one way to see a cube);
//   config 1: the same with the odd directions (the other lozenge tiling of the hexagon);
//   config 2 + o: rectangle R(v, o) and the two "ears" T(v + d_o, o+3), T(v + d_{o+3}, o).
// Configs 0 and 1 weigh t^6 (six (A) faces), configs 2..4 weigh r^2 c^4 (two faces inside the
// rectangle, four shared between rectangle and ear). This move alone does not connect the
// tilings; rect_triangle_moves.hpp adds the "open ear" moves of the paper's code.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace portamc::tilings::rect_triangle {

inline constexpr int vertex_configs = 5;
enum FaceType : int { face_a_triangles = 0, face_b_mixed = 1, face_c_rectangles = 2 };

KOKKOS_INLINE_FUNCTION constexpr int direction_dx(int d) {
  return (d == 0 || d == 5) ? 1 : ((d == 2 || d == 3) ? -1 : 0);
}
KOKKOS_INLINE_FUNCTION constexpr int direction_dy(int d) {
  return (d == 1 || d == 2) ? 1 : ((d == 4 || d == 5) ? -1 : 0);
}

/// Cell offset and kind of star face j of vertex (x, y): U(x,y), D(x-1,y), U(x-1,y),
/// D(x-1,y-1), U(x,y-1), D(x,y-1) for j = 0..5 (VertexStar's order).
KOKKOS_INLINE_FUNCTION constexpr int star_cell_dx(int j) {
  return (j >= 1 && j <= 3) ? -1 : 0;
}
KOKKOS_INLINE_FUNCTION constexpr int star_cell_dy(int j) {
  return j >= 3 ? -1 : 0;
}
KOKKOS_INLINE_FUNCTION constexpr bool star_is_up(int j) {
  return j % 2 == 0;
}

/// Flat face index: 2 * (cell x + width * cell y) + (0 for U, 1 for D).
KOKKOS_INLINE_FUNCTION constexpr std::int32_t face_index(std::int32_t width, std::int32_t cx,
                                                         std::int32_t cy, bool up) {
  return 2 * (cx + width * cy) + (up ? 0 : 1);
}
KOKKOS_INLINE_FUNCTION constexpr std::int32_t star_face_index(std::int32_t width, std::int32_t x,
                                                              std::int32_t y, int j) {
  return face_index(width, x + star_cell_dx(j), y + star_cell_dy(j), star_is_up(j));
}

/// Which corner (0..2) of star face j is the centre vertex; the next corners counter-clockwise
/// are v + d_j and v + d_{j+1}.
KOKKOS_INLINE_FUNCTION constexpr int star_centre_corner(int j) {
  return (3 - j % 3) % 3;
}

/// Corner k of the face in cell (cx, cy): U's corners (x, y), (x+1, y), (x, y+1); D's
/// (x+1, y+1), (x, y+1), (x+1, y).
KOKKOS_INLINE_FUNCTION constexpr int face_corner_x(int cx, bool up, int k) {
  return cx + (up ? (k == 1 ? 1 : 0) : (k == 1 ? 0 : 1));
}
KOKKOS_INLINE_FUNCTION constexpr int face_corner_y(int cy, bool up, int k) {
  return cy + (up ? (k == 2 ? 1 : 0) : (k == 2 ? 0 : 1));
}
/// Which star face of its corner k a face is (inverse of star_centre_corner).
KOKKOS_INLINE_FUNCTION constexpr int star_of_corner(bool up, int k) {
  return up ? 2 * k : (2 * k + 3) % 6;
}

KOKKOS_INLINE_FUNCTION constexpr int full_code(int centre_corner) {
  return 1 + centre_corner;
}
KOKKOS_INLINE_FUNCTION constexpr int split_code(int s, int rect_a, int rect_b) {
  return 4 + 4 * s + rect_a + 2 * rect_b;
}
KOKKOS_INLINE_FUNCTION constexpr bool is_full_code(int code) {
  return code >= 1 && code <= 3;
}
KOKKOS_INLINE_FUNCTION constexpr bool is_split_code(int code) {
  return code >= 4 && code <= 15;
}
KOKKOS_INLINE_FUNCTION constexpr int split_start(int code) {
  return (code - 4) >> 2;
}
/// For a split code: whether the half at `corner` (an end of the bisected edge) is a rectangle.
KOKKOS_INLINE_FUNCTION constexpr int half_is_rect(int code, int corner) {
  return corner == (split_start(code) + 1) % 3 ? (code & 1) : ((code >> 1) & 1);
}

/// Face type of a code (FaceType), -1 for code 0.
KOKKOS_INLINE_FUNCTION constexpr int face_type(int code) {
  return code == 0 ? -1 : (is_full_code(code) ? face_c_rectangles : (code & 1) + ((code >> 1) & 1));
}

/// Code of star face j of v when it is cut by the median bisecting the edge v -> v + d_{j+side}
/// (side 0 or 1), with the half at v a rectangle iff centre_rect and the far half a rectangle
/// iff far_rect.
KOKKOS_INLINE_FUNCTION constexpr int star_split_code(int j, int side, int centre_rect,
                                                     int far_rect) {
  const int c = star_centre_corner(j);
  const int far = (c + 1 + side) % 3;
  const int s = 3 - c - far;  // the third corner starts the median
  return (c == (s + 1) % 3) ? split_code(s, centre_rect, far_rect)
                            : split_code(s, far_rect, centre_rect);
}

/// Code of star face j in hexagon configuration `config` (0..4, see above).
KOKKOS_INLINE_FUNCTION constexpr int vertex_config_code(int config, int j) {
  if (config < 2) return star_split_code(j, (j % 2 == config) ? 0 : 1, 0, 0);
  const int role =
      (j - (config - 2) + 6) % 3;  // 0: next to edge d_o, 1: inside, 2: next to d_{o+3}
  return role == 1 ? full_code(star_centre_corner(j)) : star_split_code(j, role == 0 ? 0 : 1, 1, 0);
}

/// The configuration (0..4) of a vertex's six star codes, -1 if a tile crosses the hexagon.
KOKKOS_INLINE_FUNCTION int vertex_configuration(const int codes[6]) {
  for (int config = 0; config < vertex_configs; ++config) {
    bool match = true;
    for (int j = 0; j < 6; ++j) match = match && codes[j] == vertex_config_code(config, j);
    if (match) return config;
  }
  return -1;
}

/// Heat-bath choice among the five configurations from one 32-bit word: cumulative[i] is the
/// threshold (glauber_weights.hpp's probability_threshold) of P(config <= i), i = 0..3.
KOKKOS_INLINE_FUNCTION int choose_config(std::uint32_t u, const std::uint64_t cumulative[4]) {
  int config = 0;
  for (int i = 0; i < 4; ++i) config += std::uint64_t{u} >= cumulative[i] ? 1 : 0;
  return config;
}

}  // namespace portamc::tilings::rect_triangle

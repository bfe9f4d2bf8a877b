#pragma once
// Geometry of the CVF water model (Coronas, Vilanova, Franzese): a periodic L x L x L cubic
// lattice, one molecule per cell, six bonding arms per molecule and the checkerboard cubes
// that decide which bonds may form. A plain value type that kernels capture by copy.
//
// Conventions used by every CVF kernel, test and file:
//   cell  = x + L (y + L z), x fastest, 64-bit (N = L^3 reaches 10^10).
//   arm   = 2 axis + s: arm 0 = +x, 1 = -x, 2 = +y, 3 = -y, 4 = +z, 5 = -z, so the arm of the
//           neighbour that points back is arm ^ 1.
//   sigma = arm-major: the bonding variable of (cell, arm) lives at arm * N + cell, so a kernel
//           over cells for one arm reads and writes consecutive bytes (the paper's layout).
//   edge  = (cell, axis): the bond between cell and its + neighbour along axis; its two
//           bonding variables are sigma[(2 axis) N + cell] and sigma[(2 axis + 1) N + nbr].
//
// Checkerboard cubes (the paper's appendix A). The unit cubes of the lattice whose lower
// corner (x, y, z) has x = y = z (mod 2) cover every edge exactly once and every cell exactly
// twice (there are N/4 of them, 12 edges each, 8 corners each). Each cube forbids the edges of
// one perfect matching of its 8 corners (eta = 0) and allows the other 9 edges (eta = 1):
// every corner then loses exactly one edge per cube, so every molecule keeps exactly four
// allowed bonds. The cube graph has exactly nine perfect matchings; they are the paper's
// nine configurations. A cube's state is the index 0..8 of its forbidden matching.
//
// Cube numbering: the cube with lower corner (x, 2j + p, 2k + p), p = x mod 2, is
// cube = x + L (j + (L/2) k). Corner v = bx + 2 by + 4 bz inside a cube; the cube's edge
// e = 4 axis + i joins the corners v and v + 2^axis where i counts the other two bits in
// order (for axis x: i = by + 2 bz; axis y: i = bx + 2 bz; axis z: i = bx + 2 by).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace portamc::cvf {

inline constexpr int arms = 6;
inline constexpr int cube_states = 9;
inline constexpr int cube_edges = 12;

KOKKOS_INLINE_FUNCTION constexpr int opposite_arm(int arm) {
  return arm ^ 1;
}
KOKKOS_INLINE_FUNCTION constexpr int arm_axis(int arm) {
  return arm >> 1;
}
KOKKOS_INLINE_FUNCTION constexpr int arm_step(int arm) {
  return (arm & 1) ? -1 : +1;
}

/// The forbidden (eta = 0) edges of cube state s in 0..8 as a 12-bit mask over the cube's
/// edges. These are all perfect matchings of the cube graph (a test enumerates them).
KOKKOS_INLINE_FUNCTION std::uint16_t forbidden_edges(int state) {
  constexpr std::uint16_t matchings[cube_states] = {0x00F, 0x03C, 0x0C3, 0x0F0, 0x30A,
                                                    0x5A0, 0xA50, 0xC05, 0xF00};
  return matchings[state];
}

struct Coordinates {
  int x, y, z;
};

class Geometry {
 public:
  using index_type = std::int64_t;

  Geometry() = default;

  /// Throws std::invalid_argument unless L is a positive multiple of 4 (the checkerboard
  /// cubes need even extents; the paper's construction asks for multiples of four).
  explicit Geometry(int L) : L_(L) {
    if (L < 4 || L % 4 != 0) {
      throw std::invalid_argument("the CVF lattice size L must be a positive multiple of 4, got " +
                                  std::to_string(L));
    }
    N_ = static_cast<index_type>(L) * L * L;
  }

  KOKKOS_INLINE_FUNCTION int size() const { return L_; }
  /// Number of cells (molecules) N = L^3.
  KOKKOS_INLINE_FUNCTION index_type cells() const { return N_; }
  /// Number of bonding variables, 6 N.
  KOKKOS_INLINE_FUNCTION index_type variables() const { return arms * N_; }
  /// Number of nearest-neighbour edges, 3 N.
  KOKKOS_INLINE_FUNCTION index_type edges() const { return 3 * N_; }
  /// Number of checkerboard cubes, N / 4.
  KOKKOS_INLINE_FUNCTION index_type cubes() const { return N_ / 4; }

  KOKKOS_INLINE_FUNCTION index_type cell(int x, int y, int z) const {
    return x + static_cast<index_type>(L_) * (y + static_cast<index_type>(L_) * z);
  }
  KOKKOS_INLINE_FUNCTION Coordinates coordinates(index_type cell) const {
    const index_type row = cell / L_;
    return {static_cast<int>(cell - row * L_), static_cast<int>(row % L_),
            static_cast<int>(row / L_)};
  }

  KOKKOS_INLINE_FUNCTION int wrap(int c) const { return c < 0 ? c + L_ : (c >= L_ ? c - L_ : c); }

  /// The neighbour of (x, y, z) through `arm`.
  KOKKOS_INLINE_FUNCTION index_type neighbour(const Coordinates& c, int arm) const {
    int n[3] = {c.x, c.y, c.z};
    n[arm_axis(arm)] = wrap(n[arm_axis(arm)] + arm_step(arm));
    return cell(n[0], n[1], n[2]);
  }
  KOKKOS_INLINE_FUNCTION index_type neighbour(index_type cell, int arm) const {
    return neighbour(coordinates(cell), arm);
  }

  /// Index of the bonding variable of (cell, arm) in the arm-major arrays.
  KOKKOS_INLINE_FUNCTION index_type variable(index_type cell, int arm) const {
    return static_cast<index_type>(arm) * N_ + cell;
  }

  /// The checkerboard cube holding the edge from (x, y, z) to its + neighbour along `axis`,
  /// and that edge's number 0..11 inside the cube.
  struct CubeEdge {
    index_type cube;
    int edge;
  };
  KOKKOS_INLINE_FUNCTION CubeEdge cube_edge(const Coordinates& c, int axis) const {
    // The cube's corner has the edge's coordinate along `axis`; along the two other axes it
    // steps back by one where the coordinate's parity differs from the axis coordinate's.
    int corner[3] = {c.x, c.y, c.z};
    const int along = corner[axis];
    const int u = axis == 0 ? 1 : 0, w = axis == 2 ? 1 : 2;
    const int bu = (corner[u] - along) & 1, bw = (corner[w] - along) & 1;
    corner[u] = wrap(corner[u] - bu);
    corner[w] = wrap(corner[w] - bw);
    return {cube_of_corner(corner[0], corner[1], corner[2]), 4 * axis + bu + 2 * bw};
  }

  /// The cube whose lower corner is (x, y, z); needs x = y = z (mod 2).
  KOKKOS_INLINE_FUNCTION index_type cube_of_corner(int x, int y, int z) const {
    return x + static_cast<index_type>(L_) * (y / 2 + static_cast<index_type>(L_ / 2) * (z / 2));
  }
  /// Lower corner of a cube.
  KOKKOS_INLINE_FUNCTION Coordinates cube_corner(index_type cube) const {
    const int half = L_ / 2;
    const index_type row = cube / L_;
    const int x = static_cast<int>(cube - row * L_);
    const int p = x & 1;
    return {x, 2 * static_cast<int>(row % half) + p, 2 * static_cast<int>(row / half) + p};
  }

  /// Whether the bond of (x, y, z) through `arm` may form (eta = 1) for the given cube states.
  template <class CubeStates>
  KOKKOS_INLINE_FUNCTION bool allowed(const CubeStates& cube_state, const Coordinates& c,
                                      int arm) const {
    const int axis = arm_axis(arm);
    Coordinates from = c;
    if (arm & 1) {
      int n[3] = {c.x, c.y, c.z};
      n[axis] = wrap(n[axis] - 1);
      from = {n[0], n[1], n[2]};
    }
    const CubeEdge ce = cube_edge(from, axis);
    return ((forbidden_edges(cube_state(ce.cube)) >> ce.edge) & 1) == 0;
  }

 private:
  int L_ = 0;
  index_type N_ = 0;
};

}  // namespace portamc::cvf

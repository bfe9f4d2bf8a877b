#pragma once
// A lozenge tiling of a TriangularDomain: every up triangle is glued to one of its three down
// neighbours (coordinates as in triangular_domain.hpp). Stored as one byte per cell of the box,
// index x + width*y, so a GPU port copies the array into a View and reuses the inline helpers.
//
// partner k of U(x, y) and the lattice edge the two triangles share (written in its positive
// direction, the one a counter-clockwise walk around an up triangle takes):
//   k = 0: D(x, y)     edge (x+1, y) -> (x, y+1)
//   k = 1: D(x-1, y)   edge (x, y+1) -> (x, y)
//   k = 2: D(x, y-1)   edge (x, y)   -> (x+1, y)
// Cells whose up triangle is not in the domain hold no_lozenge.
//
// Elementary rotation at a vertex v = (x, y): the three up triangles with a corner at v are
// U(x,y), U(x-1,y), U(x,y-1). If their partners are (1, 2, 0) the three lozenges around v form a
// hexagon and can be turned to (2, 0, 1): every partner moves to k+1 mod 3. That "up" rotation
// raises the height at v by 3 (one cube added; see lozenge_heights.hpp), the reverse lowers it.
// Each up triangle has its corners in the three different classes of vertex_colour, so
// rotations at vertices of one colour touch disjoint bytes and can run concurrently.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace portamc::tilings {

inline constexpr std::uint8_t no_lozenge = 255;

/// Cell offset of partner k of an up triangle.
KOKKOS_INLINE_FUNCTION int partner_dx(int k) {
  return k == 1 ? -1 : 0;
}
KOKKOS_INLINE_FUNCTION int partner_dy(int k) {
  return k == 2 ? -1 : 0;
}

/// Proper 3-colouring of the lattice vertices: neighbours differ by e1, e2 or e2-e1, which change
/// x - y by 1, -1, -2, never by a multiple of 3.
KOKKOS_INLINE_FUNCTION int vertex_colour(int x, int y) {
  return ((x - y) % 3 + 3) % 3;
}

/// +1 if an up rotation (cube added) is possible at vertex (x, y), -1 if a down rotation is,
/// 0 otherwise. partners: the width*height bytes of a valid tiling. Works for any (x, y): up
/// triangles outside the box count as absent.
KOKKOS_INLINE_FUNCTION int rotation_direction(const std::uint8_t* partners, int width, int height,
                                              int x, int y) {
  if (x < 1 || y < 1 || x >= width || y >= height) return 0;  // U(x-1,y), U(x,y-1), U(x,y)
  const int a = partners[x + width * y], b = partners[x - 1 + width * y];
  const int c = partners[x + width * (y - 1)];
  if (a == 1 && b == 2 && c == 0) return 1;
  if (a == 2 && b == 0 && c == 1) return -1;
  return 0;
}

/// Applies the rotation in `direction` (+1 or -1) at (x, y) when it is possible; returns whether
/// it was.
KOKKOS_INLINE_FUNCTION bool rotate(std::uint8_t* partners, int width, int height, int x, int y,
                                   int direction) {
  if (direction == 0 || rotation_direction(partners, width, height, x, y) != direction) {
    return false;
  }
  const int step = direction > 0 ? 1 : 2;  // +1 or -1 mod 3
  std::uint8_t* cells[3] = {partners + x + width * y, partners + x - 1 + width * y,
                            partners + x + width * (y - 1)};
  for (std::uint8_t* cell : cells) *cell = static_cast<std::uint8_t>((*cell + step) % 3);
  return true;
}

class LozengeTiling {
 public:
  LozengeTiling() = default;
  /// partners: width*height bytes (0, 1, 2 or no_lozenge). Only the size is checked here; use
  /// validate_tiling for the rest.
  LozengeTiling(int width, int height, std::vector<std::uint8_t> partners);

  int width() const { return width_; }
  int height() const { return height_; }
  std::uint8_t partner(int x, int y) const { return partners_[x + width_ * y]; }
  void set_partner(int x, int y, std::uint8_t k) { partners_[x + width_ * y] = k; }
  const std::vector<std::uint8_t>& partners() const { return partners_; }
  std::vector<std::uint8_t>& partners() { return partners_; }

  int rotation_direction(int x, int y) const {
    return tilings::rotation_direction(partners_.data(), width_, height_, x, y);
  }
  bool rotate(int x, int y, int direction) {
    return tilings::rotate(partners_.data(), width_, height_, x, y, direction);
  }

  friend bool operator==(const LozengeTiling& a, const LozengeTiling& b) {
    return a.width_ == b.width_ && a.height_ == b.height_ && a.partners_ == b.partners_;
  }
  friend bool operator!=(const LozengeTiling& a, const LozengeTiling& b) { return !(a == b); }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint8_t> partners_;
};

/// Throws std::invalid_argument naming the first triangle that is wrongly covered: an up
/// triangle of the domain without a valid partner, a partner outside the domain, a down
/// triangle covered twice or never, or a byte set for a cell whose up triangle is absent.
void validate_tiling(const TriangularDomain& domain, const LozengeTiling& tiling);
bool is_valid_tiling(const TriangularDomain& domain, const LozengeTiling& tiling);

}  // namespace portamc::tilings

#pragma once
// Cheap index arithmetic for the CVF kernels, which are bound by memory and instruction issue.
//
// Cells are 64-bit (N = L^3 reaches 10^10) and GPUs have no integer divider: nvcc expands a
// 64-bit division into ~70 instructions, and a thread needs two of them (cell -> x, row ->
// y, z). Below 2^53 a double multiply by 1/L gives the quotient to within one, which one
// compare-and-correct fixes: a handful of instructions, exact for every cell index.
//
// Whether an edge is allowed asks for bit `edge` of the forbidden matching of a cube state.
// The nine 12-bit masks of geometry.hpp are packed into two 64-bit constants here, so the
// lookup is two shifts on registers instead of a load from a local array.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/cvf/geometry.hpp"

namespace portamc::cvf {

/// Exact q = floor(n / d), r = n - q d for 0 <= n < 2^53 and 0 < d < 2^31.
struct FastQuotient {
  std::int64_t divisor = 1;
  double inverse = 1.0;

  FastQuotient() = default;
  explicit FastQuotient(std::int64_t d) : divisor(d), inverse(1.0 / static_cast<double>(d)) {}

  KOKKOS_INLINE_FUNCTION std::int64_t divide(std::int64_t n, std::int64_t& remainder) const {
    std::int64_t q = static_cast<std::int64_t>(static_cast<double>(n) * inverse);
    std::int64_t r = n - q * divisor;
    if (r < 0) {
      --q;
      r += divisor;
    } else if (r >= divisor) {
      ++q;
      r -= divisor;
    }
    remainder = r;
    return q;
  }
};

/// cell -> (x, y, z) and cube -> lower corner with FastQuotient instead of Geometry's
/// divisions; same results (a test checks every cell of a small lattice).
struct FastCoordinates {
  FastQuotient by_L;
  FastQuotient by_half_L;

  FastCoordinates() = default;
  explicit FastCoordinates(const Geometry& g) : by_L(g.size()), by_half_L(g.size() / 2) {}

  KOKKOS_INLINE_FUNCTION Coordinates cell(std::int64_t cell) const {
    std::int64_t x, y;
    const std::int64_t row = by_L.divide(cell, x);
    const std::int64_t z = by_L.divide(row, y);
    return {static_cast<int>(x), static_cast<int>(y), static_cast<int>(z)};
  }

  KOKKOS_INLINE_FUNCTION Coordinates cube_corner(std::int64_t cube) const {
    std::int64_t x, j;
    const std::int64_t row = by_L.divide(cube, x);
    const std::int64_t k = by_half_L.divide(row, j);
    const int p = static_cast<int>(x & 1);
    return {static_cast<int>(x), static_cast<int>(2 * j) + p, static_cast<int>(2 * k) + p};
  }
};

namespace detail {
// The same nine matchings as forbidden_edges(); bit 12 s + e says whether state s forbids
// edge e. States 0..4 fill the low word (60 bits), states 5..8 the high word (48 bits).
inline constexpr std::uint16_t packed_matchings[cube_states] = {0x00F, 0x03C, 0x0C3, 0x0F0, 0x30A,
                                                                0x5A0, 0xA50, 0xC05, 0xF00};
constexpr std::uint64_t pack_matchings(int first, int count) {
  std::uint64_t word = 0;
  for (int s = 0; s < count; ++s) word |= std::uint64_t{packed_matchings[first + s]} << (12 * s);
  return word;
}
inline constexpr std::uint64_t matchings_low = pack_matchings(0, 5);
inline constexpr std::uint64_t matchings_high = pack_matchings(5, 4);
}  // namespace detail

/// The 12-bit forbidden-edge mask of cube state s (equal to forbidden_edges(s)).
KOKKOS_INLINE_FUNCTION std::uint32_t forbidden_mask(int state) {
  const std::uint64_t word = state < 5 ? detail::matchings_low >> (12 * state)
                                       : detail::matchings_high >> (12 * (state - 5));
  return static_cast<std::uint32_t>(word & 0xFFFu);
}

/// Number of set bits of a 12-bit mask.
KOKKOS_INLINE_FUNCTION int popcount12(std::uint32_t m) {
  m = m - ((m >> 1) & 0x555u);
  m = (m & 0x333u) + ((m >> 2) & 0x333u);
  m = (m + (m >> 4)) & 0x70Fu;
  return static_cast<int>((m & 0xFu) + ((m >> 8) & 0xFu));
}

/// Whether the bond of cell c through `arm` is allowed (eta = 1): Geometry::allowed with the
/// packed lookup.
template <class CubeStates>
KOKKOS_INLINE_FUNCTION bool edge_allowed(const Geometry& g, const CubeStates& cube_state,
                                         const Coordinates& c, int arm) {
  const int axis = arm_axis(arm);
  Coordinates from = c;
  if (arm & 1) {
    if (axis == 0) from.x = g.wrap(c.x - 1);
    if (axis == 1) from.y = g.wrap(c.y - 1);
    if (axis == 2) from.z = g.wrap(c.z - 1);
  }
  const Geometry::CubeEdge ce = g.cube_edge(from, axis);
  return ((forbidden_mask(cube_state(ce.cube)) >> ce.edge) & 1u) == 0;
}

}  // namespace portamc::cvf

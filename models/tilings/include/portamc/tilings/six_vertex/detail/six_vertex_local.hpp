#pragma once
// Local rules of the six-vertex model in the height picture, shared by host code and kernels.
//
// Arrows and heights (faces and vertices as in six_vertex_boundary.hpp): crossing an edge, the
// height rises by 1 when the edge's arrow points to the left of the direction of travel. So a
// vertical edge's arrow points up iff the face east of it is 1 higher than the face west of it,
// and a horizontal edge's arrow points right (east) iff the face south of it is 1 higher than
// the face north of it. The ice rule (two arrows in, two out) is exactly the statement that
// these differences add up around the vertex, i.e. that a height function exists.
//
// With nw, ne, sw, se the heights of the four faces around a vertex, the six types are
//   a1: all arrows right and up        nw + 2 = se,   ne = sw
//   a2: all arrows left and down       nw - 2 = se,   ne = sw
//   b1: arrows right and down          nw = se,       ne + 2 = sw
//   b2: arrows left and up             nw = se,       ne - 2 = sw
//   c1: horizontal in, vertical out    nw = se,       ne = sw = nw + 1
//   c2: horizontal out, vertical in    nw = se,       ne = sw = nw - 1
// a: the heights tilt along the NW-SE diagonal, b: along the NE-SW diagonal, c: a saddle.
// Weights: a1, a2 -> a; b1, b2 -> b; c1, c2 -> c (the zero-field model). For domain-wall
// boundaries c1 is the +1 and c2 the -1 entry of the alternating-sign matrix:
// A(r, c) = (ne + sw - nw - se) / 2.
//
// Local move: an interior face whose four side neighbours share one height v can take v + 1 or
// v - 1 (a "c-flip": the height moves by 2). Its four corner vertices each consist of the face,
// two side neighbours (both v) and one diagonal neighbour d, which is v + 1 or v - 1. With the
// face at the same height as d the vertex is a c vertex, otherwise an a vertex (NW and SE
// corners, the diagonal being NW-SE) or a b vertex (NE and SW corners). So
//   w_up   = prod_k (d_k = v + 1 ? c : w_k),   w_down = prod_k (d_k = v - 1 ? c : w_k),
// w_k = a for the NW and SE corners and b for the NE and SW corners; the heat-bath probability
// of "up" depends only on which diagonals are high: 4 bits, a 16-entry table.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace portamc::tilings {

enum class VertexType : std::uint8_t { a1 = 0, a2 = 1, b1 = 2, b2 = 3, c1 = 4, c2 = 5 };
inline constexpr int vertex_type_count = 6;

/// VertexType (as an int) of the vertex with these four face heights (a valid height function).
KOKKOS_INLINE_FUNCTION int vertex_type_index(int nw, int ne, int sw, int se) {
  if (nw != se) return nw < se ? 0 : 1;
  if (ne != sw) return ne < sw ? 2 : 3;
  return ne > nw ? 4 : 5;
}

/// Bits of the heat-bath table: which diagonal neighbours lie above the common height v of the
/// four side neighbours.
enum DiagonalBit : int { diagonal_nw = 1, diagonal_ne = 2, diagonal_sw = 4, diagonal_se = 8 };
inline constexpr int heat_bath_table_size = 16;

KOKKOS_INLINE_FUNCTION int diagonal_bits(int v, int nw, int ne, int sw, int se) {
  return (nw > v ? diagonal_nw : 0) | (ne > v ? diagonal_ne : 0) | (sw > v ? diagonal_sw : 0) |
         (se > v ? diagonal_se : 0);
}

/// Heat-bath thresholds in [0, 2^32] on a 32-bit word: "up" iff word < threshold[bits].
/// Integers computed once on the host (probability_threshold, glauber_weights.hpp), so every
/// backend takes bitwise the same decisions.
using HeatBathTable = Kokkos::Array<std::uint64_t, heat_bath_table_size>;

/// A face seen by the local move: movable iff its four side neighbours share the height
/// `side`; then `bits` says which diagonal neighbours lie above it.
struct FlipSite {
  bool movable;
  int side;
  int bits;
};

/// The face at index `at` of a height array in which its east neighbour is `east` and its
/// south neighbour `south` entries further on. 32-bit offsets: the arrays are capped below
/// 2^31 entries (six_vertex_slab_family.hpp).
template <class Height>
KOKKOS_INLINE_FUNCTION FlipSite flip_site(const Height* h, int at, int east, int south) {
  const int v = h[at - south];
  if (h[at + south] != v || h[at - east] != v || h[at + east] != v) return {false, v, 0};
  return {true, v,
          diagonal_bits(v, h[at - south - east], h[at - south + east], h[at + south - east],
                        h[at + south + east])};
}

/// Heat-bath choice for a movable face: the higher value iff word < table[bits].
KOKKOS_INLINE_FUNCTION int heat_bath_height(const FlipSite& site, const HeatBathTable& table,
                                            std::uint32_t word) {
  return word < table[site.bits] ? site.side + 1 : site.side - 1;
}

}  // namespace portamc::tilings

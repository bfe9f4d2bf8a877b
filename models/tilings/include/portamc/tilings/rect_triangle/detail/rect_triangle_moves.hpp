#pragma once
// Local moves of rectangle-triangle tilings as heat-bath re-tilings of small regions, their
// periodic colourings and the per-step choice of (family, class).
//
// A move family is a region R (a fixed set of faces placed at an anchor vertex v) and a list
// of configurations (the face codes of R). Each configuration describes the tiles inside R and,
// possibly, tiles from outside that occupy parts of R's faces; those outside tiles are the same
// in all configurations of the family. So when R(v)'s codes match a configuration, every
// configuration of the family fits the rest of the tiling unchanged (for the families below they
// are all the ways to complete it), and re-drawing one with probability proportional to the product
// of R's face weights (faces outside R keep their types) is a heat-bath update of the block,
// reversible for t^#A c^#B r^#C (tests check detailed balance move by move against the
// enumeration). The patterns of different families are disjoint. Families, all on the star (the six
// faces around v), so that they share one colouring:
//   0  the paper's elementary move (Fig. 6): the five tilings of the hexagon (configs 0..4 of
//      rect_triangle_geometry.hpp), applicable when no tile crosses the hexagon;
//   1 + k, k = 0..5, "open ear": the hexagon's two tilings that contain the ear at v + d_k
//      (configs k mod 2 and 2 + k mod 3), but with that ear replaced by the rectangle
//      R(v + d_k, k mod 3) lying against the star (its halves in the two faces next to the
//      edge v -> v + d_k). These are the extra moves of the paper's code ("rect + left rect"
//      <-> "triangles + left rect") and they are needed: a row of parallel rectangles, e.g.
//      the 2 x 1 x 1 hexagon tiled by two rectangles and two ears, has no star tiled on its
//      own, so vertex moves alone leave it isolated. With them, breadth-first search reaches
//      every tiling of all test domains (test_rect_triangle.cpp).
// The star's tilings come from the exact enumeration (rect_triangle_enumeration.hpp) on the
// hexagon itself, the open-ear ones from those; all sorted, so the tables never change.
//
// Colouring: anchors v and v + delta of one family conflict iff their regions share a face;
// the family's classes are (alpha x + beta y) mod m with the smallest m (then alpha, beta)
// that separates every conflicting delta, found by trying all; so moves of one class touch
// pairwise disjoint face bytes (the star gets m = 3: a proper 3-colouring of the vertices
// like vertex_colour). That is MoveColouring::periodic; MoveColouring::kokkos_kernels (the
// default where Kokkos Kernels is linked, move_colouring.hpp) instead colours each family's
// conflict graph in the given domain (anchors adjacent iff their regions share a face):
// classes = colours, no empty classes.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <vector>

#include "portamc/tilings/engine/detail/move_colouring.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"

namespace portamc::tilings {

inline constexpr int rect_triangle_max_region_faces = 12;
inline constexpr int rect_triangle_max_region_configs = 16;

/// A move family's region laid out for one box width, with its tilings and heat-bath
/// thresholds: plain data that kernels take by value.
struct RectTriangleMoveShape {
  std::int32_t faces = 0;
  std::int32_t configs = 0;
  /// Flat face index of region face i minus 2 * (x + width * y) of the anchor (x, y).
  std::int32_t offset[rect_triangle_max_region_faces] = {};
  std::uint8_t code[rect_triangle_max_region_configs][rect_triangle_max_region_faces] = {};
  /// cumulative[i] = probability_threshold(P(config <= i)), i < configs - 1.
  std::uint64_t cumulative[rect_triangle_max_region_configs] = {};

  /// The region's current tiling (0..configs-1), -1 if a tile crosses its boundary.
  KOKKOS_INLINE_FUNCTION int config_at(const std::uint8_t* codes, std::int32_t base) const {
    for (int c = 0; c < configs; ++c) {
      bool match = true;
      for (int i = 0; i < faces && match; ++i) match = codes[base + offset[i]] == code[c][i];
      if (match) return c;
    }
    return -1;
  }
  KOKKOS_INLINE_FUNCTION void set_config(std::uint8_t* codes, std::int32_t base, int c) const {
    for (int i = 0; i < faces; ++i) codes[base + offset[i]] = code[c][i];
  }
  /// Heat-bath choice from one 32-bit word.
  KOKKOS_INLINE_FUNCTION int choose(std::uint32_t u) const {
    int c = 0;
    for (int i = 0; i + 1 < configs; ++i) c += std::uint64_t{u} >= cumulative[i] ? 1 : 0;
    return c;
  }
};

/// A family's region: faces (cell dx, cell dy, up) relative to the anchor vertex, and the
/// codes of these faces in each tiling of the region (sorted).
struct RectTriangleRegion {
  std::vector<std::array<int, 3>> faces;
  std::vector<std::vector<std::uint8_t>> tilings;
};
/// vertex_only: family 0 alone (not irreducible; for tests); vertex_and_open_ear: all seven.
enum class RectTriangleMoves { vertex_only, vertex_and_open_ear };
/// The regions of the families (1 or 7 of them; see above).
std::vector<RectTriangleRegion> rect_triangle_regions(RectTriangleMoves moves);

/// Class (alpha x + beta y) mod classes of anchor (x, y).
struct RectTriangleColouring {
  int alpha = 0;
  int beta = 0;
  int classes = 1;
  int of(int x, int y) const {
    const int c = (alpha * x + beta * y) % classes;
    return c < 0 ? c + classes : c;
  }
};
RectTriangleColouring rect_triangle_colouring(const RectTriangleRegion& region);

/// Every (family, class) pair's anchors in one domain; anchors increasing in each pair.
/// kokkos_kernels: pairs run over families, then colours 0, 1, ... (pair_class = colour).
struct RectTriangleMoveSet {
  MoveColouring colouring = MoveColouring::periodic;
  int width = 0;
  int height = 0;
  std::vector<RectTriangleRegion> regions;
  std::vector<RectTriangleMoveShape> shapes;      ///< per family
  std::vector<RectTriangleColouring> colourings;  ///< per family (periodic only; else empty)
  std::vector<int> pair_family;
  std::vector<int> pair_class;
  std::vector<std::int32_t> pair_offset;  ///< pairs() + 1 entries into anchors
  std::vector<std::int32_t> anchors;      ///< vertex indices x + (width + 1) y
  int pairs() const { return static_cast<int>(pair_family.size()); }
  /// Face-index base 2 * (x + width * y) of a vertex index.
  std::int32_t base_of(std::int32_t vertex) const {
    return 2 * (vertex % (width + 1) + width * (vertex / (width + 1)));
  }
};
/// Throws std::invalid_argument for bad weights, a domain where no move applies anywhere, or
/// kokkos_kernels in a build without Kokkos Kernels.
RectTriangleMoveSet rect_triangle_move_set(const TriangularDomain& domain,
                                           const RectTriangleWeights& weights,
                                           RectTriangleMoves moves,
                                           MoveColouring colouring = default_move_colouring);

/// Tilings reachable from `start` by the set's moves (breadth-first search), sorted; throws
/// std::invalid_argument once there are more than max_tilings.
std::vector<RectTriangleTiling> tilings_reachable_by_moves(const TriangularDomain& domain,
                                                           const RectTriangleMoveSet& moves,
                                                           const RectTriangleTiling& start,
                                                           std::size_t max_tilings);

}  // namespace portamc::tilings

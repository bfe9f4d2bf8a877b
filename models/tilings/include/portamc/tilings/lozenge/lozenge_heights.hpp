#pragma once
// Height functions of lozenge tilings (the stack-of-cubes picture) on the vertices of a
// TriangularDomain, coordinates as in triangular_domain.hpp.
//
// Convention: orient every lattice edge in its "positive" direction e1, e2 - e1 or -e2 (the way
// a counter-clockwise walk around an up triangle goes). Along a positive edge the height rises
// by 1 if the edge is a side of a lozenge (in particular every boundary edge) and falls by 2 if
// the edge is the diagonal inside a lozenge; around every triangle the steps add up to zero.
// The lowest, then leftmost vertex (x0, y0) of the domain gets height x0 - y0, so
// h(x, y) = x - y (mod 3) everywhere, and the boundary heights depend on the domain alone.
// An up rotation at an interior vertex (lozenge_tiling.hpp) raises its height by exactly 3 and
// changes no other, so (h - h_min) / 3 summed over vertices counts the cubes above the minimal
// tiling (volume_between, volume_above_minimum in lozenge_extremal.hpp).
#include <cstdint>
#include <limits>
#include <vector>

#include "portamc/tilings/lozenge/lozenge_tiling.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace portamc::tilings {

/// Value held by vertices outside the domain.
inline constexpr int no_height = std::numeric_limits<int>::min();

/// Heights on the (width+1) x (height+1) vertices of a domain's box, index x + (width+1) y.
struct LozengeHeights {
  int width = 0;   ///< cells of the box, as TriangularDomain::width
  int height = 0;  ///< cells of the box, as TriangularDomain::height
  std::vector<int> values;

  int at(int x, int y) const { return values[x + (width + 1) * y]; }
  int& at(int x, int y) { return values[x + (width + 1) * y]; }
  friend bool operator==(const LozengeHeights& a, const LozengeHeights& b) {
    return a.width == b.width && a.height == b.height && a.values == b.values;
  }
};

/// One lattice edge with at least one triangle in the domain, in its positive direction
/// (vertex indices). It is side k of up triangle (up_x, up_y) (see lozenge_tiling.hpp);
/// interior: both triangles next to it are in the domain.
struct DomainEdge {
  int from;
  int to;
  int up_x;
  int up_y;
  int k;
  bool interior;
};
std::vector<DomainEdge> domain_edges(const TriangularDomain& domain);

/// Index of the vertex that anchors the heights, and its height x0 - y0.
int base_vertex(const TriangularDomain& domain);
int base_height(const TriangularDomain& domain);

/// Heights of the boundary vertices (fixed for every tiling); no_height elsewhere.
LozengeHeights boundary_heights(const TriangularDomain& domain);

/// Validates the tiling, then integrates the height steps from the base vertex.
LozengeHeights heights_from_tiling(const TriangularDomain& domain, const LozengeTiling& tiling);

/// Throws std::invalid_argument naming the vertex or edge that breaks the rules above: a box of
/// the wrong size, a domain vertex without a height or an outside vertex with one, a wrong base
/// height, a step other than +1 / -2 on an interior edge or other than +1 on a boundary edge.
void validate_heights(const TriangularDomain& domain, const LozengeHeights& heights);
bool is_valid_heights(const TriangularDomain& domain, const LozengeHeights& heights);

/// Validates, then reads each up triangle's partner off its one edge with step -2.
LozengeTiling tiling_from_heights(const TriangularDomain& domain, const LozengeHeights& heights);

/// Cubes between two valid height functions: sum over vertices of (upper - lower) / 3 (may be
/// negative when upper lies below lower).
std::int64_t volume_between(const TriangularDomain& domain, const LozengeHeights& lower,
                            const LozengeHeights& upper);

}  // namespace portamc::tilings

#pragma once
// Height functions of rectangle-triangle tilings: the paper's "stacks of half-cubes"
// (Keating & Sridhar, II.B.3), on the vertices of a TriangularDomain (coordinates as in
// triangular_domain.hpp, tiles as in rect_triangle_geometry.hpp).
//
// Lift. Project the cubic lattice along (1, 1, 1): the unit vectors go to the three lattice
// directions p1 = e1 = d_0, p2 = e2 - e1 = d_2, p3 = -e2 = d_4 (the "positive" directions of
// lozenge_heights.hpp). A lozenge is a cube face, a tile triangle (sides 1, 1, sqrt 3) is half
// of one cut along its face diagonal, a rectangle (1 x sqrt 3) is a diagonal section of a cube.
// Every tile corner is a lattice vertex, and its lift has x + y + z = h with
//   h(b) - h(a) = +1 along a unit tile edge a -> b in a positive direction (d_0, d_2, d_4),
//                 -1 along one in a negative direction (d_1, d_3, d_5),
//                  0 along a sqrt 3 tile edge (a face diagonal e_i - e_j).
// Around every tile the steps add up to zero, so h is well defined on the tile corners of a
// simply connected domain once one vertex is fixed: the base vertex of lozenge_heights.hpp with
// the same base height x0 - y0. Boundary edges are unit tile edges of every tiling, so the
// boundary heights are those of lozenge tilings and depend on the domain alone.
//   - A lozenge tiling cut into triangles (every rectangle-free tiling is one) has exactly its
//     lozenge heights (heights_from_tiling in lozenge_heights.hpp): the lozenge sides are the
//     unit tile edges with the same +1 rule, the long diagonals have step 1 - 1 = 0, and the
//     short diagonal (straddled by two triangles) has step -2 in its positive direction.
//   - A rectangle's centre is a lattice vertex inside a tile: it has no height (no_height), like
//     the vertices outside the domain. Every other domain vertex is a tile corner.
//   - The vertex move between the two lozenge configurations of a hexagon changes the centre
//     height by 3 (a cube); the three rectangle configurations have no centre height.
// The heights do NOT determine the tiling: the three rectangle configurations of one hexagon
// share their corner heights (the rectangles are different diagonal sections of one cube). The
// heights together with the rectangles (centre and orientation) do; see the tests.
#include <vector>

#include "portamc/tilings/lozenge/lozenge_heights.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"

namespace portamc::tilings {

/// Heights on the (width+1) x (height+1) vertices of the domain's box, index x + (width+1) y;
/// no_height outside the domain and at rectangle centres. Same layout as lozenge heights.
using RectTriangleHeights = LozengeHeights;

/// One side of a tile between two of its corners (vertex indices of the domain's box) and the
/// height step h(to) - h(from) the lift gives it: +-1 on unit sides, 0 on sqrt 3 sides.
struct RectTriangleTileEdge {
  int from;
  int to;
  int step;
};

/// The sides of a tile in counter-clockwise order (3 for a triangle, 4 for a rectangle), with
/// corners as vertex indices of a box `width` cells wide; the corners must lie in the box
/// (0 <= x <= width, 0 <= y <= height), else std::invalid_argument naming the tile.
std::vector<RectTriangleTileEdge> tile_edges(const TriangularDomain& domain,
                                             const RectTriangleTile& tile);

/// Heights of the boundary vertices (the same for every tiling of the domain; identical to
/// boundary_heights of lozenge_heights.hpp); no_height elsewhere.
RectTriangleHeights rect_triangle_boundary_heights(const TriangularDomain& domain);

/// Integrates the steps of the tiles' sides by breadth-first search from the base vertex. No
/// tiling check: throws std::logic_error naming the vertex where two paths give different
/// heights (the tiles do not form a tiling), and std::invalid_argument (also a logic_error) for
/// a corner outside the box or the domain, or a domain without a base vertex among the corners.
RectTriangleHeights heights_from_tiles(const TriangularDomain& domain,
                                       const std::vector<RectTriangleTile>& tiles);

/// Validates the tiling (validate_tiling: std::invalid_argument naming the face), then
/// integrates its tiles (heights_from_tiles).
RectTriangleHeights heights_from_tiling(const TriangularDomain& domain,
                                        const RectTriangleTiling& tiling);

/// Throws std::invalid_argument naming the vertex or tile side that breaks the rules above: a
/// box of the wrong size, a tile corner without a height or another vertex (outside the domain
/// or a rectangle centre) with one, a boundary height other than the domain's, a tile side with
/// the wrong step. The tiling itself is validated first.
void validate_heights(const TriangularDomain& domain, const RectTriangleTiling& tiling,
                      const RectTriangleHeights& heights);
bool is_valid_heights(const TriangularDomain& domain, const RectTriangleTiling& tiling,
                      const RectTriangleHeights& heights);

}  // namespace portamc::tilings

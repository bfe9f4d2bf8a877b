#pragma once
// Thurston's height function of a domino tiling, on the lattice vertices of the domain.
//
// Convention (Thurston 1990; Propp): every lattice edge is oriented so that the black face
// beside it lies on its left.  Walking along an edge in its orientation the height rises by +1,
// unless the edge is the middle edge of a domino (both its faces form one domino), where it
// falls by 3; against the orientation the signs flip.  Around any face exactly one of its four
// edges is a domino middle, so 3 * (+1) - 3 = 0 and the height is well defined on a simply
// connected domain.  Edges on the boundary of the domain are never domino middles, so the
// boundary heights are fixed by the domain alone, and since every step is +1 mod 4, h mod 4 is
// the same for all tilings at every vertex.  Normalisation: h = 0 at the domain's reference
// vertex (SquareDomain::reference_row/col).  Vertices outside the domain hold 0.
//
// Heights are an int array over the (rows+1) x (cols+1) vertices, index i * (cols+1) + j.
// The partial order of tilings is pointwise order of these arrays; an up-rotation at v raises
// h(v) by 4 and changes nothing else.
#include <string>
#include <vector>

#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/domino/square_domain.hpp"

namespace portamc::tilings {

/// Height change walking east from vertex (i, j) to (i, j+1) across no domino: the face north of
/// that edge, (i-1, j), is on the left.
inline constexpr int east_step(int i, int j) {
  return SquareDomain::is_black(i - 1, j) ? 1 : -1;
}
/// Height change walking south from (i, j) to (i+1, j) across no domino: face (i, j) is on the
/// left (east).
inline constexpr int south_step(int i, int j) {
  return SquareDomain::is_black(i, j) ? 1 : -1;
}

/// The fixed heights on the boundary vertices (others 0). Throws std::invalid_argument if going
/// around the boundary does not close up, i.e. the domain has unequal numbers of black and white
/// faces (the boundary loop sums to 4 (black - white)); the message gives both counts.
std::vector<int> domino_boundary_heights(const SquareDomain& domain);

/// Height function of a valid tiling (throws std::invalid_argument otherwise).
std::vector<int> heights_from_tiling(const SquareDomain& domain, const DominoTiling& tiling);

/// Empty when heights is the height function of some tiling of the domain: right size, 0 at the
/// reference vertex and outside the domain, and along every edge of the domain a step of +1 or
/// -3 in the edge's orientation, -3 only between two faces of the domain.  (A face's four steps
/// then sum to 0 with exactly one -3, which names its partner.)  Otherwise says where it fails.
std::string height_function_error(const SquareDomain& domain, const std::vector<int>& heights);
inline bool is_height_function(const SquareDomain& domain, const std::vector<int>& heights) {
  return height_function_error(domain, heights).empty();
}

/// The tiling whose height function this is: each face pairs across its -3 edge. Throws
/// std::invalid_argument with height_function_error's message when heights is not valid.
DominoTiling tiling_from_heights(const SquareDomain& domain, const std::vector<int>& heights);

}  // namespace portamc::tilings

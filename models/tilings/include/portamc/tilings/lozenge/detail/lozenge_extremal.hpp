#pragma once
// Maximal and minimal lozenge tilings of a TriangularDomain by Thurston's algorithm, and with
// them the tileability test and the cube count of a tiling.
//
// With the conventions of lozenge_heights.hpp, a height function is exactly a function with the
// fixed boundary heights and h(to) - h(from) <= 1, h(from) - h(to) <= 2 along every positive
// edge (the congruence h = x - y mod 3 then leaves only the steps +1 and -2). So the pointwise
// largest one is h_max(v) = min over boundary b of h(b) + dist(b -> v), with 1 per edge walked
// forwards and 2 per edge walked backwards, and symmetrically for h_min. The domain is tileable
// iff these reproduce the boundary heights (Thurston 1990); otherwise two boundary vertices are
// too far apart in height for the room between them, and the error names both. For the
// a x b x c hexagon the minimum is the empty box and the maximum the full one (abc cubes).
#include <cstdint>

#include "portamc/tilings/lozenge/lozenge_heights.hpp"
#include "portamc/tilings/lozenge/lozenge_tiling.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace portamc::tilings {

/// Pointwise largest / smallest height function; throw std::invalid_argument naming the two
/// boundary vertices that violate Thurston's condition if the domain has no tiling.
LozengeHeights maximal_heights(const TriangularDomain& domain);
LozengeHeights minimal_heights(const TriangularDomain& domain);
LozengeTiling maximal_tiling(const TriangularDomain& domain);
LozengeTiling minimal_tiling(const TriangularDomain& domain);
bool is_tileable(const TriangularDomain& domain);

/// Number of cubes of the tiling above the minimal tiling (up rotations needed to reach it).
std::int64_t volume_above_minimum(const TriangularDomain& domain, const LozengeTiling& tiling);

}  // namespace portamc::tilings

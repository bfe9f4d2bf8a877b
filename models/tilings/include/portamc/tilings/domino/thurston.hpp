#pragma once
// Thurston's algorithm for domino tilings (W. P. Thurston, "Conway's tiling groups", 1990).
//
// A height function obeys, for every edge u -> w walked in its orientation, h(w) - h(u) in
// {+1, -3}; equivalently h(w) <= h(u) + 1 and h(u) <= h(w) + 3, with the residues mod 4 and the
// boundary values fixed by the domain.  The largest function below these bounds is
//   h_max(v) = min over boundary vertices b of ( h(b) + dist(b, v) ),
// dist being the shortest path with cost 1 along and 3 against an edge's orientation.  Every
// path's cost is congruent to the height change mod 4, so h_max has the right residues and is a
// height function exactly when it reproduces the boundary values; otherwise some boundary vertex
// b' forces another boundary vertex b below its fixed height and the domain has no tiling.
// h_min is the same with costs 3 along and 1 against, taken from below.  The costs are at most
// 3, so a bucket queue (Dial's algorithm) computes them in time linear in the domain's size.
#include <string>
#include <vector>

#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/domino/square_domain.hpp"

namespace portamc::tilings {

struct DominoTileability {
  bool tileable = false;
  /// Empty when tileable; otherwise the colour counts, or the conflicting boundary vertices.
  std::string reason;
  /// The boundary vertex whose fixed height cannot be met (-1 for a colour imbalance).
  int vertex_row = -1;
  int vertex_col = -1;
};

DominoTileability domino_tileability(const SquareDomain& domain);

/// Pointwise maximal / minimal height functions (normalised as in domino_heights.hpp). Throw
/// std::invalid_argument with domino_tileability's reason when the domain has no tiling.
std::vector<int> maximal_domino_heights(const SquareDomain& domain);
std::vector<int> minimal_domino_heights(const SquareDomain& domain);
DominoTiling maximal_domino_tiling(const SquareDomain& domain);
DominoTiling minimal_domino_tiling(const SquareDomain& domain);

}  // namespace portamc::tilings

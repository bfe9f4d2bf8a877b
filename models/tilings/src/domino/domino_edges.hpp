#pragma once
// Private helper: the edges of the domain at a vertex, with the faces on either side, so that
// boundary heights, tiling heights, the height checker and Thurston's algorithm all walk the
// same graph with the same orientation rule.
#include <cstdint>

#include "portamc/tilings/domino/domino_heights.hpp"

namespace portamc::tilings::detail {

struct Edge {
  int i, j;            // the neighbouring vertex
  int plain_step;      // height change walking there across no domino (+-1)
  int ra, ca, rb, cb;  // the two faces beside the edge
  bool inside_a, inside_b;
};

/// Calls f(Edge) for each of the up to four edges at (i, j) with at least one face in the domain.
template <class F>
void for_each_domain_edge(const SquareDomain& d, int i, int j, F&& f) {
  const Edge edges[4] = {
      {i, j + 1, east_step(i, j), i - 1, j, i, j, false, false},
      {i, j - 1, -east_step(i, j - 1), i - 1, j - 1, i, j - 1, false, false},
      {i + 1, j, south_step(i, j), i, j - 1, i, j, false, false},
      {i - 1, j, -south_step(i - 1, j), i - 1, j - 1, i - 1, j, false, false},
  };
  for (Edge e : edges) {
    e.inside_a = d.contains(e.ra, e.ca);
    e.inside_b = d.contains(e.rb, e.cb);
    if (e.inside_a || e.inside_b) f(e);
  }
}

/// Whether the two faces beside the edge form one domino.
inline bool is_domino_middle(const DominoTiling& t, const Edge& e) {
  if (!e.inside_a || !e.inside_b) return false;
  const std::uint8_t d = t.at(e.ra, e.ca);
  return e.ra + direction::row_offset(d) == e.rb && e.ca + direction::col_offset(d) == e.cb;
}

}  // namespace portamc::tilings::detail

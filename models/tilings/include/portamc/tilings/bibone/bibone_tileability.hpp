#pragma once
// Whether a region of the triangular lattice has a bibone tiling (a perfect matching of its
// sites), decided exactly by Edmonds' blossom algorithm (the graph is not bipartite, so
// Hall/flow arguments do not apply): a greedy matching is augmented along alternating paths,
// contracting odd cycles (blossoms). If no augmenting path starts at some exposed site, a
// maximum matching leaves that site exposed (Edmonds), so no perfect matching exists. Each
// search is O(sites^2) at worst and the greedy start leaves few exposed sites, which is quick
// for regions of many thousands of sites.
#include <string>

#include "portamc/tilings/bibone/bibone_domain.hpp"

namespace portamc::tilings {

struct BiboneTileability {
  bool tileable = false;
  std::string reason;       ///< why not (names a site), empty when tileable
  BiboneMatching matching;  ///< a perfect matching when tileable
};

BiboneTileability bibone_tileability(const BiboneDomain& domain);

/// A perfect matching to start Glauber dynamics from; throws std::invalid_argument with the
/// reason when the region has none.
BiboneMatching bibone_initial_matching(const BiboneDomain& domain);

}  // namespace portamc::tilings

#pragma once
// Exact enumeration of the bibone tilings (perfect matchings) of small regions, for tests:
// depth-first search that always matches the lowest-index unmatched site.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "portamc/tilings/bibone/bibone_domain.hpp"

namespace portamc::tilings {

/// Calls visit on every matching, in a fixed order.
void for_each_bibone_matching(const BiboneDomain& domain,
                              const std::function<void(const BiboneMatching&)>& visit);

std::uint64_t count_bibone_matchings(const BiboneDomain& domain);

/// All matchings, sorted by their bytes; throws std::length_error if there are more than limit.
std::vector<BiboneMatching> enumerate_bibone_matchings(const BiboneDomain& domain,
                                                       std::size_t limit = 1000000);

}  // namespace portamc::tilings

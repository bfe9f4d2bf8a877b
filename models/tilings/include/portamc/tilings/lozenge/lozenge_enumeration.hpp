#pragma once
// Exact enumeration of the lozenge tilings of small domains (backtracking), the reference that
// Markov chain samplers and the extremal tilings are checked against, and MacMahon's formula
// for the number of tilings of the a x b x c hexagon.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "portamc/tilings/lozenge/lozenge_tiling.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace portamc::tilings {

/// Calls visit once for every tiling, in a fixed (lexicographic in the partner bytes) order.
/// Up triangles are decided cell by cell; a down triangle whose three neighbours are all
/// decided must be covered already, which prunes dead branches early. Time is proportional to
/// the number of tilings times the domain size, so keep domains small.
void for_each_lozenge_tiling(const TriangularDomain& domain,
                             const std::function<void(const LozengeTiling&)>& visit);
std::uint64_t count_lozenge_tilings(const TriangularDomain& domain);
/// All tilings; throws std::invalid_argument once there are more than max_tilings.
std::vector<LozengeTiling> list_lozenge_tilings(const TriangularDomain& domain,
                                                std::size_t max_tilings);

/// MacMahon: prod_{i<=a, j<=b, k<=c} (i+j+k-1)/(i+j+k-2), computed exactly through prime
/// exponents. Throws std::invalid_argument for a side < 1 or a count beyond 64 bits.
std::uint64_t macmahon_box_count(int a, int b, int c);

}  // namespace portamc::tilings

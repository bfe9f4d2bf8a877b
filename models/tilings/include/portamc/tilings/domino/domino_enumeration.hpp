#pragma once
// Exact enumeration of domino tilings of small domains, and closed forms to test it against.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/domino/square_domain.hpp"

namespace portamc::tilings {

/// Calls visit once for every tiling of the domain.  Backtracking: the first uncovered face in
/// row-major order can only pair east or south, so each tiling is produced exactly once.
void for_each_domino_tiling(const SquareDomain& domain,
                            const std::function<void(const DominoTiling&)>& visit);
/// Number of tilings by the same backtracking (exponential time: small domains only).
std::uint64_t count_domino_tilings(const SquareDomain& domain);
/// All tilings; throws std::invalid_argument when there are more than max_tilings.
std::vector<DominoTiling> list_domino_tilings(const SquareDomain& domain, std::size_t max_tilings);

/// 2^(n(n+1)/2) (Elkies-Kuperberg-Larsen-Propp), exact for 1 <= n <= 10; throws otherwise.
std::uint64_t aztec_diamond_tiling_count(int n);
/// Kasteleyn / Temperley-Fisher: prod_{j<=ceil(m/2)} prod_{k<=ceil(n/2)}
/// (4 cos^2(pi j/(m+1)) + 4 cos^2(pi k/(n+1))), in double (0 when m n is odd).
double kasteleyn_rectangle_tiling_count(int m, int n);
/// Exact count for the m x n rectangle by a column transfer matrix over 2^min(m,n) profiles
/// (min(m, n) <= 20); throws std::invalid_argument on overflow of 64 bits.
std::uint64_t rectangle_tiling_count_exact(int m, int n);

}  // namespace portamc::tilings

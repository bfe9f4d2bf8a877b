#pragma once
// Exact laws of domino tilings that several sampler tests compare against: the normalised
// weights of an enumerated list of tilings, a lookup from a tiling's bytes to its place in the
// list, the vertical-domino count and the binomial probabilities of its Aztec-diamond law.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"

namespace portamc::tilings::testing {

/// weight(t) / sum of the weights, for every tiling of the list.
inline std::vector<double> domino_law(const std::vector<DominoTiling>& tilings,
                                      const DominoWeights& weights) {
  std::vector<double> p;
  double z = 0;
  for (const DominoTiling& t : tilings) {
    p.push_back(domino_tiling_weight(weights, t));
    z += p.back();
  }
  for (double& x : p) x /= z;
  return p;
}

/// Position of each tiling of the list, keyed by its bytes.
inline std::map<std::vector<std::uint8_t>, std::size_t> domino_index(
    const std::vector<DominoTiling>& tilings) {
  std::map<std::vector<std::uint8_t>, std::size_t> index;
  for (std::size_t k = 0; k < tilings.size(); ++k) index[tilings[k].partner] = k;
  return index;
}

/// Number of vertical dominoes (each has exactly one face pointing south: its north face).
inline int vertical_dominoes(const DominoTiling& t) {
  int v = 0;
  for (std::uint8_t d : t.partner) v += d == direction::south;
  return v;
}

inline double binomial_pmf(int n, int k, double p) {
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                  k * std::log(p) + (n - k) * std::log1p(-p));
}

}  // namespace portamc::tilings::testing

#pragma once
// Weights of the Glauber dynamics on tilings, turned into integer thresholds on one 32-bit
// random word u: the thresholds are computed once on the host from doubles, so every backend
// compares the same integers and makes the same decision (bitwise-identical states for one
// seed).
//
// A move at a vertex switches between two configurations A and B (domino: horizontal and
// vertical pair; lozenge: hexagon without and with the cube) whose weights have a ratio
// r = W(B) / W(A) that depends on the position only, never on the rest of the tiling.
//   heat_bath   end in B iff u < r / (1 + r), whatever the current state: the decision is a
//               monotone function of u, so chains driven by the same u keep their order
//               (coupling from the past works).
//   metropolis  the paper's "rotate with fixed probability": flip iff u < min(1, ratio) / 2,
//               ratio = r from A and 1/r from B. Reversible for the same measure, but with the
//               same u a chain in A and one in B at a vertex can swap places, so it is not
//               monotone and coupling from the past refuses it.
// A threshold word holds the threshold t <= 2^32 in its low 33 bits and, in bit 63, whether the
// decision "end in B" is u >= t instead of u < t (Metropolis from B: B is kept iff no flip).
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <vector>

#include "portamc/tilings/domino/domino_tiling.hpp"

namespace portamc::tilings {

enum class UpdateRule { heat_bath, metropolis };
/// The names of update_rule_names() (names.hpp).
const char* to_string(UpdateRule rule);

/// p in [0, 1] -> t in [0, 2^32] with P(u < t) = t / 2^32 = p rounded to a multiple of 2^-32.
std::uint64_t probability_threshold(double p);

inline constexpr std::uint64_t threshold_inverted = std::uint64_t{1} << 63;
inline constexpr std::uint64_t threshold_mask = (std::uint64_t{1} << 33) - 1;

/// Whether the move ends in B for the random word u and a threshold word (see above).
KOKKOS_INLINE_FUNCTION bool ends_in_b(std::uint32_t u, std::uint64_t threshold) {
  return (std::uint64_t{u} < (threshold & threshold_mask)) != ((threshold >> 63) != 0);
}

/// {threshold word when the vertex is in A, when it is in B} for ending in B, given the
/// weight ratio r = W(B) / W(A) (finite, > 0).
std::array<std::uint64_t, 2> move_thresholds(double ratio, UpdateRule rule);

/// Per-domino (dimer edge) weights, periodic in the face coordinates with period
/// period_rows x period_cols; a tiling weighs the product over its dominoes.
struct DominoWeights {
  int period_rows = 1;
  int period_cols = 1;
  /// Horizontal domino whose west face is (r, c): horizontal[(r % P) * Q + c % Q].
  std::vector<double> horizontal{1.0};
  /// Vertical domino whose north face is (r, c): vertical[(r % P) * Q + c % Q].
  std::vector<double> vertical{1.0};

  static DominoWeights uniform() { return {}; }
  /// Every vertical domino weighs `vertical`, every horizontal one `horizontal`.
  static DominoWeights vertical_horizontal(double vertical, double horizontal = 1.0);
  /// Chhita-Johansson's two-periodic weighting: each domino's middle edge has exactly one end
  /// (i, j) with i + j even; the domino weighs a if that i is even and b if it is odd (a
  /// checkerboard of a- and b-faces of the dimer graph).
  static DominoWeights two_periodic(double a, double b);

  double horizontal_at(int r, int c) const {
    return horizontal[(r % period_rows) * period_cols + c % period_cols];
  }
  double vertical_at(int r, int c) const {
    return vertical[(r % period_rows) * period_cols + c % period_cols];
  }
};

/// Throws std::invalid_argument naming the entry when a period is < 1, a table has the wrong
/// size, or a weight is not finite and positive.
void validate(const DominoWeights& weights);

/// Product of the weights of the tiling's dominoes (faces with direction::none are skipped).
double domino_tiling_weight(const DominoWeights& weights, const DominoTiling& tiling);

/// Thresholds for ending with the vertical pair at vertex (i, j), two per residue class
/// (i % P, j % Q): entry 2 * ((i % P) * Q + j % Q) + (currently vertical ? 1 : 0).
std::vector<std::uint64_t> domino_move_thresholds(const DominoWeights& weights, UpdateRule rule);

/// Lozenge tilings weighted by q^(number of cubes): adding a cube multiplies the weight by q.
struct LozengeWeights {
  double q = 1.0;
};
void validate(const LozengeWeights& weights);
/// {from no cube, from cube} thresholds for ending with the cube.
std::vector<std::uint64_t> lozenge_move_thresholds(const LozengeWeights& weights, UpdateRule rule);

}  // namespace portamc::tilings

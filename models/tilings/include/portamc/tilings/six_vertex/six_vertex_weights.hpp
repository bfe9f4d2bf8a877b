#pragma once
// Vertex weights of the zero-field six-vertex model, the heat-bath tables built from them and
// the monotonicity condition of coupling from the past.
//
// Monotonicity (why CFTP needs c >= max(a, b)). Couple two states X >= Y (pointwise heights)
// by updating the same face with the same random word. If only one of them can move at that
// face, or both can but their side neighbours differ (then by >= 2), the order survives
// whatever the word says: a face that cannot move in X while Y's neighbours all sit at v has a
// neighbour of X above v, so X's face is already >= v + 1 (and symmetrically). If both can move
// with the same side height v, X's diagonal neighbours are >= Y's, i.e. X's diagonal bits are a
// superset of Y's, and the order survives for every word iff the "up" probability never
// decreases when a diagonal bit is set. Setting bit k multiplies w_up / w_down by
// (c / w_k)^2 (six_vertex_local.hpp), so the chain is monotone iff c >= a and c >= b, the
// condition stated in the GPU tilings paper (Keating & Sridhar). Rounding the probabilities to
// 32-bit thresholds is monotone, so the integer tables inherit the property; the tables are
// checked directly as well.
#include <string>

#include "portamc/tilings/six_vertex/detail/six_vertex_local.hpp"

namespace portamc::tilings {

struct SixVertexWeights {
  double a = 1;
  double b = 1;
  double c = 1;
};

/// Throws std::invalid_argument naming any weight that is not a positive finite number.
void validate_six_vertex_weights(const SixVertexWeights& weights);
double vertex_weight(const SixVertexWeights& weights, VertexType type);

/// c >= max(a, b): the heat-bath chain preserves the height order (CFTP applies).
bool is_monotone(const SixVertexWeights& weights);
/// Throws std::invalid_argument explaining the condition when !is_monotone(weights).
void require_monotone(const SixVertexWeights& weights, const std::string& what);

/// Probability that the heat-bath move sets a flippable face to the higher value, given the
/// diagonal bits (six_vertex_local.hpp).
double heat_bath_up_probability(const SixVertexWeights& weights, int diagonal_bits);
/// probability_threshold (glauber_weights.hpp) of each entry: p rounded to a multiple of 2^-32.
HeatBathTable heat_bath_thresholds(const SixVertexWeights& weights);
/// Every entry equal: the update does not read the diagonal neighbours (a = b = c), so the
/// 2-class checkerboard is a valid colouring.
bool is_diagonal_free(const HeatBathTable& table);
/// The thresholds never decrease when a diagonal bit is set.
bool is_monotone(const HeatBathTable& table);

}  // namespace portamc::tilings

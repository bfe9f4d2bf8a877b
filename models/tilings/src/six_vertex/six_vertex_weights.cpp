#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "portamc/tilings/engine/glauber_weights.hpp"

namespace portamc::tilings {

namespace {

void require_positive_weight(double w, const char* name) {
  if (!(w > 0) || !std::isfinite(w)) {
    throw std::invalid_argument(std::string("six-vertex weight ") + name + " = " +
                                std::to_string(w) + ": weights must be finite and positive");
  }
}

// Weight of the a or b vertex at corner bit k of a face: NW and SE corners see the face and
// their diagonal along NW-SE (a), NE and SW corners along NE-SW (b).
double corner_weight(const SixVertexWeights& w, int bit) {
  return bit == diagonal_nw || bit == diagonal_se ? w.a : w.b;
}

}  // namespace

void validate_six_vertex_weights(const SixVertexWeights& weights) {
  require_positive_weight(weights.a, "a");
  require_positive_weight(weights.b, "b");
  require_positive_weight(weights.c, "c");
}

double vertex_weight(const SixVertexWeights& weights, VertexType type) {
  switch (type) {
    case VertexType::a1:
    case VertexType::a2:
      return weights.a;
    case VertexType::b1:
    case VertexType::b2:
      return weights.b;
    default:
      return weights.c;
  }
}

bool is_monotone(const SixVertexWeights& weights) {
  return weights.c >= weights.a && weights.c >= weights.b;
}

void require_monotone(const SixVertexWeights& weights, const std::string& what) {
  validate_six_vertex_weights(weights);
  if (!is_monotone(weights)) {
    throw std::invalid_argument(
        what + ": the heat-bath dynamics is monotone only for c >= max(a, b), but a = " +
        std::to_string(weights.a) + ", b = " + std::to_string(weights.b) +
        ", c = " + std::to_string(weights.c) +
        " (coupled top and bottom chains could cross, so coupling from the past would not be "
        "exact; use forward Glauber dynamics for these weights)");
  }
}

double heat_bath_up_probability(const SixVertexWeights& weights, int diagonal_bits) {
  double up = 1, down = 1;
  for (int bit = 1; bit < heat_bath_table_size; bit <<= 1) {
    const double w = corner_weight(weights, bit);
    const bool high = (diagonal_bits & bit) != 0;
    up *= high ? weights.c : w;
    down *= high ? w : weights.c;
  }
  return up / (up + down);
}

HeatBathTable heat_bath_thresholds(const SixVertexWeights& weights) {
  validate_six_vertex_weights(weights);
  HeatBathTable table{};
  for (int bits = 0; bits < heat_bath_table_size; ++bits) {
    table[bits] = probability_threshold(heat_bath_up_probability(weights, bits));
  }
  return table;
}

bool is_diagonal_free(const HeatBathTable& table) {
  for (int bits = 1; bits < heat_bath_table_size; ++bits) {
    if (table[bits] != table[0]) return false;
  }
  return true;
}

bool is_monotone(const HeatBathTable& table) {
  for (int bits = 0; bits < heat_bath_table_size; ++bits) {
    for (int bit = 1; bit < heat_bath_table_size; bit <<= 1) {
      if ((bits & bit) == 0 && table[bits | bit] < table[bits]) return false;
    }
  }
  return true;
}

}  // namespace portamc::tilings

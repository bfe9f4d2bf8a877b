#include "portamc/tilings/engine/glauber_weights.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace portamc::tilings {
namespace {

void require_positive(double w, const std::string& what) {
  if (!(w > 0) || !std::isfinite(w)) {
    throw std::invalid_argument(what + " is " + std::to_string(w) +
                                "; weights must be finite and positive");
  }
}

}  // namespace

std::uint64_t probability_threshold(double p) {
  if (!(p >= 0 && p <= 1)) {
    throw std::invalid_argument("probability_threshold: " + std::to_string(p) +
                                " is not in [0, 1]");
  }
  return static_cast<std::uint64_t>(std::llround(std::ldexp(p, 32)));
}

std::array<std::uint64_t, 2> move_thresholds(double ratio, UpdateRule rule) {
  require_positive(ratio, "move_thresholds: weight ratio");
  if (rule == UpdateRule::heat_bath) {
    const std::uint64_t t = probability_threshold(1.0 / (1.0 + 1.0 / ratio));
    return {t, t};
  }
  const double flip_from_a = 0.5 * std::min(1.0, ratio);
  const double flip_from_b = 0.5 * std::min(1.0, 1.0 / ratio);
  return {probability_threshold(flip_from_a),
          probability_threshold(flip_from_b) | threshold_inverted};
}

DominoWeights DominoWeights::vertical_horizontal(double vertical, double horizontal) {
  DominoWeights w;
  w.vertical = {vertical};
  w.horizontal = {horizontal};
  return w;
}

DominoWeights DominoWeights::two_periodic(double a, double b) {
  DominoWeights w;
  w.period_rows = w.period_cols = 2;
  w.horizontal.assign(4, 0.0);
  w.vertical.assign(4, 0.0);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      // Horizontal domino: middle edge from (r, c+1) to (r+1, c+1); its even end has row r when
      // r + c + 1 is even. Vertical domino: middle edge from (r+1, c) to (r+1, c+1), row r + 1.
      const int even_row_h = ((r + c + 1) % 2 == 0) ? r : r + 1;
      w.horizontal[2 * r + c] = even_row_h % 2 == 0 ? a : b;
      w.vertical[2 * r + c] = (r + 1) % 2 == 0 ? a : b;
    }
  }
  return w;
}

void validate(const DominoWeights& weights) {
  if (weights.period_rows < 1 || weights.period_cols < 1) {
    throw std::invalid_argument("domino weights: period " + std::to_string(weights.period_rows) +
                                " x " + std::to_string(weights.period_cols) +
                                " must be at least 1 x 1");
  }
  const std::size_t n =
      static_cast<std::size_t>(weights.period_rows) * static_cast<std::size_t>(weights.period_cols);
  if (weights.horizontal.size() != n || weights.vertical.size() != n) {
    throw std::invalid_argument("domino weights: the horizontal and vertical tables have " +
                                std::to_string(weights.horizontal.size()) + " and " +
                                std::to_string(weights.vertical.size()) +
                                " entries; the period needs " + std::to_string(n));
  }
  for (std::size_t k = 0; k < n; ++k) {
    const std::string at = " domino weight at period cell (" +
                           std::to_string(k / weights.period_cols) + ", " +
                           std::to_string(k % weights.period_cols) + ")";
    require_positive(weights.horizontal[k], "domino weights: horizontal" + at);
    require_positive(weights.vertical[k], "domino weights: vertical" + at);
  }
}

double domino_tiling_weight(const DominoWeights& weights, const DominoTiling& tiling) {
  validate(weights);
  double w = 1.0;
  for (int r = 0; r < tiling.rows; ++r) {
    for (int c = 0; c < tiling.cols; ++c) {
      const std::uint8_t d = tiling.at(r, c);  // count each domino once, at its west/north face
      if (d == direction::east) w *= weights.horizontal_at(r, c);
      if (d == direction::south) w *= weights.vertical_at(r, c);
    }
  }
  return w;
}

std::vector<std::uint64_t> domino_move_thresholds(const DominoWeights& weights, UpdateRule rule) {
  validate(weights);
  const int p = weights.period_rows, q = weights.period_cols;
  std::vector<std::uint64_t> out(static_cast<std::size_t>(2 * p * q));
  for (int i = 0; i < p; ++i) {
    for (int j = 0; j < q; ++j) {
      // Vertex (i, j) with i, j >= 1 in the domain; shift by a period so that the faces
      // (i-1, j-1) .. have non-negative coordinates with the same residues.
      const int r = i + p - 1, c = j + q - 1;
      const double vertical_pair = weights.vertical_at(r, c) * weights.vertical_at(r, c + 1);
      const double horizontal_pair = weights.horizontal_at(r, c) * weights.horizontal_at(r + 1, c);
      const auto t = move_thresholds(vertical_pair / horizontal_pair, rule);
      out[static_cast<std::size_t>(2 * (i * q + j))] = t[0];
      out[static_cast<std::size_t>(2 * (i * q + j) + 1)] = t[1];
    }
  }
  return out;
}

void validate(const LozengeWeights& weights) {
  require_positive(weights.q, "lozenge weights: the volume weight q");
}

std::vector<std::uint64_t> lozenge_move_thresholds(const LozengeWeights& weights, UpdateRule rule) {
  validate(weights);
  const auto t = move_thresholds(weights.q, rule);
  return {t[0], t[1]};
}

}  // namespace portamc::tilings

// Double-peak analysis of first-order transitions; see the header.
#include "portamc/muca/first_order.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::muca {

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

struct Halves {
  int left_peak = -1, right_peak = -1;
  double left_max = kMinusInfinity, right_max = kMinusInfinity;
};

// ln P(E) - const at beta, -inf where g is empty.
std::vector<double> log_p(const std::vector<double>& energy, const std::vector<double>& log_g,
                          double beta) {
  std::vector<double> p(energy.size(), kMinusInfinity);
  for (std::size_t k = 0; k < energy.size(); ++k)
    if (std::isfinite(log_g[k])) p[k] = log_g[k] - beta * energy[k];
  return p;
}

// Maxima of ln P on [0, split] and (split, n).
Halves halves(const std::vector<double>& p, int split) {
  Halves h;
  for (int k = 0; k < static_cast<int>(p.size()); ++k) {
    if (k <= split && p[k] > h.left_max) h.left_max = p[k], h.left_peak = k;
    if (k > split && p[k] > h.right_max) h.right_max = p[k], h.right_peak = k;
  }
  return h;
}

// The lowest occupied point of ln P strictly between the two peaks (their left one if none).
int valley_between(const std::vector<double>& p, int a, int b) {
  int at = a;
  double lowest = std::numeric_limits<double>::infinity();
  for (int k = a + 1; k < b; ++k)
    if (std::isfinite(p[k]) && p[k] < lowest) lowest = p[k], at = k;
  return at;
}

// beta with equal maxima on both sides of `split`: the left (low-energy) side gains weight
// as beta grows, so left_max - right_max increases with beta.
double equal_height_beta(const std::vector<double>& energy, const std::vector<double>& log_g,
                         int split, double lo, double hi) {
  const auto difference = [&](double beta) {
    const Halves h = halves(log_p(energy, log_g, beta), split);
    return h.left_max - h.right_max;
  };
  if (!(difference(lo) < 0 && difference(hi) > 0))
    throw std::invalid_argument(
        "double peak: the two phases do not reach equal height for beta in [" + std::to_string(lo) +
        ", " + std::to_string(hi) + "]: no first-order double peak there");
  for (int iteration = 0; iteration < 200 && hi - lo > 1e-15 * std::max(1.0, std::fabs(hi));
       ++iteration) {
    const double mid = 0.5 * (lo + hi);
    (difference(mid) < 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// P-weighted mean energy over [first, last].
double mean_energy(const std::vector<double>& energy, const std::vector<double>& p, double top,
                   int first, int last) {
  double weight = 0, sum = 0;
  for (int k = first; k <= last; ++k) {
    if (!std::isfinite(p[k])) continue;
    const double w = std::exp(p[k] - top);
    weight += w;
    sum += w * energy[k];
  }
  return sum / weight;
}

}  // namespace

DoublePeak double_peak(const std::vector<double>& energy, const std::vector<double>& log_g, int L,
                       int dimension, double beta_lo, double beta_hi) {
  const int n = static_cast<int>(energy.size());
  if (log_g.size() != energy.size())
    throw std::invalid_argument("double peak: energies and ln g differ in length");
  if (!std::is_sorted(energy.begin(), energy.end()) ||
      std::adjacent_find(energy.begin(), energy.end()) != energy.end())
    throw std::invalid_argument("double peak: energies must be strictly increasing");
  if (std::count_if(log_g.begin(), log_g.end(), [](double v) { return std::isfinite(v); }) < 3)
    throw std::invalid_argument("double peak: fewer than three occupied energies");
  if (!(beta_lo < beta_hi)) throw std::invalid_argument("double peak: beta_lo must be < beta_hi");
  // Start from the middle of the energy range; move the split to the valley until it stays.
  int split = static_cast<int>(
      std::lower_bound(energy.begin(), energy.end(), 0.5 * (energy.front() + energy.back())) -
      energy.begin());
  split = std::clamp(split, 0, n - 2);
  std::set<int> seen;
  double beta = 0;
  while (seen.insert(split).second) {
    beta = equal_height_beta(energy, log_g, split, beta_lo, beta_hi);
    const std::vector<double> p = log_p(energy, log_g, beta);
    const Halves h = halves(p, split);
    split = std::min(valley_between(p, h.left_peak, h.right_peak), n - 2);
  }
  // The loop ends on a split seen before, which need not be the one beta was last found for
  // (a cycle of splits): beta of the final split.
  beta = equal_height_beta(energy, log_g, split, beta_lo, beta_hi);
  DoublePeak d;
  d.beta_eq = beta;
  d.valley = split;
  const std::vector<double> p = log_p(energy, log_g, beta);
  const Halves h = halves(p, split);
  // A single peak also has a beta where its halves' maxima are equal: at its top, with the
  // split beside it. Two phases have a valley strictly between their peaks.
  if (!(h.left_peak < split && split < h.right_peak))
    throw std::invalid_argument(
        "double peak: at the equal-height beta " + std::to_string(beta) +
        " there is no valley between the two maxima: one phase, no first-order double peak");
  const double top = std::max(h.left_max, h.right_max);
  d.energy_ordered = mean_energy(energy, p, top, 0, split);
  d.energy_disordered = mean_energy(energy, p, top, split + 1, n - 1);
  double sites = 1, area = 1;
  for (int k = 0; k < dimension; ++k) sites *= L;
  for (int k = 0; k < dimension - 1; ++k) area *= L;
  d.latent_heat_per_site = (d.energy_disordered - d.energy_ordered) / sites;
  d.log_peak_to_valley = top - p[split];
  d.interface_tension = d.log_peak_to_valley / (2 * area);
  return d;
}

std::vector<double> double_peak_values(const DoublePeak& d) {
  return {d.beta_eq,
          d.energy_ordered,
          d.energy_disordered,
          d.latent_heat_per_site,
          d.log_peak_to_valley,
          d.interface_tension};
}

InverseSizeFit fit_inverse_size(const std::vector<int>& sizes, const std::vector<double>& y,
                                const std::vector<double>& errors) {
  if (sizes.size() != y.size() || sizes.size() != errors.size())
    throw std::invalid_argument("1/L fit: sizes, values and errors differ in length");
  if (std::set<int>(sizes.begin(), sizes.end()).size() < 2)
    throw std::invalid_argument("1/L fit: needs at least two distinct sizes");
  // Normal equations of y = c + s x, x = 1/L, weights 1/error^2.
  double w = 0, wx = 0, wxx = 0, wy = 0, wxy = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!(errors[i] > 0) || sizes[i] <= 0)
      throw std::invalid_argument("1/L fit: sizes and errors must be positive");
    const double x = 1.0 / sizes[i], v = 1.0 / (errors[i] * errors[i]);
    w += v, wx += v * x, wxx += v * x * x, wy += v * y[i], wxy += v * x * y[i];
  }
  const double det = w * wxx - wx * wx;
  InverseSizeFit f;
  f.intercept = (wxx * wy - wx * wxy) / det;
  f.slope = (w * wxy - wx * wy) / det;
  f.intercept_error = std::sqrt(wxx / det);
  f.slope_error = std::sqrt(w / det);
  double chi2 = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double r = (y[i] - f.intercept - f.slope / sizes[i]) / errors[i];
    chi2 += r * r;
  }
  const auto dof = static_cast<double>(y.size()) - 2;
  f.chi2_per_dof = dof > 0 ? chi2 / dof : std::numeric_limits<double>::quiet_NaN();
  return f;
}

}  // namespace portamc::muca

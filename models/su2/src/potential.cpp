#include "portamc/su2/potential.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace portamc::su2 {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

[[noreturn]] void fail(const std::string& message) {
  throw std::invalid_argument("static potential analysis: " + message);
}

std::string format(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// Index of W(R,T) in one measurement (R, T from 1).
struct Layout {
  int r_max, t_max;
  std::size_t at(int r, int t) const {
    return static_cast<std::size_t>(r - 1) * t_max + static_cast<std::size_t>(t - 1);
  }
};

void check_samples(const WilsonLoopSamples& loops) {
  if (loops.r_max < 1) fail("r_max must be at least 1, got " + std::to_string(loops.r_max));
  if (loops.t_max < 2) {
    fail("t_max must be at least 2 (V_T needs W(R,T) and W(R,T+1)), got " +
         std::to_string(loops.t_max));
  }
  const std::size_t expected = static_cast<std::size_t>(loops.r_max) * loops.t_max;
  for (std::size_t m = 0; m < loops.samples.size(); ++m) {
    const auto& sample = loops.samples[m];
    if (sample.size() != expected) {
      fail("measurement " + std::to_string(m) + " has " + std::to_string(sample.size()) +
           " Wilson loops, expected r_max*t_max = " + std::to_string(expected));
    }
    for (std::size_t k = 0; k < sample.size(); ++k) {
      if (!std::isfinite(sample[k])) {
        fail("measurement " + std::to_string(m) +
             " has a non-finite W(R=" + std::to_string(k / loops.t_max + 1) +
             ",T=" + std::to_string(k % loops.t_max + 1) + ")");
      }
    }
  }
}

// Sums of W over consecutive blocks of block_size measurements; the jackknife only needs ratios
// of loops, which are the same for sums and means.
std::vector<std::vector<double>> block_sums(const WilsonLoopSamples& loops, std::size_t block_size,
                                            std::size_t blocks) {
  const std::size_t n = loops.samples.front().size();
  std::vector<std::vector<double>> sums(blocks, std::vector<double>(n, 0.0));
  for (std::size_t b = 0; b < blocks; ++b) {
    for (std::size_t m = b * block_size; m < (b + 1) * block_size; ++m) {
      for (std::size_t k = 0; k < n; ++k) sums[b][k] += loops.samples[m][k];
    }
  }
  return sums;
}

double effective_mass(const std::vector<double>& w, const Layout& layout, int r, int t) {
  const double now = w[layout.at(r, t)];
  const double next = w[layout.at(r, t + 1)];
  return (now > 0.0 && next > 0.0) ? std::log(now / next) : kNaN;
}

struct FitParameters {
  double v0, alpha, sigma, chi2;
};

// Weighted linear least squares for V(R) = V0 - alpha/R + sigma R via the 3x3 normal equations,
// solved by Gaussian elimination with partial pivoting (the basis 1, -1/R, R is well conditioned
// for the R ranges of a lattice). Returns NaNs if a value is not finite.
FitParameters fit_cornell(const std::vector<int>& r, const std::vector<double>& v,
                          const std::vector<double>& weight) {
  std::array<std::array<double, 4>, 3> a{};  // augmented matrix [A | b]
  for (std::size_t i = 0; i < r.size(); ++i) {
    const std::array<double, 3> phi = {1.0, -1.0 / r[i], static_cast<double>(r[i])};
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 3; ++k) a[j][k] += weight[i] * phi[j] * phi[k];
      a[j][3] += weight[i] * phi[j] * v[i];
    }
  }
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int row = col + 1; row < 3; ++row) {
      if (std::abs(a[row][col]) > std::abs(a[pivot][col])) pivot = row;
    }
    std::swap(a[col], a[pivot]);
    for (int row = col + 1; row < 3; ++row) {
      const double factor = a[row][col] / a[col][col];
      for (int k = col; k < 4; ++k) a[row][k] -= factor * a[col][k];
    }
  }
  std::array<double, 3> p{};
  for (int row = 2; row >= 0; --row) {
    double rest = a[row][3];
    for (int k = row + 1; k < 3; ++k) rest -= a[row][k] * p[k];
    p[row] = rest / a[row][row];
  }
  double chi2 = 0.0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const double residual = v[i] - cornell_potential(r[i], p[0], p[1], p[2]);
    chi2 += weight[i] * residual * residual;
  }
  return {p[0], p[1], p[2], chi2};
}

struct Plan {
  Layout layout;
  int fit_r_min, fit_r_max;
  std::vector<int> plateau_t;  // per R (index R-1): the full-data choice
  std::vector<double> weight;  // per fit point
  const PotentialOptions* options;
  // Automatic plateau: per R, the full-data jackknife errors of V_T - V_{T+1} (T = 1..), the
  // scale against which every jackknife sample makes its own choice of T (empty: T fixed).
  std::vector<std::vector<double>> difference_error;
  // Automatic plateau with weights: per R, the full-data jackknife errors of V_T, so that the
  // fit point of a sample is weighted by the error of the T that sample chose.
  std::vector<std::vector<double>> mass_error;
};

// The plateau rule: the smallest T whose V_T agrees with V_{T+1} within `tolerance` times the
// error of their difference, else the last T with a finite V_T (not found). `mass(T)` gives V_T
// for T = 1..n_t; `difference_error[T-1]` the error of V_T - V_{T+1}.
template <class Mass>
std::pair<int, bool> plateau_rule(int n_t, Mass&& mass, const std::vector<double>& difference_error,
                                  double tolerance) {
  int chosen = 1;
  for (int t = 1; t <= n_t; ++t) {
    const double v = mass(t);
    if (!std::isfinite(v)) break;
    chosen = t;
    if (t == n_t) break;
    const double next = mass(t + 1);
    if (!std::isfinite(next) || !std::isfinite(difference_error[t - 1])) break;
    if (std::abs(v - next) <= tolerance * difference_error[t - 1]) return {chosen, true};
  }
  return {chosen, false};
}

// The plateau T of radius R in one data set `w`: the rule above, applied to this data set's
// effective masses with the full-data errors of their differences. Re-made in every jackknife
// sample, so that the errors of V0, alpha and sigma include how much the choice itself moves.
// Frozen at its full-data value it did not: over 48 seeds of an 8^3 x 12 run the scatter of
// sigma was 1.5 times its error, and within the errors with the choice re-made
// (docs/statistics.md, "Paper sizes on one H200").
int plateau_in_sample(const std::vector<double>& w, const Plan& plan, int radius) {
  return plateau_rule(
             plan.layout.t_max - 1,
             [&](int t) { return effective_mass(w, plan.layout, radius, t); },
             plan.difference_error[radius - 1], plan.options->plateau_tolerance)
      .first;
}

// Everything the second jackknife pass derives from one (summed) data set: V0, alpha, sigma,
// chi2/dof, lattice spacing, r0.
std::vector<double> fit_estimator(const std::vector<double>& w, const Plan& plan) {
  std::vector<int> r;
  std::vector<double> v, weight = plan.weight;
  for (int radius = plan.fit_r_min; radius <= plan.fit_r_max; ++radius) {
    r.push_back(radius);
    const int t = plan.difference_error.empty() ? plan.plateau_t[radius - 1]
                                                : plateau_in_sample(w, plan, radius);
    v.push_back(effective_mass(w, plan.layout, radius, t));
    if (!plan.mass_error.empty()) {
      const double e = plan.mass_error[radius - 1][t - 1];
      weight[r.size() - 1] = 1.0 / (e * e);
    }
  }
  const bool finite = std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
  if (!finite) return std::vector<double>(6, kNaN);
  const FitParameters fit = fit_cornell(r, v, weight);
  const int dof = static_cast<int>(r.size()) - 3;
  const double chi2_per_dof = dof > 0 ? fit.chi2 / dof : kNaN;
  const PotentialOptions& o = *plan.options;
  const double spacing =
      fit.sigma > 0.0 ? std::sqrt(fit.sigma) * kHbarCMeVFm / o.sqrt_sigma_mev : kNaN;
  const double r0_squared = fit.sigma > 0.0 ? (o.sommer_c - fit.alpha) / fit.sigma : kNaN;
  const double r0 = r0_squared > 0.0 ? std::sqrt(r0_squared) : kNaN;
  return {fit.v0, fit.alpha, fit.sigma, chi2_per_dof, spacing, r0};
}

void check_options(const PotentialOptions& o, int r_max, int t_max) {
  if (o.plateau_t != 0 && (o.plateau_t < 1 || o.plateau_t > t_max - 1)) {
    fail("plateau_t = " + std::to_string(o.plateau_t) + " is outside 1..t_max-1 = 1.." +
         std::to_string(t_max - 1) + " (0 chooses the plateau automatically)");
  }
  if (!(o.plateau_tolerance > 0.0) || !std::isfinite(o.plateau_tolerance)) {
    fail("plateau_tolerance must be positive, got " + format(o.plateau_tolerance));
  }
  const int fit_r_max = o.fit_r_max == 0 ? r_max : o.fit_r_max;
  if (o.fit_r_min < 1 || fit_r_max > r_max || o.fit_r_min > fit_r_max) {
    fail("fit range R = " + std::to_string(o.fit_r_min) + ".." + std::to_string(fit_r_max) +
         " is not inside 1..r_max = 1.." + std::to_string(r_max));
  }
  if (fit_r_max - o.fit_r_min + 1 < 3) {
    fail("the fit V(R) = V0 - alpha/R + sigma R has 3 parameters but the fit range R = " +
         std::to_string(o.fit_r_min) + ".." + std::to_string(fit_r_max) + " has only " +
         std::to_string(fit_r_max - o.fit_r_min + 1) + " point(s)");
  }
  if (!(o.sqrt_sigma_mev > 0.0) || !std::isfinite(o.sqrt_sigma_mev)) {
    fail("sqrt_sigma_mev must be positive, got " + format(o.sqrt_sigma_mev));
  }
  if (!(o.sommer_c > 0.0) || !std::isfinite(o.sommer_c)) {
    fail("sommer_c must be positive, got " + format(o.sommer_c));
  }
}

// The full-data choice of T for radius r (plateau_rule on the jackknife estimates).
PotentialPoint choose_plateau(int r, const std::vector<stats::JackknifeEstimate>& masses,
                              const std::vector<stats::JackknifeEstimate>& differences,
                              double tolerance) {
  std::vector<double> difference_error;
  for (const auto& d : differences) difference_error.push_back(d.error);
  const auto [t, found] = plateau_rule(
      static_cast<int>(masses.size()), [&](int t) { return masses[t - 1].value; }, difference_error,
      tolerance);
  return {r, t, found, masses[t - 1]};
}

// Says precisely why V(R) in the fit range cannot be used.
void check_fit_point(const PotentialPoint& p, const std::vector<double>& mean, const Layout& layout,
                     std::size_t total) {
  for (int t : {p.plateau_t, p.plateau_t + 1}) {
    const double w = mean[layout.at(p.r, t)] / static_cast<double>(total);
    if (!(w > 0.0)) {
      fail("mean Wilson loop W(R=" + std::to_string(p.r) + ",T=" + std::to_string(t) +
           ") = " + format(w) + " is not positive, so V(R=" + std::to_string(p.r) +
           ") = ln(W(R,T)/W(R,T+1)) at T = " + std::to_string(p.plateau_t) +
           " is undefined; use a smaller plateau T, a smaller fit range, smearing or more "
           "statistics");
    }
  }
  if (!std::isfinite(p.v.error)) {
    fail("V(R=" + std::to_string(p.r) + ") at T = " + std::to_string(p.plateau_t) +
         " has no finite jackknife error: W(R,T) or W(R,T+1) is not positive in some jackknife "
         "sample (the loop is too noisy at this T)");
  }
}

}  // namespace

StaticPotential analyse_static_potential(const WilsonLoopSamples& loops,
                                         const PotentialOptions& options) {
  check_samples(loops);
  check_options(options, loops.r_max, loops.t_max);
  const std::size_t n = loops.samples.size();
  const std::size_t block_size =
      options.block_size != 0 ? options.block_size : std::max<std::size_t>(1, n / 32);
  const std::size_t blocks = n / block_size;
  if (blocks < 2) {
    fail(std::to_string(n) + " measurement(s) in blocks of " + std::to_string(block_size) +
         " give " + std::to_string(blocks) + " block(s); the jackknife needs at least 2");
  }
  const Layout layout{loops.r_max, loops.t_max};
  const auto sums = block_sums(loops, block_size, blocks);
  const int n_t = loops.t_max - 1;  // effective masses per R

  // Pass 1: all effective masses V_T(R) and the differences V_T - V_{T+1} of neighbours.
  const auto masses_and_differences =
      stats::jackknife_with_tau(sums, [&](const std::vector<double>& w) {
        std::vector<double> out;
        for (int r = 1; r <= loops.r_max; ++r) {
          for (int t = 1; t <= n_t; ++t) out.push_back(effective_mass(w, layout, r, t));
          for (int t = 1; t < n_t; ++t) {
            out.push_back(effective_mass(w, layout, r, t) - effective_mass(w, layout, r, t + 1));
          }
        }
        return out;
      });

  StaticPotential result{};
  result.blocks = blocks;
  result.block_size = block_size;
  result.measurements_used = blocks * block_size;
  result.fit_r_min = options.fit_r_min;
  result.fit_r_max = options.fit_r_max == 0 ? loops.r_max : options.fit_r_max;
  const std::size_t per_r = static_cast<std::size_t>(n_t) + (n_t - 1);
  std::vector<std::vector<double>> difference_errors, mass_errors;  // per R
  for (int r = 1; r <= loops.r_max; ++r) {
    const auto first = masses_and_differences.begin() + (r - 1) * per_r;
    std::vector<stats::JackknifeEstimate> masses(first, first + n_t);
    std::vector<stats::JackknifeEstimate> differences(first + n_t, first + per_r);
    PotentialPoint point;
    if (options.plateau_t != 0) {
      point = {r, options.plateau_t, true, masses[options.plateau_t - 1]};
    } else {
      point = choose_plateau(r, masses, differences, options.plateau_tolerance);
    }
    result.effective_mass.push_back(std::move(masses));
    result.potential.push_back(point);
    std::vector<double> difference_error, mass_error;
    for (const auto& d : differences) difference_error.push_back(d.error);
    for (const auto& m : result.effective_mass.back()) mass_error.push_back(m.error);
    difference_errors.push_back(std::move(difference_error));
    mass_errors.push_back(std::move(mass_error));
  }

  // Pass 2: the fit, with the weights frozen at their full-data values and, with the automatic
  // plateau, T(R) chosen again in every jackknife sample (plateau_in_sample).
  std::vector<double> mean_sum(sums.front().size(), 0.0);
  for (const auto& block : sums) {
    for (std::size_t k = 0; k < block.size(); ++k) mean_sum[k] += block[k];
  }
  Plan plan{layout, result.fit_r_min, result.fit_r_max, {}, {}, &options, {}, {}};
  if (options.plateau_t == 0) plan.difference_error = std::move(difference_errors);
  bool any_zero_error = false;
  for (const PotentialPoint& p : result.potential) {
    plan.plateau_t.push_back(p.plateau_t);
    if (p.r < result.fit_r_min || p.r > result.fit_r_max) continue;
    check_fit_point(p, mean_sum, layout, result.measurements_used);
    // An error at rounding level means the input had no noise (tests, cold configurations).
    any_zero_error = any_zero_error || p.v.error <= 1e-12 * std::max(1.0, std::abs(p.v.value));
    plan.weight.push_back(1.0 / (p.v.error * p.v.error));
  }
  // Weights 1/err^2 of noise-free data would be arbitrary huge numbers; use equal weights.
  result.weighted = !any_zero_error;
  if (any_zero_error) std::fill(plan.weight.begin(), plan.weight.end(), 1.0);
  if (options.plateau_t == 0 && result.weighted) plan.mass_error = std::move(mass_errors);
  result.degrees_of_freedom = result.fit_r_max - result.fit_r_min + 1 - 3;

  const auto fit = stats::jackknife_with_tau(
      sums, [&plan](const std::vector<double>& w) { return fit_estimator(w, plan); });
  result.v0 = fit[0];
  result.alpha = fit[1];
  result.sigma = fit[2];
  result.chi2_per_dof = fit[3];
  result.spacing_fm = fit[4];
  result.sommer_r0 = fit[5];
  result.sommer_r0_in_fit_range = std::isfinite(fit[5].value) && fit[5].value >= result.fit_r_min &&
                                  fit[5].value <= result.fit_r_max;
  return result;
}

}  // namespace portamc::su2

#pragma once
// First-order transitions from a density of states (issue #26): the canonical energy
// distribution P_beta(E) ~ g(E) exp(-beta E) of a finite system at a first-order transition
// has two peaks (the ordered and the disordered phase) with a valley between them, the mixed
// states of two coexisting phases separated by two interfaces (periodic boundaries).
//   - beta_eq: the beta at which both peaks are equally high (Janke's pseudo-transition point;
//     it approaches beta_c as 1/L^d).
//   - latent heat per site: the distance of the two phases' mean energies at beta_eq, / N.
//   - interface tension: sigma_L = ln(P_max / P_min) / (2 L^(d-1)) at beta_eq (two interfaces of
//     L^(d-1) sites each; Binder's estimator), extrapolated in 1/L: sigma_L = sigma + a / L.
// Errors come from the caller's jackknife over production blocks (statistics.hpp's
// jackknife_with_tau with double_peak_values as the estimator). Host-only.
#include <vector>

namespace portamc::muca {

struct DoublePeak {
  double beta_eq = 0;
  double energy_ordered = 0;     ///< mean energy of the low-energy peak's half, at beta_eq
  double energy_disordered = 0;  ///< mean energy of the high-energy half
  double latent_heat_per_site = 0;
  double log_peak_to_valley = 0;  ///< ln(P_max / P_min) at beta_eq
  double interface_tension = 0;   ///< log_peak_to_valley / (2 L^(d-1))
  int valley = 0;                 ///< index of the valley's energy, the split between the phases
};

/// The double peak of ln g over `energy` (ascending; -inf in log_g marks empty bins) for a
/// system of L^dimension sites, with beta_eq searched in [beta_lo, beta_hi] by bisection.
/// The phases are split at the lowest point of ln P between their maxima, found again at each
/// iteration (a noisy estimate of ln g has small local maxima; maxima over halves ignore them).
/// Throws std::invalid_argument for unsorted energies, too few occupied bins, or when the two
/// peaks do not reach equal height inside [beta_lo, beta_hi] (no first-order signal there).
DoublePeak double_peak(const std::vector<double>& energy, const std::vector<double>& log_g, int L,
                       int dimension, double beta_lo, double beta_hi);

/// The estimates of double_peak as one vector, for a jackknife: beta_eq, energy_ordered,
/// energy_disordered, latent_heat_per_site, log_peak_to_valley, interface_tension.
std::vector<double> double_peak_values(const DoublePeak& d);

/// Weighted least squares of y_L = intercept + slope / L, with standard errors from the given
/// errors of y (not rescaled: chi2_per_dof says whether they describe the scatter).
struct InverseSizeFit {
  double intercept = 0, intercept_error = 0;
  double slope = 0, slope_error = 0;
  double chi2_per_dof = 0;  ///< NaN with two sizes (no degree of freedom left)
};
/// Throws std::invalid_argument for fewer than two distinct sizes, mismatched lengths, or a
/// non-positive error.
InverseSizeFit fit_inverse_size(const std::vector<int>& sizes, const std::vector<double>& y,
                                const std::vector<double>& errors);

}  // namespace portamc::muca

// Are reported error bars honest? k independent runs (different seeds) of one estimate give
// k means m_i with errors e_i; if the errors are right, chi^2 = sum_i (m_i - m)^2 / e_i^2
// follows a chi-square law: with k - 1 degrees of freedom around the error-weighted mean, or
// k around a known exact value. Used by every model's calibration test and available to users
// who repeat runs. Errors that are themselves estimates (a jackknife over J samples has about
// J - 1 degrees of freedom) make chi^2 scatter more: then chi^2 / dof follows roughly Fisher's
// F(dof, error_dof), whose wider range calibrate_errors uses when given error_dof. Host-only.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace portamc::stats {

/// Regularised lower incomplete gamma function P(a, x) (a > 0, x >= 0).
double regularized_gamma_p(double a, double x);
/// Q(a, x) = 1 - P(a, x), computed directly where it is small (chi-square p-values).
double regularized_gamma_q(double a, double x);
/// P(chi^2_dof <= x).
double chi_square_cdf(double x, double dof);
/// The x with chi_square_cdf(x, dof) = p, for 0 < p < 1 (bisection to relative 1e-12).
double chi_square_quantile(double p, double dof);
/// Regularised incomplete beta function I_x(a, b) (a, b > 0, 0 <= x <= 1).
double regularized_beta(double a, double b, double x);
/// P(F <= x) for Fisher's F distribution with (d1, d2) degrees of freedom.
double f_cdf(double x, double d1, double d2);
/// The x with f_cdf(x, d1, d2) = p, for 0 < p < 1 (bisection to relative 1e-12).
double f_quantile(double p, double d1, double d2);

struct ErrorCalibration {
  double chi_square = 0;
  int dof = 0;
  double low = 0, high = 0;  ///< the pass range: the tail and 1 - tail quantiles
  double error_dof = 0;      ///< the errors' degrees of freedom; 0: exact errors (chi^2 range)
  double weighted_mean = 0;  ///< the reference when no exact value is given
  bool pass = false;
  std::string summary;  ///< one line with all of the above, for test and log messages
};

/// chi^2 of `means` against their `errors` around `exact` (dof = k) or, without it, around
/// their error-weighted mean (dof = k - 1); passes when it lies within the two-sided range
/// [quantile(tail), quantile(1 - tail)] of chi^2_dof, or with `error_dof` (the degrees of
/// freedom of each error estimate) of dof F(dof, error_dof). Throws std::invalid_argument for
/// fewer than 2 means, mismatched lengths, errors that are not positive and finite, or a
/// non-positive error_dof.
ErrorCalibration calibrate_errors(const std::vector<double>& means,
                                  const std::vector<double>& errors,
                                  std::optional<double> exact = std::nullopt, double tail = 1e-3,
                                  std::optional<double> error_dof = std::nullopt);

}  // namespace portamc::stats

#pragma once
// Weighted least-squares Arrhenius fits of measured mean escape times, the paper's eqs. (12) and
// (13):
//   ArrheniusForm::plain:              ln <tau>          = a + DeltaU / theta,
//   ArrheniusForm::theta_prefactor:    ln (theta <tau>)  = a + DeltaU / theta
// (the paper's "<tau> ~ (1/theta) exp(DeltaU/theta)"; note that none of the Kramers regimes has
// that prefactor: spatial diffusion gives a theta-independent one, energy diffusion
// <tau> ~ theta exp(DeltaU/theta), so eq. (13) is an empirical variant whose slope differs from
// eq. (12)'s by the curvature it absorbs). The fit is linear in x = 1/theta with
// y = ln <tau> (or ln(theta <tau>)) and the standard error of y taken as error / <tau> (first
// order in error / <tau>; the logarithm also shifts y by about -(error/<tau>)^2 / 2, which moves
// a and not DeltaU when the relative errors are alike).
//
// The paper's Fig. 10 plots against 1/D with D = beta theta. Passing D in place of theta gives
// the slope beta DeltaU (the paper's "DeltaU = 0.0342" equals 0.05 * 0.6849, beta DeltaU for
// V0 = 1, gamma = 0.5, beta = 0.05, as well as DeltaU itself for V0 = 0.05) and, for
// theta_prefactor, an intercept larger by ln beta.
//
// Host-only. Throws std::invalid_argument for fewer than two points, inputs of different
// lengths, any theta, <tau> or error that is not finite and positive, or thetas that are all
// equal (no slope to fit).
#include <vector>

namespace portamc::josephson {

enum class ArrheniusForm {
  plain,            ///< eq. (12): ln <tau> = a + DeltaU / theta
  theta_prefactor,  ///< eq. (13): ln (theta <tau>) = a + DeltaU / theta
};

struct ArrheniusFit {
  double barrier = 0.0;        ///< DeltaU, the slope
  double barrier_error = 0.0;  ///< its standard error (from the input errors, not rescaled)
  double intercept = 0.0;      ///< a
  double intercept_error = 0.0;
  double covariance = 0.0;     ///< cov(a, DeltaU)
  double chi_squared = 0.0;    ///< sum of squared normalised residuals
  int degrees_of_freedom = 0;  ///< points - 2
};

// theta[i], mean_time[i] and error[i] (standard error of mean_time[i]) describe point i.
ArrheniusFit fit_arrhenius(const std::vector<double>& theta, const std::vector<double>& mean_time,
                           const std::vector<double>& error, ArrheniusForm form);

}  // namespace portamc::josephson

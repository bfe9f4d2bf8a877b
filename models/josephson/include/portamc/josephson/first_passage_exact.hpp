#pragma once
// Exact mean first-passage time of the one-dimensional overdamped Langevin process
//   dphi = -U'(phi) / beta dt + sqrt(2 theta / beta) dW
// (the first-order limit of the model's equation, beta phi' = -U' + xi with <xi xi'> =
// 2 beta theta delta), from phi(0) = x0 to the first arrival at a threshold b > x0, on a domain
// unbounded below with a natural boundary at -infinity (U -> +infinity there). The backward
// equation (theta/beta) T'' - (U'/beta) T' = -1, T(b) = 0, T'(-inf) = 0 has the solution
// (Pontryagin, Andronov and Vitt, 1933)
//   T(x0, b) = (beta / theta) int_{x0}^{b} dy e^{U(y)/theta} int_{-inf}^{y} dz e^{-U(z)/theta}.
// This is the reference the overdamped simulations are validated against.
//
// Numerics: the exponents reach hundreds of theta, so every panel integral is scaled by a
// reference energy and the result accumulated in logarithms (T itself may exceed the double
// range; log_value stays finite). The domain [lower_limit, b] is cut into panels no wider than
// max_panel_width, which must resolve the narrowest feature of exp(-+U/theta) (a well or saddle
// of curvature k has width sqrt(theta/k)); within a panel the adaptive Gauss–Kronrod quadrature
// (quadrature.hpp) meets the requested relative tolerance. The inner integral is cut at
// lower_limit; the caller guarantees that U(z) - min_{[lower_limit, x0]} U >= truncation_cutoff
// * theta for all z <= lower_limit (checked at z = lower_limit only), which bounds the relative
// truncation error of the inner integral by about exp(-truncation_cutoff) times the ratio of the
// tail's width to the well's.
#include <cstdint>
#include <functional>

namespace portamc::josephson {

struct FirstPassageProblem {
  double start = 0.0;            ///< x0
  double threshold = 0.0;        ///< b > x0
  double beta = 1.0;             ///< damping (friction coefficient), > 0
  double theta = 1.0;            ///< temperature (energy units of U), > 0
  double lower_limit = 0.0;      ///< where the inner integral is cut, < x0 (see above)
  double max_panel_width = 0.1;  ///< > 0, resolves the features of exp(-+U/theta)
};

struct FirstPassageOptions {
  double relative_tolerance = 1e-8;  ///< requested relative accuracy of T
  double truncation_cutoff = 60.0;   ///< in units of theta (see the header comment)
};

struct MeanFirstPassageTime {
  double value = 0.0;      ///< T; +infinity if it exceeds the double range
  double log_value = 0.0;  ///< ln T, finite whenever the integrals are
  // Estimated relative error of T from the quadratures (panel error estimates of the outer
  // integral plus the largest relative error estimate of the inner one); the truncation at
  // lower_limit is not included (it is below exp(-truncation_cutoff) by construction).
  double relative_error_estimate = 0.0;
  double error_estimate = 0.0;  ///< absolute: value * relative_error_estimate
  std::int64_t potential_evaluations = 0;
};

// Generic potential U(phi) (must be finite on [lower_limit, threshold]). Throws
// std::invalid_argument for non-finite or out-of-range parameters (beta, theta, panel width or
// tolerance not positive, threshold <= start, lower_limit >= start, a lower_limit that violates
// the truncation criterion, more than 10^7 panels) and std::runtime_error if a quadrature does
// not converge.
MeanFirstPassageTime mean_first_passage_time(const std::function<double(double)>& potential,
                                             const FirstPassageProblem& problem,
                                             const FirstPassageOptions& options = {});

// The tilted washboard U = -V0 (cos phi + gamma phi). Needs gamma > 0 (at gamma = 0 the wells to
// the left are as deep as the first one and the process is not confined from below); gamma >= 1
// (no barrier) is allowed. The truncation point follows from the envelope U >= -V0 (1 + gamma
// phi), the panel width from the largest curvature V0: 0.5 sqrt(theta / V0), at most 0.5.
// Typical use: start = well_bottom(gamma), threshold = default_escape_threshold(gamma).
MeanFirstPassageTime washboard_mean_first_passage_time(double v0, double gamma, double beta,
                                                       double theta, double start, double threshold,
                                                       const FirstPassageOptions& options = {});

}  // namespace portamc::josephson

#pragma once
// Adaptive Gauss–Kronrod quadrature (10-point Gauss / 21-point Kronrod pair, as QUADPACK's QAG
// with key 2) for the host-side theory of the josephson model: the barrier-orbit action, the
// Mel'nikov–Meshkov depopulation factor, the Pontryagin mean first-passage time and the
// Fulton–Dunkleberger escape exponent. Written here rather than taken from a library so that the
// model has no numerical dependency beyond the C++ standard library.
//
// The interval with the largest error estimate is bisected until the summed estimate meets
// max(absolute_tolerance, relative_tolerance * |value|). The estimate of one panel is QUADPACK's
// (|K21 - G10| rescaled by the integrand's variation, never below 50 machine epsilons of
// int |f|), which is pessimistic for smooth integrands: the true error is usually far smaller.
//
// Like every quadrature rule this one only sees the integrand at its nodes: a peak much narrower
// than the interval can be missed entirely. Callers with narrow features split the interval
// themselves (integrate over consecutive breakpoints and add).
#include <functional>

namespace portamc::josephson {

struct QuadratureOptions {
  double relative_tolerance = 1e-10;
  double absolute_tolerance = 0.0;
  int max_subdivisions = 2000;  ///< number of panels at which the bisection gives up
};

struct QuadratureResult {
  double value = 0.0;
  double error_estimate = 0.0;  ///< estimated absolute error of value
  int evaluations = 0;          ///< calls of the integrand
  bool converged = false;       ///< whether error_estimate met the requested tolerance
};

// Integral of f over [a, b] (a > b gives minus the integral over [b, a]). The nodes are interior,
// so integrable endpoint singularities are allowed (until a panel is so small, below ~1e-13 of
// |a| or |b|, that a node rounds onto the endpoint). Throws std::invalid_argument for
// non-finite limits or tolerances that are negative, non-finite or both zero, and
// std::domain_error if f returns a non-finite value (named with the abscissa). Reports
// non-convergence through QuadratureResult::converged; callers decide whether that is an error.
QuadratureResult adaptive_integral(const std::function<double(double)>& f, double a, double b,
                                   const QuadratureOptions& options = {});

// The same, but throws std::runtime_error naming `what` when the tolerance is not reached.
QuadratureResult adaptive_integral_or_throw(const std::function<double(double)>& f, double a,
                                            double b, const QuadratureOptions& options,
                                            const char* what);

}  // namespace portamc::josephson

#pragma once
// Fulton–Dunkleberger (T. A. Fulton and L. N. Dunkleberger, Phys. Rev. B 9, 4760 (1974))
// distribution of the switching current under a linear bias ramp gamma(t) = gamma0 + nu t
// (normalised time, nu = dgamma/dt > 0). In the adiabatic approximation the junction escapes
// with the instantaneous rate r(gamma) of the fixed-bias problem, so
//   S(gamma) = exp(-H(gamma)),  H(gamma) = (1/nu) int_{gamma0}^{gamma} r(gamma') dgamma',
//   CDF = 1 - S,  density P(gamma) = r(gamma) S(gamma) / nu,
// for gamma0 <= gamma < 1. It is valid when the well re-equilibrates (in a time of order 1/beta
// underdamped, beta / omega0^2 overdamped) while the bias changes the rate little.
//
// At gamma = 1 the well disappears and the particle runs away whatever the noise, so the
// switching current is at most 1: S(gamma) = 0 for gamma >= 1 and the probability S(1^-) that
// survives to the end of the ramp sits as a point mass at gamma = 1 (the density does not show
// it; the moments include it). The Kramers-type rates (kramers.hpp) lose their validity before
// that, once DeltaU(gamma) ~ theta, where they still return finite values that go to zero with
// omega0; for slow ramps S has long reached zero there and the point mass is negligible, which
// switching_moments reports through probability_at_critical_current.
//
// Numerics: adaptive Gauss–Kronrod quadrature (quadrature.hpp) of the rate, relative accuracy
// about 1e-11 in H, on pieces that end at 1 - 10^-k so that the (1 - gamma)^(1/4) behaviour of
// the washboard rates at the critical current costs little. Within 1e-5 of gamma = 1 the bias
// itself carries a relative rounding of 1e-16 / (1 - gamma) and the tolerance is relaxed
// accordingly; the last 1e-12 gets a single 21-point panel (absolute errors of order
// r * 1e-13 / nu in H). The rate callable is only evaluated inside (gamma0, 1). Every function
// throws std::invalid_argument for a ramp with gamma0 outside [0, 1) or nu not finite and positive,
// and for a rate that is negative or not finite.
#include <functional>
#include <vector>

#include "portamc/josephson/kramers.hpp"

namespace portamc::josephson {

struct LinearRamp {
  double gamma0 = 0.0;  ///< bias at t = 0, in [0, 1)
  double nu = 0.0;      ///< dgamma / dt in inverse normalised time, > 0
};

// Escape rate as a function of the bias, in inverse normalised time.
using BiasDependentRate = std::function<double(double gamma)>;

// The rate of kramers.hpp at fixed V0, beta, theta (validated here, once).
BiasDependentRate washboard_rate(RateFormula formula, double v0, double beta, double theta);

// The exact escape rate of the overdamped dynamics at a fixed bias, r(gamma) = 1 / T(gamma),
// with T the Pontryagin mean first-passage time from the well bottom arcsin(gamma) to the fixed
// `threshold` (washboard_mean_first_passage_time), for gamma in [gamma_low, 1). This is the rate
// to build the Fulton–Dunkleberger distribution of an overdamped ramp on: the simulation starts
// in the well and stops a realisation at the same fixed threshold, and unlike the Kramers-type
// formulas (leading order in theta / DeltaU) it has no expansion error. It depends on the
// threshold: near the saddle of the bias T is about half the Kramers time (a particle at the
// saddle goes on or back with equal probability), well past it T approaches the full 1 / r.
//
// Every T is a double quadrature, so the function is tabulated once here. ln(r / gamma) is
// interpolated in s = sqrt(1 - gamma) (in which the start phase arcsin(gamma) is analytic at
// gamma = 1, and r ~ gamma as gamma -> 0, where the particle wanders among the wells) by
// Chebyshev pieces of 16 points, each halved until its last three coefficients are below
// 1e-9 (1e-9 relative on r; each T to 1e-11). Rates too small to matter are not tabulated:
// below gamma_x, the largest bias >= max(gamma_low, 1e-3) with r(gamma_x) <= negligible_rate
// (or that bound itself if r exceeds negligible_rate there), r is continued as
// r(gamma_x) gamma / gamma_x. Since the exact rate grows with the bias (a larger bias tilts the
// drift everywhere and moves the start towards the threshold), both lie in [0, r(gamma_x)]
// there: for a ramp from gamma0 at nu, negligible_rate = 1e-30 nu / (1 - gamma0) changes the
// escape exponent H by less than 1e-30 unless r is larger than that already at gamma = 1e-3.
// There the continuation is the small-bias law itself, T ~ 1 / gamma (gamma T(gamma) varies by
// ~1e-3 relative over [0, 1e-3]; a mean first-passage time costs ~1 / gamma, so smaller
// biases are not tabulated). r is 0 at gamma <= 0 and r(1^-) from gamma = 1 on.
//
// Needs V0, beta, theta finite and positive, gamma_low in [0, 1), negligible_rate > 0 and a
// threshold above pi/2, so that the well bottom stays below it up to gamma = 1 (a threshold
// at or below pi/2 is reached by the well itself before the critical current);
// std::invalid_argument otherwise, std::runtime_error if a piece does not converge. Building
// costs a few hundred mean first-passage times (typically well under a second).
BiasDependentRate exact_overdamped_rate(double v0, double beta, double theta, double threshold,
                                        double gamma_low, double negligible_rate);

// H(gamma) = -ln S(gamma): 0 below gamma0, +infinity from gamma = 1 on.
double escape_exponent(const BiasDependentRate& rate, const LinearRamp& ramp, double gamma);

// Probability of having switched at a bias below gamma, 1 - exp(-H) (computed without
// cancellation for small H); 0 below gamma0 and 1 from gamma = 1 on.
double switching_cdf(const BiasDependentRate& rate, const LinearRamp& ramp, double gamma);
// The same on a grid (any order; NaN rejected), integrating between neighbouring points.
std::vector<double> switching_cdf(const BiasDependentRate& rate, const LinearRamp& ramp,
                                  const std::vector<double>& gammas);

// Density dCDF/dgamma = r S / nu on [gamma0, 1); 0 outside (the point mass at 1 excluded).
double switching_density(const BiasDependentRate& rate, const LinearRamp& ramp, double gamma);
std::vector<double> switching_density(const BiasDependentRate& rate, const LinearRamp& ramp,
                                      const std::vector<double>& gammas);

struct SwitchingMoments {
  double mean = 0.0;                             ///< <gamma_sw>, including the point mass at 1
  double standard_deviation = 0.0;               ///< of gamma_sw, including the point mass at 1
  double probability_at_critical_current = 0.0;  ///< S(1^-): weight of the point mass at 1
};

// Mean and standard deviation from E[X] = gamma0 + int S and the second moment about the median
// split into integrals of (1 - S) below and S above it (no cancellation for narrow
// distributions). Absolute accuracy about 1e-12 on the mean and 1e-10 relative on the variance.
SwitchingMoments switching_moments(const BiasDependentRate& rate, const LinearRamp& ramp);

// The largest gamma0' >= gamma0 with CDF(gamma0') <= epsilon, 0 < epsilon < 1: a ramp started
// at gamma0' (rather than gamma0) skips escapes of total probability at most epsilon and, in the
// adiabatic picture, leaves the conditional distribution of later switches unchanged, so the
// switching-current distribution changes by at most epsilon in total variation. Long ramps use
// it to skip the part of the ramp where nothing happens. Because the rate formulas are
// approximate, choose epsilon with a safety margin (1e-6 or below), and start the simulation in
// a thermalised well. Returns 1 if even the whole ramp keeps the CDF below epsilon.
double negligible_escape_bias(const BiasDependentRate& rate, const LinearRamp& ramp,
                              double epsilon);

}  // namespace portamc::josephson

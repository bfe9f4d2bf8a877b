#include "portamc/su2/detail/heatbath_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace portamc::su2 {

namespace {

constexpr double pi = 3.141592653589793238462643383279502884;

// ∫ sqrt(1 - a^2) e^{alpha (a - 1)} da over [-1, 1] = pi e^{-alpha} I1(alpha) / alpha.
double scaled_normalisation(double alpha) {
  if (alpha < 1e-8) return pi / 2 * std::exp(-alpha);
  return pi * std::cyl_bessel_i(1.0, alpha) * std::exp(-alpha) / alpha;
}

}  // namespace

double creutz_acceptance(double alpha) {
  if (!(alpha >= 0)) throw std::invalid_argument("creutz_acceptance: alpha must be >= 0");
  // ∫ sqrt(1-a^2) e^{alpha a} / ∫ e^{alpha a}; the second is 2 sinh(alpha) / alpha.
  if (alpha < 1e-8) return pi / 4;
  return pi * std::cyl_bessel_i(1.0, alpha) / (2 * std::sinh(alpha));
}

double kennedy_pendleton_acceptance(double alpha) {
  if (!(alpha >= 0))
    throw std::invalid_argument("kennedy_pendleton_acceptance: alpha must be >= 0");
  // ∫_0^2 sqrt(y (1 - y/2)) e^{-alpha y} dy / ∫_0^inf sqrt(y) e^{-alpha y} dy.
  return std::sqrt(2 * pi * alpha) * std::cyl_bessel_i(1.0, alpha) * std::exp(-alpha);
}

double a0_interval_probability(double alpha, double lo, double hi) {
  if (!(alpha >= 0)) throw std::invalid_argument("a0_interval_probability: alpha must be >= 0");
  lo = std::clamp(lo, -1.0, 1.0);
  hi = std::clamp(hi, -1.0, 1.0);
  if (!(hi > lo)) return 0.0;
  // a0 = cos(theta) turns sqrt(1 - a0^2) da0 into the smooth sin^2(theta) dtheta.
  const double t0 = std::acos(hi), t1 = std::acos(lo);
  constexpr int intervals = 2000;  // Simpson, even count; error ~ h^4, far below 1e-12 here
  const double h = (t1 - t0) / intervals;
  auto f = [alpha](double t) {
    const double s = std::sin(t);
    return s * s * std::exp(alpha * (std::cos(t) - 1));
  };
  double sum = f(t0) + f(t1);
  for (int i = 1; i < intervals; ++i) sum += (i % 2 ? 4 : 2) * f(t0 + i * h);
  return sum * h / 3 / scaled_normalisation(alpha);
}

}  // namespace portamc::su2

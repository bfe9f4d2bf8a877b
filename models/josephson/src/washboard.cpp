#include "portamc/josephson/washboard.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "portamc/josephson/detail/quadrature.hpp"
#include "theory_checks.hpp"

namespace portamc::josephson {
namespace {

constexpr double kPi = 3.14159265358979323846;

// a = arccos(gamma) from 1 - gamma, which is exact for gamma >= 1/2, so that a keeps its relative
// accuracy as gamma -> 1 (acos(gamma) would lose half the digits there).
double arccos_gamma(double gamma) {
  if (gamma > 0.5) return 2.0 * std::asin(std::sqrt(0.5 * (1.0 - gamma)));
  return std::acos(gamma);
}

// sqrt(1 - gamma^2) without the cancellation of 1 - gamma*gamma.
double cos_of_well(double gamma) {
  return std::sqrt((1.0 - gamma) * (1.0 + gamma));
}

// sin a - a cos a = sum_{k>=1} (-1)^(k+1) 2k a^(2k+1) / (2k+1)!, used for small a where the
// closed form cancels.
double sin_minus_a_cos(double a) {
  if (a >= 0.5) return std::sin(a) - a * std::cos(a);
  double term = a * a * a / 3.0;  // k = 1
  double sum = term;
  for (int k = 1; k < 40 && std::fabs(term) > 1e-18 * std::fabs(sum); ++k) {
    term *= -(k + 1.0) / k * a * a / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
    sum += term;
  }
  return sum;
}

// d - sin d = sum_{k>=1} (-1)^(k+1) d^(2k+1) / (2k+1)!, by series for small d.
double d_minus_sin(double d) {
  if (d >= 0.5) return d - std::sin(d);
  double term = d * d * d / 6.0;
  double sum = term;
  for (int k = 1; k < 40 && std::fabs(term) > 1e-18 * std::fabs(sum); ++k) {
    term *= -d * d / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
    sum += term;
  }
  return sum;
}

// (U(phi_max) - U(phi_max - d)) / V0 = c (1 - cos d) - gamma (d - sin d), c = sqrt(1 - gamma^2),
// from cos(phi_max) = -c and sin(phi_max) = gamma. Both terms are O(d^2) and O(d^3) with full
// relative accuracy, so the difference stays accurate down to gamma -> 1 where the naive
// difference of two O(V0) potentials would lose most of its digits.
double energy_below_saddle(double c, double gamma, double d) {
  const double half_sin = std::sin(0.5 * d);
  return 2.0 * c * half_sin * half_sin - gamma * d_minus_sin(d);
}

// The distance d_t = phi_max - phi_turn. U rises monotonically from phi_min towards the previous
// saddle phi_max - 2 pi, which lies 2 pi gamma V0 above the saddle energy, so the root is unique
// in (phi_max - phi_min, 2 pi]; bisection to the last bit.
double turning_distance(double gamma) {
  if (gamma == 0.0) return 2.0 * kPi;  // the orbit is the separatrix between two saddles
  const double c = cos_of_well(gamma);
  double low = arccos_gamma(gamma);  // inside the well, where the energy is below the saddle
  double high = 2.0 * kPi;
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (low + high);
    if (middle == low || middle == high) break;
    if (energy_below_saddle(c, gamma, middle) > 0.0) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return 0.5 * (low + high);
}

}  // namespace

double washboard_potential(double v0, double gamma, double phi) {
  return -v0 * (std::cos(phi) + gamma * phi);
}

double washboard_force(double v0, double gamma, double phi) {
  return v0 * (gamma - std::sin(phi));
}

double well_bottom(double gamma) {
  detail::check_gamma(gamma, "well_bottom");
  return std::asin(gamma);
}

double saddle_point(double gamma) {
  detail::check_gamma(gamma, "saddle_point");
  return kPi - std::asin(gamma);
}

double default_escape_threshold(double gamma) {
  detail::check_gamma(gamma, "default_escape_threshold");
  return saddle_point(gamma);
}

double barrier_height(double v0, double gamma) {
  detail::check_v0(v0, "barrier_height");
  detail::check_gamma(gamma, "barrier_height");
  return 2.0 * v0 * sin_minus_a_cos(arccos_gamma(gamma));
}

double well_frequency(double v0, double gamma) {
  detail::check_v0(v0, "well_frequency");
  detail::check_gamma(gamma, "well_frequency");
  return std::sqrt(v0 * cos_of_well(gamma));
}

double barrier_frequency(double v0, double gamma) {
  detail::check_v0(v0, "barrier_frequency");
  detail::check_gamma(gamma, "barrier_frequency");
  return std::sqrt(v0 * cos_of_well(gamma));
}

double saddle_orbit_turning_point(double v0, double gamma) {
  detail::check_v0(v0, "saddle_orbit_turning_point");
  detail::check_gamma(gamma, "saddle_orbit_turning_point");
  return saddle_point(gamma) - turning_distance(gamma);
}

double saddle_orbit_action(double v0, double gamma) {
  detail::check_v0(v0, "saddle_orbit_action");
  detail::check_gamma(gamma, "saddle_orbit_action");
  const double c = cos_of_well(gamma);
  const double d_turn = turning_distance(gamma);
  // d = d_turn - u^2 removes the square-root zero of the momentum at the turning point (where
  // the energy difference vanishes linearly), leaving a smooth integrand for Gauss–Kronrod.
  // Rounding can make the energy difference a tiny negative number next to the root: clamp.
  const auto integrand = [&](double u) {
    const double energy = energy_below_saddle(c, gamma, d_turn - u * u);
    return 2.0 * u * std::sqrt(energy > 0.0 ? energy : 0.0);
  };
  QuadratureOptions options;
  options.relative_tolerance = 1e-12;
  const QuadratureResult integral = adaptive_integral_or_throw(integrand, 0.0, std::sqrt(d_turn),
                                                               options, "the saddle-orbit action");
  // S_b = 2 int sqrt(2 V0 f(d)) dd: the factor 2 counts both halves of the closed orbit.
  return 2.0 * std::sqrt(2.0 * v0) * integral.value;
}

}  // namespace portamc::josephson

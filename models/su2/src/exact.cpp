#include "portamc/su2/exact.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace portamc::su2::exact {
namespace {

void check_beta(double beta, const char* function) {
  if (!std::isfinite(beta) || !(beta > 0.0)) {
    throw std::invalid_argument(std::string("portamc::su2::exact::") + function +
                                ": beta must be finite and positive, got " + std::to_string(beta));
  }
}

// Modified Bessel function I_n, reported as a domain error where it overflows rather than
// silently turning every ratio into NaN.
double bessel_i(int n, double beta) {
  const double value = std::cyl_bessel_i(static_cast<double>(n), beta);
  if (!std::isfinite(value)) {
    throw std::domain_error("portamc::su2::exact: I_" + std::to_string(n) + "(" +
                            std::to_string(beta) + ") overflows a double");
  }
  return value;
}

}  // namespace

double character_ratio(double beta) {
  check_beta(beta, "character_ratio");
  return bessel_i(2, beta) / bessel_i(1, beta);
}

double character_ratio_derivative(double beta) {
  check_beta(beta, "character_ratio_derivative");
  const double u = character_ratio(beta);
  return 1.0 - 3.0 * u / beta - u * u;
}

double plaquette_2d(double beta) {
  check_beta(beta, "plaquette_2d");
  return character_ratio(beta);
}

double plaquette_2d_torus(double beta, std::int64_t plaquettes) {
  check_beta(beta, "plaquette_2d_torus");
  if (plaquettes < 1) {
    throw std::invalid_argument(
        "portamc::su2::exact::plaquette_2d_torus: the lattice needs at least "
        "one plaquette, got " +
        std::to_string(plaquettes));
  }
  // Weights relative to n = 1, w_n / w_1 = (I_n/I_1)^V, in logarithms so that V in the millions
  // neither underflows early nor overflows. I_n decreases in n for fixed beta, so the sum can stop
  // once a weight is negligible against the n = 1 term.
  const double volume = static_cast<double>(plaquettes);
  const double log_i1 = std::log(bessel_i(1, beta));
  double weight_sum = 0.0;
  double weighted_plaquette = 0.0;
  double i_n = bessel_i(1, beta);
  constexpr int kMaxRepresentations = 100000;
  for (int n = 1; n <= kMaxRepresentations; ++n) {
    const double i_next = bessel_i(n + 1, beta);
    const double weight = std::exp(volume * (std::log(i_n) - log_i1));
    weight_sum += weight;
    weighted_plaquette += weight * (i_next / i_n + (n - 1) / beta);
    if (weight < 1e-18 * weight_sum || i_next == 0.0) break;
    i_n = i_next;
  }
  return weighted_plaquette / weight_sum;
}

SeriesValue plaquette_strong_coupling(int dimensions, double beta) {
  check_beta(beta, "plaquette_strong_coupling");
  if (dimensions < 2 || dimensions > 4) {
    throw std::invalid_argument(
        "portamc::su2::exact::plaquette_strong_coupling: dimensions must be 2, 3 or 4, got " +
        std::to_string(dimensions));
  }
  const double u = character_ratio(beta);
  const double du = character_ratio_derivative(beta);
  const double u4 = u * u * u * u;
  const int other_directions = 2 * (dimensions - 2);  // cubes containing a given plaquette
  const double cube_pairs = other_directions * (other_directions - 1) / 2.0;
  SeriesValue result;
  result.value = u + 8.0 * (dimensions - 2) * u4 * u * du;
  result.truncation_error = 2.0 * 40.0 * cube_pairs * u4 * u4 * u * du;
  result.order = 7;
  return result;
}

std::vector<double> strong_coupling_taylor_4d() {
  // From u = beta/4 - beta^3/96 + beta^5/1536 - beta^7/23040 + O(beta^9) (the Bessel series of
  // I2/I1) and 16 u^5 u' = beta^5/256 - beta^7/768 + O(beta^9).
  return {0.0, 1.0 / 4.0, 0.0, -1.0 / 96.0, 0.0, 7.0 / 1536.0, 0.0, -31.0 / 23040.0};
}

SeriesValue plaquette_weak_coupling_4d(double beta) {
  check_beta(beta, "plaquette_weak_coupling_4d");
  SeriesValue result;
  result.value = 1.0 - 3.0 / (4.0 * beta);
  result.truncation_error = 0.4 / (beta * beta);
  result.order = 1;
  return result;
}

}  // namespace portamc::su2::exact

#include "portamc/josephson/kramers.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/josephson/detail/quadrature.hpp"
#include "portamc/josephson/washboard.hpp"
#include "theory_checks.hpp"

namespace portamc::josephson {
namespace {

constexpr double kPi = 3.14159265358979323846;

// ln(1 - exp(-z)) for z > 0 without cancellation at either end.
double log_one_minus_exp(double z) {
  if (z < 0.6931471805599453) return std::log(-std::expm1(-z));
  return std::log1p(-std::exp(-z));
}

void check_rate_inputs(double v0, double beta, double theta, double gamma, const char* function) {
  detail::check_v0(v0, function);
  detail::check_positive(beta, "beta", function);
  detail::check_positive(theta, "theta", function);
  detail::check_gamma(gamma, function);
}

// sqrt(1 + kappa^2) - kappa, written without the cancellation at large kappa.
double kramers_transmission(double kappa) {
  return 1.0 / (std::sqrt(1.0 + kappa * kappa) + kappa);
}

}  // namespace

double melnikov_meshkov_factor(double delta) {
  if (std::isnan(delta) || delta < 0.0) {
    detail::throw_invalid("melnikov_meshkov_factor", "delta", delta, "non-negative");
  }
  if (delta == 0.0) return 0.0;
  // 1 - A ~ 2 exp(-delta/4) / sqrt(pi delta) is below 1e-23 from delta = 200 on: A rounds to 1,
  // and the shortcut saves the quadrature in the strongly damped regime.
  if (delta >= 200.0) return 1.0;
  // With x = tan(u)/2 the measure dx / (x^2 + 1/4) becomes 2 du on [0, pi/2), and with
  // u = pi/2 - e^s the integral becomes (2/pi) int ln(1 - exp(-delta / (4 sin^2 w))) w ds,
  // w = e^s: the integrand changes from ln(delta / 4 w^2) to 0 around w ~ sqrt(delta) / 2, a
  // region of fixed width in s whatever delta, so that small delta (barriers near the critical
  // current) costs no deep bisection. Below w = sqrt(delta / 3000) the exponent exceeds 750 and
  // the integrand is below e^-750: the lower limit.
  const auto integrand = [delta](double s) {
    const double w = std::exp(s);
    const double sine = std::sin(w);
    return log_one_minus_exp(delta / (4.0 * sine * sine)) * w;
  };
  QuadratureOptions options;
  options.relative_tolerance = 1e-12;
  options.absolute_tolerance = 1e-15;  // the integral is an exponent: absolute error = relative
  const QuadratureResult integral =
      adaptive_integral_or_throw(integrand, 0.5 * std::log(delta / 3000.0), std::log(0.5 * kPi),
                                 options, "the Mel'nikov-Meshkov factor");
  return std::exp(2.0 / kPi * integral.value);
}

double escape_rate_prefactor(RateFormula formula, double v0, double beta, double theta,
                             double gamma) {
  check_rate_inputs(v0, beta, theta, gamma, "escape_rate_prefactor");
  const double omega0 = well_frequency(v0, gamma);
  const double omega_b = barrier_frequency(v0, gamma);
  const double attempt = omega0 / (2.0 * kPi);
  switch (formula) {
    case RateFormula::overdamped:
      return omega0 * omega_b / (2.0 * kPi * beta);
    case RateFormula::kramers_moderate:
      return attempt * kramers_transmission(beta / (2.0 * omega_b));
    case RateFormula::energy_diffusion:
      return attempt * beta * saddle_orbit_action(v0, gamma) / theta;
    case RateFormula::melnikov_meshkov: {
      const double delta = beta * saddle_orbit_action(v0, gamma) / theta;
      return melnikov_meshkov_factor(delta) * attempt *
             kramers_transmission(beta / (2.0 * omega_b));
    }
  }
  throw std::invalid_argument("portamc::josephson::escape_rate: unknown RateFormula " +
                              std::to_string(static_cast<int>(formula)));
}

double escape_rate(RateFormula formula, double v0, double beta, double theta, double gamma) {
  check_rate_inputs(v0, beta, theta, gamma, "escape_rate");
  return escape_rate_prefactor(formula, v0, beta, theta, gamma) *
         std::exp(-barrier_height(v0, gamma) / theta);
}

double mean_escape_time(RateFormula formula, double v0, double beta, double theta, double gamma) {
  check_rate_inputs(v0, beta, theta, gamma, "mean_escape_time");
  const double rate = escape_rate(formula, v0, beta, theta, gamma);
  return rate > 0.0 ? 1.0 / rate : std::numeric_limits<double>::infinity();
}

}  // namespace portamc::josephson

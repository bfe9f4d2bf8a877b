#include "portamc/josephson/units.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "theory_checks.hpp"

namespace portamc::josephson {
namespace {

// A combination of valid inputs can still leave the double range (a capacitance of 1e-300 F):
// say which derived quantity failed rather than hand on an infinity or a zero.
double checked_result(double value, const char* name) {
  if (!std::isfinite(value) || !(value > 0.0)) {
    std::ostringstream message;
    message.precision(17);
    message << "portamc::josephson::normalise: the physical parameters give " << name << " = "
            << value << ", which is not finite and positive";
    throw std::domain_error(message.str());
  }
  return value;
}

void check_junction(const NormalisedJunction& j, const char* function) {
  detail::check_positive(j.time_unit, "junction.time_unit", function);
  detail::check_positive(j.charging_energy, "junction.charging_energy", function);
}

}  // namespace

NormalisedJunction normalise(const PhysicalJunction& junction) {
  const char* f = "normalise";
  detail::check_positive(junction.resistance, "resistance", f);
  detail::check_positive(junction.capacitance, "capacitance", f);
  detail::check_positive(junction.critical_current, "critical_current", f);
  detail::check_positive(junction.temperature, "temperature", f);
  if (junction.bias_ramp_rate)
    detail::check_positive(*junction.bias_ramp_rate, "bias_ramp_rate", f);

  const double two_e = 2.0 * si::elementary_charge;
  NormalisedJunction n;
  n.charging_energy = checked_result(two_e * two_e / junction.capacitance, "E_C");
  n.josephson_energy =
      checked_result(si::reduced_planck * junction.critical_current / two_e, "E_J");
  n.time_unit = checked_result(si::reduced_planck / n.charging_energy, "t0");
  n.v0 = checked_result(n.josephson_energy / n.charging_energy, "V0");
  n.beta = checked_result(si::reduced_planck / (junction.resistance * two_e * two_e), "beta");
  n.theta = checked_result(si::boltzmann * junction.temperature / n.charging_energy, "theta");
  n.critical_current = junction.critical_current;
  n.plasma_frequency = checked_result(
      std::sqrt(two_e * junction.critical_current / (si::reduced_planck * junction.capacitance)),
      "the plasma frequency");
  n.quality_factor = checked_result(std::sqrt(n.v0) / n.beta, "Q");
  if (junction.bias_ramp_rate) {
    n.nu = checked_result(*junction.bias_ramp_rate / junction.critical_current * n.time_unit, "nu");
  }
  return n;
}

double ramp_rate_from_sweep_frequency(double critical_current, double frequency) {
  detail::check_positive(critical_current, "critical_current", "ramp_rate_from_sweep_frequency");
  detail::check_positive(frequency, "frequency", "ramp_rate_from_sweep_frequency");
  return critical_current * frequency;
}

double seconds_from_normalised_time(const NormalisedJunction& junction, double time) {
  check_junction(junction, "seconds_from_normalised_time");
  detail::check_finite(time, "time", "seconds_from_normalised_time");
  return time * junction.time_unit;
}

double normalised_time_from_seconds(const NormalisedJunction& junction, double seconds) {
  check_junction(junction, "normalised_time_from_seconds");
  detail::check_finite(seconds, "seconds", "normalised_time_from_seconds");
  return seconds / junction.time_unit;
}

double current_from_gamma(const NormalisedJunction& junction, double gamma) {
  detail::check_positive(junction.critical_current, "junction.critical_current",
                         "current_from_gamma");
  detail::check_finite(gamma, "gamma", "current_from_gamma");
  return gamma * junction.critical_current;
}

double kelvin_from_theta(const NormalisedJunction& junction, double theta) {
  check_junction(junction, "kelvin_from_theta");
  detail::check_positive(theta, "theta", "kelvin_from_theta");
  return theta * junction.charging_energy / si::boltzmann;
}

}  // namespace portamc::josephson

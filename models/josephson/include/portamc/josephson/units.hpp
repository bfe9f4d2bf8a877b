#pragma once
// Conversion between the physical parameters of a current-biased junction (RCSJ model:
// resistance R, capacitance C, critical current I_c, temperature T, bias ramp dI/dt) and the
// model's normalised units (the paper's section II.1, Pierro et al.):
//   E_C = (2e)^2 / C                    energy unit ("Coulomb energy" of one Cooper pair)
//   E_J = hbar I_c / (2e)               Josephson energy
//   t0  = hbar / E_C                    time unit; omega_N = 1 / t0
//   V0  = E_J / E_C,  beta = hbar / (R (2e)^2),  theta = k_B T / E_C,  gamma = I / I_c
//   nu  = (dI/dt / I_c) t0              bias increase per unit normalised time
// so that phi'' + beta phi' + V0 sin phi = V0 gamma + xi with <xi xi'> = 2 beta theta delta.
// Derived: the plasma frequency omega_p = sqrt(2e I_c / (hbar C)), which is sqrt(V0) in units of
// 1/t0, and the quality factor Q = omega_p R C = sqrt(V0) / beta.
//
// Constants are the exact SI values of the 2019 redefinition (e, h, k_B exact; hbar = h / 2 pi).
// Host-only. Every function throws std::invalid_argument naming the parameter for inputs that
// are not finite and positive, and std::domain_error if a result is not finite and positive.
#include <optional>

namespace portamc::josephson {

namespace si {
constexpr double elementary_charge = 1.602176634e-19;                       ///< C, exact
constexpr double planck = 6.62607015e-34;                                   ///< J s, exact
constexpr double reduced_planck = planck / (2.0 * 3.14159265358979323846);  ///< J s
constexpr double boltzmann = 1.380649e-23;                                  ///< J / K, exact
}  // namespace si

struct PhysicalJunction {
  double resistance = 0.0;               ///< R, ohm (shunt / subgap resistance of the RCSJ model)
  double capacitance = 0.0;              ///< C, farad
  double critical_current = 0.0;         ///< I_c, ampere
  double temperature = 0.0;              ///< T, kelvin
  std::optional<double> bias_ramp_rate;  ///< dI/dt, ampere per second (only for ramps)
};

struct NormalisedJunction {
  double v0 = 0.0;                ///< E_J / E_C
  double beta = 0.0;              ///< hbar / (R (2e)^2)
  double theta = 0.0;             ///< k_B T / E_C
  std::optional<double> nu;       ///< dgamma per unit normalised time, if a ramp was given
  double charging_energy = 0.0;   ///< E_C, joule
  double josephson_energy = 0.0;  ///< E_J, joule
  double time_unit = 0.0;         ///< t0 = hbar / E_C, second
  double critical_current = 0.0;  ///< I_c, ampere (to convert gamma back to a current)
  double plasma_frequency = 0.0;  ///< omega_p, rad / s
  double quality_factor = 0.0;    ///< omega_p R C = sqrt(V0) / beta
};

NormalisedJunction normalise(const PhysicalJunction& junction);

// The sweep convention used for a bias ramp given as a frequency: a sawtooth that takes the
// current from 0 to I_c once per period, so dI/dt = I_c * frequency. (The paper quotes "a sweep
// rate of 200 Hz" for Li et al.'s junction without saying more; this is our reading.)
double ramp_rate_from_sweep_frequency(double critical_current, double frequency);

// Back to physical units: normalised time -> seconds, gamma -> ampere, theta -> kelvin (for
// temperatures chosen in normalised units), and the inverse of the first.
double seconds_from_normalised_time(const NormalisedJunction& junction, double time);
double normalised_time_from_seconds(const NormalisedJunction& junction, double seconds);
double current_from_gamma(const NormalisedJunction& junction, double gamma);
double kelvin_from_theta(const NormalisedJunction& junction, double theta);

}  // namespace portamc::josephson

#pragma once
// Parameters of a Langevin ensemble of a current-biased Josephson junction in the paper's
// normalised units (docs/models/josephson.md): time in hbar / E_C, energies in E_C.
//
//   underdamped  phi'' + beta phi' + V0 sin phi = V0 gamma(t) + xi,  <xi xi> = 2 beta theta delta
//   overdamped   beta phi' = V0 (gamma(t) - sin phi) + xi            (same xi)
//
// with the bias gamma(t) = gamma0 + nu t and t = k h after k steps of size h. Every
// realisation starts at rest at the bottom of the initial well, phi = arcsin(gamma0), v = 0,
// and escapes at the first step after which phi > threshold (default pi - arcsin(gamma0), the
// saddle at the initial bias, kept fixed during a ramp as in the paper's Algorithm 3). A
// realisation that has not escaped after max_steps steps is censored.
//
// A plain struct: apps map their input onto it, validate() rejects what cannot run and
// warnings() lists what runs but probably not as intended.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace portamc::josephson {

enum class Dynamics { underdamped, overdamped };
enum class Integrator { euler, heun };

/// The names of names.hpp (dynamics_names, integrator_names).
const char* to_string(Dynamics dynamics);
const char* to_string(Integrator integrator);

/// Largest step cap: the noise of step k is drawn from Philox block k / 4, whose counter
/// holds 56 bits, and 2^58 < 2^63 keeps step counts in signed 64-bit arithmetic too.
inline constexpr std::uint64_t max_step_cap = std::uint64_t{1} << 58;

struct LangevinParameters {
  Dynamics dynamics = Dynamics::underdamped;
  Integrator integrator = Integrator::euler;
  double V0 = 1.0;      ///< E_J / E_C, > 0
  double beta = 0.05;   ///< damping hbar / (R (2e)^2), >= 0 (> 0 overdamped)
  double theta = 0.2;   ///< k_B T / E_C, > 0
  double h = 0.004;     ///< time step, > 0
  double gamma0 = 0.5;  ///< bias at t = 0, in (-1, 1)
  double nu = 0.0;      ///< ramp rate d gamma / dt, >= 0 (0: constant bias)
  /// Escape when phi exceeds this; unset: pi - arcsin(gamma0). +infinity: never (every
  /// realisation runs to the cap, e.g. to sample the state at the fixed time max_steps h).
  std::optional<double> threshold;
  std::uint64_t max_steps = 200000;     ///< step cap, 1 .. max_step_cap
  std::uint64_t realisations = 1024;    ///< >= 1
  std::uint64_t first_realisation = 0;  ///< RNG entity of realisation 0 (run splitting, scans)
  std::uint64_t seed = 1;

  /// Throws std::invalid_argument naming the first offending parameter, its value and what
  /// was expected.
  void validate() const;
  /// Conditions that are valid but probably unintended (a ramp that cannot reach the
  /// escape bias within the cap, ...), one sentence each; empty if none. Call after validate().
  std::vector<std::string> warnings() const;

  /// Start phase arcsin(gamma0), the bottom of the well at t = 0.
  double start_phase() const;
  /// The threshold in use: threshold if set, else pi - arcsin(gamma0).
  double escape_threshold() const;
  /// gamma after k steps, gamma0 + nu (k h), in double: exact to rounding for any k up to the
  /// cap (a float step count or bias would stall beyond 2^24 steps).
  double bias_at_step(std::uint64_t k) const { return gamma0 + nu * (static_cast<double>(k) * h); }
  /// The bias below which a deterministic particle stays in its well for this threshold:
  /// 1 (the well vanishes) for a threshold beyond the inflection point pi/2, else the bias
  /// sin(threshold) at which the well bottom itself reaches the threshold.
  double escape_bias() const;
};

}  // namespace portamc::josephson

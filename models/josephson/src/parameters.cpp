#include "portamc/josephson/parameters.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace portamc::josephson {
namespace {

constexpr double pi = 3.141592653589793238462643383279502884;

// Above this h omega (underdamped) or h / relaxation time (overdamped) a warning says the
// discretisation error is likely to be visible.
constexpr double large_step = 0.2;

// The shortest decimal that reads back as x: what the user typed, e.g. 1e-06, not
// 9.9999999999999995e-07.
std::string number(double x) {
  std::string text;
  for (int digits = 6; digits <= 17; ++digits) {
    std::ostringstream s;
    s.precision(digits);
    s << x;
    text = s.str();
    if (!std::isfinite(x) || std::stod(text) == x) break;
  }
  return text;
}

// Derived quantities in warnings: six digits are plenty.
std::string rounded(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

[[noreturn]] void reject(const std::string& name, const std::string& value,
                         const std::string& expected) {
  throw std::invalid_argument("josephson parameters: " + name + " = " + value + ": " + expected);
}

void require_finite(const std::string& name, double value) {
  if (!std::isfinite(value)) reject(name, number(value), "expected a finite number");
}

}  // namespace

double LangevinParameters::start_phase() const {
  return std::asin(gamma0);
}

double LangevinParameters::escape_threshold() const {
  return threshold ? *threshold : pi - std::asin(gamma0);
}

double LangevinParameters::escape_bias() const {
  const double th = escape_threshold();
  return th < pi / 2 ? std::sin(th) : 1.0;
}

void LangevinParameters::validate() const {
  require_finite("V0", V0);
  if (!(V0 > 0)) reject("V0", number(V0), "expected V0 = E_J / E_C > 0");
  require_finite("beta", beta);
  if (beta < 0) reject("beta", number(beta), "expected a damping beta >= 0");
  if (dynamics == Dynamics::overdamped && !(beta > 0))
    reject("beta", number(beta), "the overdamped dynamics divides by beta: expected beta > 0");
  require_finite("theta", theta);
  if (!(theta > 0))
    reject("theta", number(theta), "expected a temperature theta = k_B T / E_C > 0");
  require_finite("h", h);
  if (!(h > 0)) reject("h", number(h), "expected a time step h > 0");
  require_finite("gamma0", gamma0);
  if (gamma0 >= 1 && nu == 0)
    reject("gamma0", number(gamma0),
           "at a constant bias gamma0 >= 1 the tilted washboard has no barrier, nothing to "
           "escape from: expected |gamma0| < 1");
  if (!(gamma0 > -1 && gamma0 < 1))
    reject("gamma0", number(gamma0),
           "the start phase arcsin(gamma0) (bottom of the initial well) needs |gamma0| < 1");
  require_finite("nu", nu);
  if (nu < 0) reject("nu", number(nu), "expected a ramp rate nu >= 0 (0: constant bias)");
  if (threshold) {
    const double th = *threshold;
    if (std::isnan(th)) reject("threshold", number(th), "expected a number or +infinity");
    if (!(th > start_phase()))
      reject(
          "threshold", number(th),
          "expected a threshold above the start phase arcsin(gamma0) = " + number(start_phase()));
  }
  if (max_steps < 1 || max_steps > max_step_cap)
    reject("max_steps", std::to_string(max_steps),
           "expected 1 .. 2^58 = " + std::to_string(max_step_cap));
  if (realisations < 1) reject("realisations", std::to_string(realisations), "expected >= 1");
  if (realisations > (std::uint64_t{1} << 62))
    reject("realisations", std::to_string(realisations), "expected at most 2^62");
  if (first_realisation > std::numeric_limits<std::uint64_t>::max() - (realisations - 1))
    reject("first_realisation", std::to_string(first_realisation),
           "first_realisation + realisations - 1 must fit the 64-bit RNG entity");
}

std::vector<std::string> LangevinParameters::warnings() const {
  std::vector<std::string> out;
  const double th = escape_threshold();
  if (std::isinf(th)) {
    out.push_back("threshold = +infinity: no realisation can escape; all " +
                  std::to_string(realisations) +
                  " will be censored at max_steps = " + std::to_string(max_steps));
  } else if (nu > 0) {
    const double reached = bias_at_step(max_steps);
    const double needed = escape_bias();
    if (reached < needed)
      out.push_back("the ramp reaches only gamma = " + rounded(reached) +
                    " after max_steps = " + std::to_string(max_steps) +
                    " steps, below the bias at which a noiseless junction escapes over the "
                    "threshold, gamma = " +
                    rounded(needed) +
                    ": realisations that have not switched by then will be censored");
  }
  if (dynamics == Dynamics::underdamped && h * std::sqrt(V0) > large_step)
    out.push_back("h sqrt(V0) = " + rounded(h * std::sqrt(V0)) +
                  ": the time step is not small against the plasma period 2 pi / sqrt(V0); "
                  "expect a visible discretisation error");
  if (dynamics == Dynamics::overdamped && h * V0 / beta > large_step)
    out.push_back("h V0 / beta = " + rounded(h * V0 / beta) +
                  ": the time step is not small against the relaxation time beta / V0; expect a "
                  "visible discretisation error");
  return out;
}

}  // namespace portamc::josephson

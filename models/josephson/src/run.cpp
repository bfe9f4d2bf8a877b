#include "portamc/josephson/run.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

#include "portamc/josephson/first_passage_exact.hpp"
#include "portamc/josephson/switching_theory.hpp"
#include "portamc/josephson/washboard.hpp"

namespace portamc::josephson {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;
// Below this DeltaU / theta the escape is hardly thermally activated and the Kramers-type
// formulas (leading order in theta / DeltaU) are not to be trusted.
constexpr double kLowBarrier = 3.0;
// Above this relative excess of the Euler scheme's effective temperature a warning says so.
constexpr double kEulerHeating = 0.01;

// Text that reads back to the same double, so fingerprints compare exactly.
std::string exact_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Derived quantities in messages: a few digits are plenty.
std::string rounded(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// The shortest text that reads back as v: what a user typed, for messages.
std::string number(double v) {
  for (int digits = 6; digits <= 17; ++digits) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (!std::isfinite(v) || std::stod(buf) == v) return buf;
  }
  return exact_text(v);
}

[[noreturn]] void reject(const std::string& name, const std::string& value,
                         const std::string& expected) {
  // The member's name without an index: "thetas[2]" is about "thetas".
  throw RunParameterError(name.substr(0, name.find('[')),
                          "josephson run: " + name + " = " + value + ": " + expected);
}

void require_positive(const std::string& name, double v, const std::string& what) {
  if (!std::isfinite(v) || !(v > 0)) reject(name, number(v), "expected " + what + " > 0");
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A natural time of the well: the plasma period 2 pi / omega0 (underdamped) or the relaxation
// time beta / omega0^2 (overdamped), omega0^2 = V0 sqrt(1 - gamma^2) (any |gamma| < 1).
double natural_time(const LangevinParameters& p) {
  const double curvature = p.V0 * std::sqrt((1.0 - p.gamma0) * (1.0 + p.gamma0));
  return p.dynamics == Dynamics::underdamped ? 2.0 * kPi / std::sqrt(curvature)
                                             : p.beta / curvature;
}

std::uint64_t steps_for(double time, double h, const std::string& why) {
  const double steps = std::ceil(time / h);
  if (!(steps >= 1 && steps <= static_cast<double>(max_step_cap)))
    reject(
        "max_steps", "auto",
        why + " needs " + rounded(steps) + " steps, outside 1 .. 2^58; give max_steps explicitly");
  return static_cast<std::uint64_t>(steps);
}

// Decides ResolvedRun::exact_rate (and its warning) from the requested TheoryRate and why the
// exact rate does not exist here (empty if it does).
bool choose_exact_rate(const RunParameters& in, const std::string& unavailable, ResolvedRun& r) {
  switch (in.theory_rate) {
    case TheoryRate::exact:
      if (!unavailable.empty()) reject("theory_rate", "'exact'", unavailable);
      r.exact_rate = true;
      break;
    case TheoryRate::kramers:
      r.exact_rate = false;
      break;
    default:
      r.exact_rate = !in.rate_formula && unavailable.empty();
      if (!in.rate_formula && !unavailable.empty() && in.dynamics == Dynamics::overdamped)
        r.warnings.push_back("theory.rate auto: " + unavailable + "; the theory uses the " +
                             rate_formula_name(r.rate_formula) +
                             " formula instead (leading order in theta / DeltaU)");
      break;
  }
  return r.exact_rate;
}

}  // namespace

// ---- RunParameters ----------------------------------------------------------------------------

void RunParameters::validate() const {
  if (physical) {
    const PhysicalInput& j = *physical;
    require_positive("physical.resistance", j.resistance, "a resistance R");
    require_positive("physical.capacitance", j.capacitance, "a capacitance C");
    require_positive("physical.critical_current", j.critical_current, "a critical current I_c");
    if (mode == RunMode::arrhenius) {
      if (j.temperature != 0)
        reject("physical.temperature", number(j.temperature),
               "unused in arrhenius mode, whose temperatures are the normalised thetas");
    } else {
      require_positive("physical.temperature", j.temperature, "a temperature T");
    }
    const bool rate = j.sweep_rate.has_value(), frequency = j.sweep_frequency.has_value();
    if (mode == RunMode::switching) {
      if (rate == frequency)
        reject("physical.sweep_rate", rate ? "rate and frequency" : "none",
               "a switching run needs exactly one of the sweep rate dI/dt and the sweep frequency");
      if (rate) require_positive("physical.sweep_rate", *j.sweep_rate, "a sweep rate dI/dt");
      if (frequency)
        require_positive("physical.sweep_frequency", *j.sweep_frequency, "a sweep frequency");
    } else if (rate || frequency) {
      reject(rate ? "physical.sweep_rate" : "physical.sweep_frequency",
             number(rate ? *j.sweep_rate : *j.sweep_frequency),
             "a sweep only applies to switching mode");
    }
  } else {
    require_positive("V0", V0, "V0 = E_J / E_C");
    if (!std::isfinite(beta) || beta < 0) reject("beta", number(beta), "expected a damping >= 0");
    if (mode != RunMode::arrhenius) require_positive("theta", theta, "theta = k_B T / E_C");
    if (mode == RunMode::switching) require_positive("ramp_rate", ramp_rate, "a ramp rate nu");
  }
  require_positive("h", h, "a time step h");
  if (mode == RunMode::switching) {
    if (ramp_gamma0 && !(*ramp_gamma0 > -1 && *ramp_gamma0 < 1))
      reject("ramp_gamma0", number(*ramp_gamma0), "expected a start bias in (-1, 1)");
    if (!(ramp_epsilon > 0 && ramp_epsilon < 1))
      reject("ramp_epsilon", number(ramp_epsilon), "expected a probability in (0, 1)");
  } else if (!(std::fabs(gamma) < 1)) {
    reject(
        "gamma", number(gamma),
        "at a constant bias |gamma| >= 1 leaves no barrier to escape over: expected |gamma| < 1");
  }
  if (max_steps && (*max_steps < 1 || *max_steps > max_step_cap))
    reject("max_steps", std::to_string(*max_steps), "expected 1 .. 2^58");
  if (realisations < 1) reject("realisations", "0", "expected >= 1");
  if (mode == RunMode::arrhenius) {
    if (thetas.empty()) reject("thetas", "[]", "arrhenius mode needs at least one temperature");
    for (std::size_t k = 0; k < thetas.size(); ++k)
      require_positive("thetas[" + std::to_string(k) + "]", thetas[k], "a temperature theta");
    // Ensemble k uses entities first_realisation + k N + [0, N): the last must fit 64 bits.
    const auto n = static_cast<long double>(realisations);
    if (static_cast<long double>(first_realisation) + n * thetas.size() - 1 >
        static_cast<long double>(std::numeric_limits<std::uint64_t>::max()))
      reject("first_realisation", std::to_string(first_realisation),
             "the RNG entities of all ensembles must fit 64 bits");
  }
  if (theory_rate == TheoryRate::exact && dynamics != Dynamics::overdamped)
    reject("theory_rate", "'exact'",
           "there is no exact escape rate for underdamped dynamics (the exact mean first-passage "
           "time is that of the overdamped equation): use 'kramers' or a Kramers-type formula");
  if (theory_rate == TheoryRate::exact && rate_formula)
    reject("theory_rate", "'exact'",
           std::string("a Kramers-type formula ('") + rate_formula_name(*rate_formula) +
               "') was given as well: choose one rate");
  if (histogram_bins < 1) reject("histogram_bins", std::to_string(histogram_bins), "expected >= 1");
  if (theory_points < 2) reject("theory_points", std::to_string(theory_points), "expected >= 2");
  try {
    ensemble.validate();
  } catch (const std::invalid_argument& e) {
    throw RunParameterError("ensemble", e.what());
  }
}

// ---- Theory -----------------------------------------------------------------------------------

std::string EscapeTheory::rate_name() const {
  return exact_rate ? exact_rate_name : rate_formula_name(formula);
}

double EscapeTheory::best_mean_time() const {
  if (exact_applies && std::isfinite(exact_mean_time)) return exact_mean_time;
  return kramers_mean_time;
}

const char* EscapeTheory::best_mean_time_source() const {
  if (exact_applies && std::isfinite(exact_mean_time)) return "exact";
  return std::isnan(kramers_mean_time) ? "none" : "kramers";
}

EscapeTheory escape_theory(const LangevinParameters& p, RateFormula formula, bool exact_rate) {
  if (exact_rate && p.dynamics != Dynamics::overdamped)
    throw std::invalid_argument(
        "josephson escape_theory: the exact rate needs overdamped dynamics");
  EscapeTheory t;
  t.formula = formula;
  t.exact_rate = exact_rate;
  if (p.dynamics == Dynamics::overdamped) {
    t.exact_applies = true;
    t.exact_status = "ok";
  }
  // The theory's rate and mean time: the exact ones or the formula's (set at every return).
  const auto choose = [&t] {
    if (t.exact_rate) {
      t.mean_time = t.exact_mean_time;
      t.rate = 1.0 / t.exact_mean_time;
      t.status = t.exact_status;
    } else {
      t.rate = t.kramers_rate;
      t.mean_time = t.kramers_mean_time;
      t.status = t.kramers_status;
    }
    return t;
  };
  if (!(p.gamma0 >= 0 && p.gamma0 < 1)) {
    t.kramers_status =
        "not available: the escape theory needs 0 <= gamma < 1, got gamma = " + number(p.gamma0);
    if (t.exact_applies) t.exact_status = t.kramers_status;
    return choose();
  }
  t.barrier = barrier_height(p.V0, p.gamma0);
  t.well_frequency = well_frequency(p.V0, p.gamma0);
  try {
    t.kramers_rate = escape_rate(formula, p.V0, p.beta, p.theta, p.gamma0);
    t.kramers_mean_time = 1.0 / t.kramers_rate;  // +infinity where the rate underflows
  } catch (const std::exception& e) {
    t.kramers_status = std::string("not available: ") + e.what();
  }
  if (t.exact_applies) {
    const double threshold = p.escape_threshold();
    if (!std::isfinite(threshold)) {
      t.exact_status = "not available: no finite threshold";
    } else {
      try {
        const MeanFirstPassageTime m = washboard_mean_first_passage_time(
            p.V0, p.gamma0, p.beta, p.theta, p.start_phase(), threshold);
        t.exact_mean_time = m.value;
        t.exact_error = m.error_estimate;
      } catch (const std::exception& e) {
        t.exact_status = std::string("not available: ") + e.what();
      }
    }
  }
  return choose();
}

std::string exact_rate_unavailable(RunMode mode, const std::vector<LangevinParameters>& points) {
  for (const LangevinParameters& p : points) {
    if (p.dynamics != Dynamics::overdamped)
      return "there is no exact escape rate for underdamped dynamics (the exact mean "
             "first-passage time is that of the overdamped equation)";
    const double threshold = p.escape_threshold();
    if (!std::isfinite(threshold))
      return "the exact rate needs a finite threshold (model.threshold = " + number(threshold) +
             ")";
    if (mode == RunMode::switching) {
      if (!(p.gamma0 >= 0 && p.gamma0 < 1))
        return "the switching theory needs a ramp from a bias in [0, 1), got gamma0 = " +
               number(p.gamma0);
      if (!(threshold > 0.5 * kPi))
        return "under a ramp the exact rate needs a threshold above pi/2 (the well bottom "
               "reaches a threshold at " +
               number(threshold) + " before the critical current)";
    } else if (!(p.gamma0 > 0 && p.gamma0 < 1)) {
      return "the exact mean first-passage time needs 0 < gamma < 1 (the washboard must confine "
             "the particle from below), got gamma = " +
             number(p.gamma0);
    }
  }
  return "";
}

std::string ResolvedRun::theory_rate_name() const {
  return exact_rate ? exact_rate_name : rate_formula_name(rate_formula);
}

// ---- Resolution -------------------------------------------------------------------------------

std::string ResolvedRun::fingerprint() const {
  std::ostringstream s;
  s << "mode=" << to_string(input.mode) << " dynamics=" << to_string(input.dynamics)
    << " integrator=" << to_string(input.integrator) << " precision=" << to_string(input.precision)
    << " schedule=" << to_string(input.ensemble.schedule);
  // Only when set, so that checkpoints of runs without it keep their fingerprint.
  if (input.ensemble.float_noise) s << " noise=float";
  for (const LangevinParameters& p : points)
    s << " [V0=" << exact_text(p.V0) << " beta=" << exact_text(p.beta)
      << " theta=" << exact_text(p.theta) << " h=" << exact_text(p.h)
      << " gamma0=" << exact_text(p.gamma0) << " nu=" << exact_text(p.nu)
      << " threshold=" << exact_text(p.escape_threshold()) << " max_steps=" << p.max_steps
      << " realisations=" << p.realisations << " first=" << p.first_realisation
      << " seed=" << p.seed << "]";
  return s.str();
}

ResolvedRun resolve(const RunParameters& in) {
  in.validate();
  ResolvedRun r;
  r.input = in;
  const bool overdamped = in.dynamics == Dynamics::overdamped;
  r.rate_formula = in.rate_formula.value_or(overdamped ? RateFormula::overdamped
                                                       : RateFormula::melnikov_meshkov);
  if (in.physical) {
    const PhysicalInput& p = *in.physical;
    PhysicalJunction j;
    j.resistance = p.resistance;
    j.capacitance = p.capacitance;
    j.critical_current = p.critical_current;
    // Arrhenius runs take their temperatures from the normalised thetas; normalise() still
    // wants one, and its theta is not used.
    j.temperature = in.mode == RunMode::arrhenius ? 1.0 : p.temperature;
    if (in.mode == RunMode::switching)
      j.bias_ramp_rate =
          p.sweep_rate ? *p.sweep_rate
                       : ramp_rate_from_sweep_frequency(p.critical_current, *p.sweep_frequency);
    r.units = normalise(j);
    r.V0 = r.units->v0;
    r.beta = r.units->beta;
    if (in.mode != RunMode::arrhenius) r.theta = r.units->theta;
    if (r.units->nu) r.nu = *r.units->nu;
  } else {
    r.V0 = in.V0;
    r.beta = in.beta;
    if (in.mode != RunMode::arrhenius) r.theta = in.theta;
    if (in.mode == RunMode::switching) r.nu = in.ramp_rate;
  }

  LangevinParameters base;
  base.dynamics = in.dynamics;
  base.integrator = in.integrator;
  base.V0 = r.V0;
  base.beta = r.beta;
  base.h = in.h;
  base.threshold = in.threshold;
  base.max_steps = in.max_steps.value_or(1);
  base.realisations = in.realisations;
  base.first_realisation = in.first_realisation;
  base.seed = in.seed;
  r.max_steps_automatic = !in.max_steps;

  if (in.mode == RunMode::switching) {
    base.theta = r.theta;
    base.nu = r.nu;
    if (in.ramp_gamma0) {
      r.ramp_gamma0 = *in.ramp_gamma0;
    } else {
      r.ramp_start_automatic = true;
      double start = 1.0;
      try {
        const auto rate = washboard_rate(r.rate_formula, r.V0, r.beta, r.theta);
        start = negligible_escape_bias(rate, LinearRamp{0.0, r.nu}, in.ramp_epsilon);
      } catch (const std::exception& e) {
        reject("ramp_gamma0", "auto",
               std::string("the start bias from the switching theory failed: ") + e.what());
      }
      if (!(start < 1.0))
        reject("ramp_gamma0", "auto",
               "the Fulton-Dunkleberger CDF stays below ramp_epsilon = " + number(in.ramp_epsilon) +
                   " up to the critical current (thermal switching is negligible for this ramp); "
                   "give the start bias explicitly");
      r.ramp_gamma0 = start;
    }
    base.gamma0 = r.ramp_gamma0;
    choose_exact_rate(in, exact_rate_unavailable(in.mode, {base}), r);
    if (r.max_steps_automatic) {
      // Past gamma = 1 a particle still needs time to run to the threshold: a margin of
      // natural periods of the untilted well (plasma period or relaxation time).
      const double end = 1.0 + auto_cap_ramp_overshoot * (1.0 - r.ramp_gamma0);
      const double period =
          in.dynamics == Dynamics::underdamped ? 2.0 * kPi / std::sqrt(r.V0) : r.beta / r.V0;
      base.max_steps =
          steps_for((end - r.ramp_gamma0) / r.nu + auto_cap_mean_times * period, in.h,
                    "a ramp from gamma0 = " + number(r.ramp_gamma0) + " to " + number(end));
    }
    r.points.push_back(base);
  } else {
    base.gamma0 = in.gamma;
    const std::vector<double> thetas =
        in.mode == RunMode::arrhenius ? in.thetas : std::vector<double>{r.theta};
    // The exact rate depends on the threshold and the bias, not on theta: decided once.
    LangevinParameters probe = base;
    probe.theta = 1.0;
    const bool exact = choose_exact_rate(in, exact_rate_unavailable(in.mode, {probe}), r);
    for (std::size_t k = 0; k < thetas.size(); ++k) {
      LangevinParameters p = base;
      p.theta = thetas[k];
      p.first_realisation = in.first_realisation + k * in.realisations;
      EscapeTheory t = escape_theory(p, r.rate_formula, exact);
      if (r.max_steps_automatic) {
        const double mean = t.best_mean_time();
        if (!(std::isfinite(mean) && mean > 0))
          reject("max_steps", "auto",
                 "needs a finite theoretical mean escape time at theta = " + number(p.theta) +
                     " (" + (t.status == "ok" ? "the rate underflows" : t.status) +
                     "); give max_steps explicitly");
        p.max_steps = steps_for(auto_cap_mean_times * std::max(mean, natural_time(p)), in.h,
                                "100 mean escape times at theta = " + number(p.theta));
      }
      r.points.push_back(p);
      r.theory.push_back(std::move(t));
    }
  }

  for (const LangevinParameters& p : r.points)
    if (!(p.escape_threshold() > p.start_phase()))
      reject(
          "threshold", number(p.escape_threshold()),
          "expected a threshold above the start phase arcsin(gamma0) = " + number(p.start_phase()));

  // Warnings: the parameters' own (deduplicated over the ensembles) and those about theory.
  std::set<std::string> seen;
  for (std::size_t k = 0; k < r.points.size(); ++k) {
    const LangevinParameters& p = r.points[k];
    p.validate();
    for (const std::string& w : p.warnings())
      if (seen.insert(w).second) r.warnings.push_back(w);
    if (p.beta == 0)
      if (seen.insert("beta0").second)
        r.warnings.push_back(
            "beta = 0: no damping and no noise (D = beta theta = 0), nothing escapes thermally");
    // Forward Euler feeds energy into an oscillation of frequency omega0 at the rate
    // omega0^2 h, against the damping beta: the stationary <v^2> is theta beta / (beta -
    // omega0^2 h), a hotter effective temperature (a checked property of the scheme for the
    // harmonic well; Heun's error is of higher order in h).
    if (p.dynamics == Dynamics::underdamped && p.integrator == Integrator::euler && p.beta > 0) {
      const double heating = p.V0 * std::sqrt((1.0 - p.gamma0) * (1.0 + p.gamma0)) * p.h / p.beta;
      if (heating >= 1.0) {
        if (seen.insert("euler unstable").second)
          r.warnings.push_back("omega0^2 h / beta = " + rounded(heating) +
                               " >= 1: the Euler scheme heats the oscillation faster than the "
                               "damping cools it; the results are meaningless (use heun or a "
                               "smaller h)");
      } else if (heating > kEulerHeating) {
        if (seen.insert("euler heating").second)
          r.warnings.push_back(
              "omega0^2 h / beta = " + rounded(heating) +
              ": Euler's forward step heats the oscillation, an effective temperature about " +
              rounded(100 * heating / (1 - heating)) +
              "% above theta in the well (theta beta / (beta - omega0^2 h)); use integrator heun "
              "or a smaller h where this matters");
      }
    }
    // At the saddle an overdamped trajectory recrosses the threshold many times within a
    // step, and checking phi only at the steps records escapes late by O(sqrt(h)): the exact
    // mean first-passage time of the discrete chain is 3.8 % long at h = 0.005 and 7.5 % at
    // h = 0.02 for V0 = beta = 1, gamma = 0.5, theta = 0.25 (about 53 % sqrt(h)); 1.5 rad past
    // the saddle about 0.75 % sqrt(h). "At the saddle": within the width sqrt(theta /
    // omega_b^2) of the barrier top, where the drift does not yet carry trajectories on.
    if (p.dynamics == Dynamics::overdamped && in.mode != RunMode::switching && p.gamma0 >= 0) {
      const double curvature = p.V0 * std::sqrt((1.0 - p.gamma0) * (1.0 + p.gamma0));
      const double width = std::sqrt(p.theta / curvature);
      if (std::fabs(p.escape_threshold() - saddle_point(p.gamma0)) < width &&
          seen.insert("saddle threshold").second)
        r.warnings.push_back(
            "threshold " + rounded(p.escape_threshold()) + " at the saddle " +
            rounded(saddle_point(p.gamma0)) +
            " (within sqrt(theta / omega_b^2)): checking phi only at the steps makes overdamped "
            "escape times late by O(sqrt(h)), about 53 % sqrt(h) for V0 = beta = 1, gamma = 0.5, "
            "theta = 0.25 (+3.8 % at h = 0.005, +7.5 % at h = 0.02); a threshold 1-1.5 rad past "
            "the saddle makes it about 0.75 % sqrt(h) (the exact theory follows the threshold)");
    }
    if (k < r.theory.size()) {
      const double ratio = r.theory[k].barrier / p.theta;
      if (ratio < kLowBarrier)
        r.warnings.push_back(
            "theta = " + number(p.theta) + ": DeltaU / theta = " + rounded(ratio) + " is small; " +
            (r.exact_rate ? "the Kramers-type values (kramers_*; leading order in theta / DeltaU) "
                            "are not reliable there, and the exponential CDF of the exact mean "
                            "time is only approximate"
                          : "the Kramers-type theory (leading order in theta / DeltaU) is not "
                            "reliable there"));
    }
  }
  return r;
}

// ---- Simulation -------------------------------------------------------------------------------

std::uint64_t PointRecord::steps_integrated() const {
  return std::accumulate(results.steps.begin(), results.steps.end(), std::uint64_t{0});
}

namespace detail {
struct RunEngine {
  virtual ~RunEngine() = default;
  virtual void advance(std::uint64_t steps_per_slot) = 0;
  virtual bool done() const = 0;
  virtual std::uint64_t finished() const = 0;
  virtual std::int64_t slot_count() const = 0;
  virtual EnsembleResults results() const = 0;
  virtual RealisationStates states() const = 0;
  virtual void restore(const RealisationStates& states) = 0;
};
}  // namespace detail

namespace {

template <class Space, class Real>
class EngineIn final : public detail::RunEngine {
 public:
  EngineIn(const Space& space, const LangevinParameters& p, const EnsembleOptions& o)
      : ensemble_(space, p, o) {}
  void advance(std::uint64_t steps) override { ensemble_.advance(steps); }
  bool done() const override { return ensemble_.done(); }
  std::uint64_t finished() const override { return ensemble_.finished(); }
  std::int64_t slot_count() const override { return ensemble_.slot_count(); }
  EnsembleResults results() const override { return ensemble_.results(); }
  RealisationStates states() const override { return realisation_states(ensemble_.checkpoint()); }
  void restore(const RealisationStates& states) override {
    // Realisations at rest start from the phase in the ensemble's precision, as its own do.
    const double start =
        static_cast<double>(static_cast<Real>(ensemble_.parameters().start_phase()));
    ensemble_.restore(deal_to_slots(states, ensemble_.slot_count(),
                                    ensemble_.options().schedule == Schedule::refill, start));
  }

 private:
  Ensemble<Space, Real> ensemble_;
};

template <class Space>
std::unique_ptr<detail::RunEngine> make_engine(const Space& space, Precision precision,
                                               const LangevinParameters& p,
                                               const EnsembleOptions& o) {
  if (precision == Precision::single_precision)
    return std::make_unique<EngineIn<Space, float>>(space, p, o);
  return std::make_unique<EngineIn<Space, double>>(space, p, o);
}

[[noreturn]] void bad_checkpoint(const std::string& what) {
  throw std::invalid_argument("josephson run: " + what);
}

}  // namespace

template <class Space>
Simulation<Space>::Simulation(const Space& space, const ResolvedRun& run,
                              const parallel::Communicator& comm)
    : space_(space), run_(run), comm_(comm) {
  if (run_.points.empty()) throw std::invalid_argument("josephson run: no ensemble to run");
  const auto ranks = static_cast<std::uint64_t>(comm_.size());
  for (const LangevinParameters& p : run_.points) {
    if (p.realisations < ranks)
      throw RunParameterError("realisations",
                              "josephson run: realisations = " + std::to_string(p.realisations) +
                                  " are fewer than the " + std::to_string(ranks) +
                                  " MPI ranks; every rank needs at least one (use fewer ranks)");
    const parallel::Share share = parallel::share_of(p.realisations, comm_);
    LangevinParameters mine = p;
    mine.realisations = share.size();
    mine.first_realisation = p.first_realisation + share.begin;
    shares_.push_back(mine);
  }
  waiting_.resize(run_.points.size());
}

template <class Space>
std::vector<PointRecord> Simulation<Space>::gathered_points() const {
  if (comm_.size() == 1) return finished_;
  std::vector<PointRecord> all;
  for (const PointRecord& p : finished_) {
    PointRecord g;
    g.results = gather_results(p.results, comm_);
    g.slots = comm_.sum(static_cast<std::int64_t>(p.slots));
    g.seconds = comm_.max(p.seconds);
    g.launches = comm_.max(static_cast<std::uint64_t>(p.launches));
    if (comm_.is_root()) all.push_back(std::move(g));
  }
  return all;
}

template <class Space>
Simulation<Space>::~Simulation() = default;

template <class Space>
bool Simulation<Space>::done() const {
  return finished_.size() == run_.points.size();
}

template <class Space>
void Simulation<Space>::start_engine(std::size_t k, const RealisationStates* states) {
  const EnsembleOptions& options = run_.input.ensemble;
  engine_ = make_engine(space_, run_.input.precision, shares_[k], options);
  if (states == nullptr) return;
  // The realisations in flight (and those the counter cannot reach) each need a slot; more
  // than this machine's default only after a restart on fewer ranks.
  const std::int64_t needed = slots_needed(*states, options.schedule == Schedule::refill);
  if (needed > engine_->slot_count()) {
    EnsembleOptions more = options;
    more.slots = needed;
    engine_ = make_engine(space_, run_.input.precision, shares_[k], more);
  }
  engine_->restore(*states);
}

template <class Space>
void Simulation<Space>::begin_point() {
  const std::size_t k = finished_.size();
  std::optional<PointProgress> waiting = std::move(waiting_[k]);
  waiting_[k].reset();
  start_engine(k, waiting ? &waiting->states : nullptr);
  current_ = waiting ? waiting->record : PointRecord{};
  current_.results = EnsembleResults{};
  current_.slots = engine_->slot_count();
}

template <class Space>
void Simulation<Space>::finish_point() {
  current_.results = engine_->results();
  finished_.push_back(std::move(current_));
  current_ = PointRecord{};
  engine_.reset();
}

template <class Space>
void Simulation<Space>::advance() {
  if (done()) return;
  if (!engine_) begin_point();
  const double t0 = seconds_now();
  engine_->advance(run_.input.ensemble.steps_per_launch);
  current_.seconds += seconds_now() - t0;
  ++current_.launches;
  if (engine_->done()) finish_point();
}

template <class Space>
double Simulation<Space>::fraction_done() const {
  double total = 0, finished = 0;
  for (std::size_t k = 0; k < shares_.size(); ++k) {
    total += double(shares_[k].realisations);
    if (k < finished_.size()) finished += double(shares_[k].realisations);
    if (waiting_[k]) finished += double(waiting_[k]->states.finished());
  }
  if (engine_) finished += double(engine_->finished());
  return total > 0 ? finished / total : 1.0;
}

template <class Space>
std::string Simulation<Space>::status() const {
  if (done()) return "done";
  const std::size_t k = finished_.size();
  const auto n = static_cast<unsigned long long>(shares_[k].realisations);
  const unsigned long long f = engine_ ? engine_->finished() : 0;
  char text[160];
  if (run_.input.mode == RunMode::arrhenius)
    std::snprintf(text, sizeof text, "theta %.4g (%zu/%zu): %llu/%llu finished",
                  run_.points[k].theta, k + 1, run_.points.size(), f, n);
  else
    std::snprintf(text, sizeof text, "%llu/%llu finished", f, n);
  return text;
}

template <class Space>
RealisationStates Simulation<Space>::local_states(std::size_t k) const {
  if (k < finished_.size()) {
    RealisationStates s;
    s.results = finished_[k].results;
    return s;
  }
  if (k == finished_.size() && engine_) return engine_->states();
  if (waiting_[k]) return waiting_[k]->states;
  return unstarted_realisations(shares_[k].realisations, shares_[k].h);
}

template <class Space>
PointRecord Simulation<Space>::local_record(std::size_t k) const {
  PointRecord r;
  if (k < finished_.size())
    r = finished_[k];
  else if (k == finished_.size() && engine_)
    r = current_;
  else if (waiting_[k])
    r = waiting_[k]->record;
  r.results = EnsembleResults{};
  return r;
}

template <class Space>
RunCheckpoint Simulation<Space>::checkpoint() const {
  RunCheckpoint c;
  c.fingerprint = run_.fingerprint();
  // The ensembles some rank has started: every rank takes part in gathering each of them.
  std::int64_t started = static_cast<std::int64_t>(finished_.size()) + (engine_ ? 1 : 0);
  for (std::size_t k = 0; k < waiting_.size(); ++k)
    if (waiting_[k]) started = std::max(started, static_cast<std::int64_t>(k) + 1);
  started = comm_.max(started);
  for (std::size_t k = 0; k < static_cast<std::size_t>(started); ++k) {
    PointProgress p;
    p.states = gather_realisations(local_states(k), comm_);
    const PointRecord mine = local_record(k);
    p.record.slots = comm_.sum(static_cast<std::int64_t>(mine.slots));
    p.record.seconds = comm_.max(mine.seconds);
    p.record.launches = comm_.max(static_cast<std::uint64_t>(mine.launches));
    if (comm_.is_root()) c.points.push_back(std::move(p));
  }
  return c;
}

template <class Space>
void Simulation<Space>::restore(const RunCheckpoint& c) {
  const std::string mine = run_.fingerprint();
  if (c.fingerprint != mine)
    bad_checkpoint("the checkpoint belongs to another run:\n  checkpoint: " + c.fingerprint +
                   "\n  this run:   " + mine);
  if (c.points.size() > run_.points.size())
    bad_checkpoint("inconsistent checkpoint: more ensembles than the run has");
  for (std::size_t k = 0; k < c.points.size(); ++k) {
    const RealisationStates& s = c.points[k].states;
    validate(s, "josephson checkpoint");
    if (s.size() != run_.points[k].realisations)
      bad_checkpoint("inconsistent checkpoint: an ensemble with " + std::to_string(s.size()) +
                     " realisations, expected " + std::to_string(run_.points[k].realisations));
  }
  finished_.clear();
  engine_.reset();
  current_ = PointRecord{};
  waiting_.assign(run_.points.size(), std::nullopt);
  const auto ranks = static_cast<std::int64_t>(comm_.size());
  for (std::size_t k = 0; k < c.points.size(); ++k) {
    const LangevinParameters& share = shares_[k];
    const std::uint64_t begin = share.first_realisation - run_.points[k].first_realisation;
    PointProgress p;
    p.states = select_realisations(c.points[k].states, begin, begin + share.realisations);
    // Timing of the whole ensemble: every rank carries the seconds and launches so far (the
    // output takes their maximum), and its part of the slots.
    p.record = c.points[k].record;
    p.record.slots = (p.record.slots + ranks - 1) / ranks;
    const bool in_order = finished_.size() == k && !engine_;
    if (in_order && p.states.complete()) {
      p.record.results = std::move(p.states.results);
      finished_.push_back(std::move(p.record));
    } else if (in_order) {
      start_engine(k, &p.states);
      current_ = p.record;
      current_.slots = engine_->slot_count();
    } else if (!p.states.untouched()) {
      waiting_[k] = std::move(p);
    }
  }
}

#define PORTAMC_JOSEPHSON_INSTANTIATE_(S) template class Simulation<S>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_JOSEPHSON_INSTANTIATE_)
#undef PORTAMC_JOSEPHSON_INSTANTIATE_

}  // namespace portamc::josephson

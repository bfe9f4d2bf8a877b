// portamc-josephson: Langevin ensembles of a current-biased Josephson junction (the paper's
// normalised RCSJ model): escape times at constant bias, switching currents under a bias ramp,
// and Arrhenius scans of the mean escape time over temperature, each with its theory alongside.
// YAML in (input/josephson*.yaml), HDF5 out (docs/output.md); checkpoints and resume through the
// run protocol (run_protocol.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "portamc/app.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_analysis.hpp"
#include "portamc/josephson/run_output.hpp"
#include "portamc/josephson/switching_theory.hpp"
#include "portamc/run_protocol.hpp"

namespace {

using namespace portamc;
using namespace portamc::josephson;
using config::Integer, config::Real, config::RealList, config::String;
using Rule = std::optional<std::string>;

constexpr double kHuge = 1e300;  // upper bound of keys that only need to be positive

// A number written as text (keys that also take a word such as `auto`); nullopt if the text is
// not entirely a number.
std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || std::isnan(v)) return std::nullopt;
  return v;
}

std::string config_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

bool normalised_given(const config::Config& c) {
  return c.real("junction.V0") > 0 || c.real("junction.beta") > 0 || c.real("junction.theta") > 0;
}

const char* const kPhysicalKeys[] = {"physical.resistance",       "physical.capacitance",
                                     "physical.critical_current", "physical.temperature",
                                     "physical.sweep_rate",       "physical.sweep_frequency"};

bool physical_given(const config::Config& c) {
  for (const char* key : kPhysicalKeys)
    if (c.real(key) > 0) return true;
  return false;
}

// Exactly one junction block: the other rules about junction keys apply only then.
bool one_junction(const config::Config& c) {
  return normalised_given(c) != physical_given(c);
}

RunMode mode_of(const config::Config& c) {
  return parse_run_mode(c.string("mode"));
}

// The junction in physical units as the configuration gives it (switching: with its sweep).
PhysicalInput physical_of(const config::Config& c) {
  PhysicalInput p;
  p.resistance = c.real("physical.resistance");
  p.capacitance = c.real("physical.capacitance");
  p.critical_current = c.real("physical.critical_current");
  p.temperature = c.real("physical.temperature");
  if (c.real("physical.sweep_rate") > 0) p.sweep_rate = c.real("physical.sweep_rate");
  if (c.real("physical.sweep_frequency") > 0)
    p.sweep_frequency = c.real("physical.sweep_frequency");
  return p;
}

config::Schema make_schema() {
  config::Schema s("portamc-josephson");
  s.add("mode", String{"escape", {"escape", "switching", "arrhenius"}},
        "escape: escape times at the constant bias bias.gamma; switching: switching biases under "
        "a linear ramp; arrhenius: one escape ensemble per arrhenius.theta")
      .add("junction.V0", Real{0, kHuge, 0},
           "normalised junction: V0 = E_J / E_C (> 0); all junction.* 0 = not given (give "
           "junction.* or physical.*, not both)")
      .add("junction.beta", Real{0, kHuge, 0}, "normalised damping beta = hbar / (R (2e)^2), >= 0")
      .add("junction.theta", Real{0, kHuge, 0},
           "normalised temperature theta = k_B T / E_C (> 0; not in arrhenius mode)", "E_C")
      .add("physical.resistance", Real{0, kHuge, 0},
           "physical junction: shunt resistance R (> 0); all physical.* 0 = not given", "ohm")
      .add("physical.capacitance", Real{0, kHuge, 0}, "capacitance C (> 0)", "F")
      .add("physical.critical_current", Real{0, kHuge, 0}, "critical current I_c (> 0)", "A")
      .add("physical.temperature", Real{0, kHuge, 0}, "temperature T (> 0; not in arrhenius mode)",
           "K")
      .add("physical.sweep_rate", Real{0, kHuge, 0},
           "switching: bias sweep dI/dt (give this or sweep_frequency; 0 = not given)", "A/s")
      .add("physical.sweep_frequency", Real{0, kHuge, 0},
           "switching: sawtooth sweep frequency f, 0 -> I_c once per period: dI/dt = I_c f", "Hz")
      .add("model.dynamics", String{"underdamped", {"underdamped", "overdamped"}},
           "phi'' + beta phi' = -U' + xi, or its overdamped limit beta phi' = -U' + xi")
      .add("model.integrator", String{"euler", {"euler", "heun"}},
           "Euler-Maruyama (the paper's) or stochastic Heun")
      .add("model.precision", String{"double", {"float", "double"}},
           "precision of the trajectories (the bias is always evaluated in double)")
      .add("model.noise_precision", String{"same", {"same", "float"}},
           "precision of the Gaussian normals: same as model.precision, or float (double "
           "trajectories only: ~40% less FP64 work per step; the normals differ from double ones "
           "by ~6e-8 relative, a different but equally valid chain)")
      .add("model.h", Real{0, 1e6, 0.004}, "time step (> 0)", "hbar/E_C")
      .add("model.threshold", String{"saddle", {}},
           "escape when phi exceeds this (rad): a number, or `saddle` = pi - arcsin(gamma0)")
      .add("bias.gamma", Real{-1, 1, 0.5},
           "escape, arrhenius: constant bias gamma = I / I_c, |gamma| < 1")
      .add("ramp.gamma0", String{"0", {}},
           "switching: bias at which the ramp starts, a number in (-1, 1) or `auto` (where the "
           "Fulton-Dunkleberger CDF from 0 reaches ramp.epsilon)")
      .add("ramp.epsilon", Real{1e-300, 0.5, josephson::default_ramp_epsilon},
           "ramp.gamma0 auto: switching probability (theory) skipped before the start")
      .add("ramp.rate", Real{0, kHuge, 0},
           "switching, normalised junction: nu = d gamma / dt (> 0; 0 = not given)", "1/(hbar/E_C)")
      .add("run.realisations", Integer{1, 1LL << 62, 1024}, "realisations (per ensemble)")
      .add("run.max_steps",
           Integer{1, static_cast<long long>(josephson::max_step_cap), std::nullopt, true, true},
           "step cap after which a realisation is censored; auto: 100 theoretical mean escape "
           "times (constant bias), or until the ramp is 10% past gamma = 1 plus 100 periods",
           "steps")
      .add("run.seed", Integer{0, 1LL << 62, 1}, "random seed")
      .add("run.first_realisation", Integer{0, 1LL << 62, 0},
           "RNG entity of the first realisation (split a run over jobs with disjoint ranges)")
      .add("run.schedule", String{"refill", {"refill", "one_per_thread"}},
           "refill: finished slots take the next realisation; one_per_thread: static assignment")
      .add("run.slots", Integer{1, 1LL << 40, std::nullopt, true, true},
           "refill: concurrent trajectories; auto: the device's concurrency")
      .add("run.steps_per_launch", Integer{1, 1LL << 40, 1LL << 16},
           "steps per slot in one kernel launch (progress, signals and checkpoints in between)",
           "steps")
      .add("run.compact_below", Real{0, 1, 0.5},
           "refill: pack busy slots when fewer than this fraction are busy (0: never)")
      .add("arrhenius.theta", RealList{0, kHuge, std::vector<double>{}, 0},
           "arrhenius: the temperatures theta = k_B T / E_C, one escape ensemble each (> 0); the "
           "paper's noise strength is D = beta theta",
           "E_C")
      .add("analysis.histogram_bins", Integer{1, 1000000, 50},
           "bins of the histograms of escape times / switching biases")
      .add("analysis.theory_points", Integer{2, 1000000, 200}, "points of the theory curves")
      .add("theory.rate",
           String{"auto",
                  {"auto", "exact", "kramers", "overdamped", "kramers_moderate", "energy_diffusion",
                   "melnikov_meshkov"}},
           "escape rate the theory is built on: exact (overdamped dynamics only: the Pontryagin "
           "mean first-passage time to the threshold), kramers (the leading-order formula of the "
           "dynamics: overdamped or melnikov_meshkov) or a Kramers-type formula (kramers.hpp); "
           "auto: exact where it exists, else kramers")
      .add("output.file", String{"josephson.h5", {}}, "HDF5 result file");
  app::add_checkpoint_keys(s, "one kernel launch of every rank's share of the current ensemble");

  // ---- The junction: exactly one block, each complete and positive ----------------------------
  s.check(
      [](const config::Config& c) -> Rule {
        if (normalised_given(c) && physical_given(c))
          return "give the junction in normalised units (junction.*) or in physical units "
                 "(physical.*), not both";
        return std::nullopt;
      },
      "physical");
  s.check(
      [](const config::Config& c) -> Rule {
        if (!normalised_given(c) && !physical_given(c))
          return "no junction given: set junction.V0, junction.beta, junction.theta (normalised) "
                 "or physical.resistance, capacitance, critical_current, temperature";
        return std::nullopt;
      },
      "junction");
  s.check(
      [](const config::Config& c) -> Rule {
        if (one_junction(c) && normalised_given(c) && !(c.real("junction.V0") > 0))
          return "expected V0 = E_J / E_C > 0";
        return std::nullopt;
      },
      "junction.V0");
  s.check(
      [](const config::Config& c) -> Rule {
        if (!one_junction(c) || !normalised_given(c)) return std::nullopt;
        const bool arrhenius = mode_of(c) == RunMode::arrhenius;
        const double theta = c.real("junction.theta");
        if (arrhenius && theta != 0)
          return "not used in arrhenius mode: the temperatures are arrhenius.theta";
        if (!arrhenius && !(theta > 0)) return "expected a temperature theta = k_B T / E_C > 0";
        return std::nullopt;
      },
      "junction.theta");
  s.check(
      [](const config::Config& c) -> Rule {
        if (one_junction(c) && normalised_given(c) && c.string("model.dynamics") == "overdamped" &&
            !(c.real("junction.beta") > 0))
          return "the overdamped dynamics divides by beta: expected beta > 0";
        return std::nullopt;
      },
      "junction.beta");
  for (const char* key :
       {"physical.resistance", "physical.capacitance", "physical.critical_current"}) {
    s.check(
        [key](const config::Config& c) -> Rule {
          if (one_junction(c) && physical_given(c) && !(c.real(key) > 0))
            return "a physical junction needs R, C and I_c > 0";
          return std::nullopt;
        },
        key);
  }
  s.check(
      [](const config::Config& c) -> Rule {
        if (!one_junction(c) || !physical_given(c)) return std::nullopt;
        const bool arrhenius = mode_of(c) == RunMode::arrhenius;
        const double t = c.real("physical.temperature");
        if (arrhenius && t != 0)
          return "not used in arrhenius mode: the temperatures are arrhenius.theta (normalised)";
        if (!arrhenius && !(t > 0)) return "a physical junction needs a temperature T > 0";
        return std::nullopt;
      },
      "physical.temperature");
  s.check(
      [](const config::Config& c) -> Rule {
        if (!one_junction(c) || !physical_given(c)) return std::nullopt;
        const bool rate = c.real("physical.sweep_rate") > 0;
        const bool frequency = c.real("physical.sweep_frequency") > 0;
        if (mode_of(c) != RunMode::switching && (rate || frequency))
          return "a sweep only applies to mode: switching";
        if (mode_of(c) == RunMode::switching && rate == frequency)
          return "a switching run needs exactly one of physical.sweep_rate and "
                 "physical.sweep_frequency";
        return std::nullopt;
      },
      "physical.sweep_rate");
  // Valid inputs can still give a non-physical normalised junction (units.hpp says which).
  s.check(
      [](const config::Config& c) -> Rule {
        if (!one_junction(c) || !physical_given(c)) return std::nullopt;
        const PhysicalInput p = physical_of(c);
        const bool arrhenius = mode_of(c) == RunMode::arrhenius;
        // Arrhenius runs take theta from their list; normalise() still wants a temperature.
        PhysicalJunction j{p.resistance, p.capacitance, p.critical_current,
                           arrhenius ? 1.0 : p.temperature, std::nullopt};
        if (!(j.resistance > 0 && j.capacitance > 0 && j.critical_current > 0 && j.temperature > 0))
          return std::nullopt;  // reported by the rules of the keys
        try {
          if (mode_of(c) == RunMode::switching && p.sweep_rate) j.bias_ramp_rate = *p.sweep_rate;
          if (mode_of(c) == RunMode::switching && p.sweep_frequency)
            j.bias_ramp_rate =
                ramp_rate_from_sweep_frequency(j.critical_current, *p.sweep_frequency);
          normalise(j);
        } catch (const std::exception& e) {
          return std::string("these physical values are not usable: ") + e.what();
        }
        return std::nullopt;
      },
      "physical");

  // ---- Integration, bias and ramp -------------------------------------------------------------
  s.check(
      [](const config::Config& c) -> Rule {
        if (!(c.real("model.h") > 0)) return "expected a time step h > 0";
        return std::nullopt;
      },
      "model.h");
  s.check(
      [](const config::Config& c) -> Rule {
        const double g = c.real("bias.gamma");
        if (mode_of(c) != RunMode::switching && !(std::fabs(g) < 1))
          return "gamma = " + config_number(g) +
                 ": at a constant bias |gamma| >= 1 leaves no barrier to escape over; expected "
                 "|gamma| < 1";
        return std::nullopt;
      },
      "bias.gamma");
  s.check(
      [](const config::Config& c) -> Rule {
        const std::string& t = c.string("model.threshold");
        if (t == "saddle") return std::nullopt;
        const auto v = parse_number(t);
        if (!v) return "expected `saddle` or a number (radians), got '" + t + "'";
        if (mode_of(c) != RunMode::switching && std::fabs(c.real("bias.gamma")) < 1 &&
            !(*v > std::asin(c.real("bias.gamma"))))
          return "the threshold must lie above the start phase arcsin(gamma) = " +
                 config_number(std::asin(c.real("bias.gamma")));
        return std::nullopt;
      },
      "model.threshold");
  s.check(
      [](const config::Config& c) -> Rule {
        const std::string& t = c.string("ramp.gamma0");
        if (t == "auto") return std::nullopt;
        const auto v = parse_number(t);
        if (!v || !(*v > -1 && *v < 1))
          return "expected `auto` or a start bias in (-1, 1), got '" + t + "'";
        return std::nullopt;
      },
      "ramp.gamma0");
  s.check(
      [](const config::Config& c) -> Rule {
        const double nu = c.real("ramp.rate");
        if (mode_of(c) != RunMode::switching)
          return nu > 0 ? Rule("a ramp rate only applies to mode: switching") : std::nullopt;
        if (!one_junction(c)) return std::nullopt;
        if (physical_given(c) && nu > 0)
          return "the junction is physical: its ramp comes from physical.sweep_rate or "
                 "physical.sweep_frequency";
        if (normalised_given(c) && !(nu > 0))
          return "a switching run needs a ramp rate nu = d gamma / dt > 0";
        return std::nullopt;
      },
      "ramp.rate");

  // ---- Theory ---------------------------------------------------------------------------------
  s.check(
      [](const config::Config& c) -> Rule {
        if (c.string("theory.rate") == "exact" && c.string("model.dynamics") != "overdamped")
          return "there is no exact escape rate for underdamped dynamics (the exact mean "
                 "first-passage time is that of the overdamped equation): use kramers or a "
                 "Kramers-type formula";
        return std::nullopt;
      },
      "theory.rate");

  // ---- Arrhenius ------------------------------------------------------------------------------
  s.check(
      [](const config::Config& c) -> Rule {
        const auto& thetas = c.real_list("arrhenius.theta");
        if (mode_of(c) != RunMode::arrhenius)
          return thetas.empty() ? std::nullopt
                                : Rule("a list of temperatures only applies to mode: arrhenius");
        if (thetas.empty()) return "arrhenius mode needs at least one temperature theta";
        for (std::size_t k = 0; k < thetas.size(); ++k)
          if (!(thetas[k] > 0))
            return "theta[" + std::to_string(k) + "] = " + config_number(thetas[k]) +
                   ": expected a temperature > 0";
        return std::nullopt;
      },
      "arrhenius.theta");
  return s;
}

RunParameters to_parameters(const config::Config& c) {
  RunParameters p;
  p.mode = mode_of(c);
  p.dynamics = parse_dynamics(c.string("model.dynamics"));
  p.integrator = parse_integrator(c.string("model.integrator"));
  p.precision = parse_precision(c.string("model.precision"));
  p.ensemble.float_noise =
      p.precision == Precision::double_precision && c.string("model.noise_precision") == "float";
  if (physical_given(c)) {
    p.physical = physical_of(c);
  } else {
    p.V0 = c.real("junction.V0");
    p.beta = c.real("junction.beta");
    p.theta = c.real("junction.theta");
  }
  p.h = c.real("model.h");
  if (c.string("model.threshold") != "saddle")
    p.threshold = parse_number(c.string("model.threshold"));
  p.gamma = c.real("bias.gamma");
  p.ramp_rate = c.real("ramp.rate");
  p.ramp_gamma0 =
      c.string("ramp.gamma0") == "auto" ? std::nullopt : parse_number(c.string("ramp.gamma0"));
  p.ramp_epsilon = c.real("ramp.epsilon");
  const auto cap = c.integer_or_auto("run.max_steps");
  p.max_steps = cap ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*cap)) : std::nullopt;
  p.realisations = static_cast<std::uint64_t>(c.integer("run.realisations"));
  p.first_realisation = static_cast<std::uint64_t>(c.integer("run.first_realisation"));
  p.seed = static_cast<std::uint64_t>(c.integer("run.seed"));
  p.thetas = c.real_list("arrhenius.theta");
  p.ensemble.schedule =
      c.string("run.schedule") == "refill" ? Schedule::refill : Schedule::one_per_thread;
  p.ensemble.slots = c.integer_or_auto("run.slots").value_or(0);
  p.ensemble.steps_per_launch = static_cast<std::uint64_t>(c.integer("run.steps_per_launch"));
  p.ensemble.compact_below = c.real("run.compact_below");
  const std::string& rate = c.string("theory.rate");
  if (rate == "auto" || rate == "exact" || rate == "kramers") {
    p.theory_rate = parse_theory_rate(rate);
  } else {
    p.theory_rate = TheoryRate::kramers;
    p.rate_formula = parse_rate_formula(rate);
  }
  p.histogram_bins = static_cast<int>(c.integer("analysis.histogram_bins"));
  p.theory_points = static_cast<int>(c.integer("analysis.theory_points"));
  return p;
}

// The configuration key of a RunParameters member named by a RunParameterError.
std::string key_of(const std::string& parameter) {
  static const std::map<std::string, std::string> keys = {
      {"V0", "junction.V0"},
      {"beta", "junction.beta"},
      {"theta", "junction.theta"},
      {"h", "model.h"},
      {"threshold", "model.threshold"},
      {"gamma", "bias.gamma"},
      {"ramp_rate", "ramp.rate"},
      {"ramp_gamma0", "ramp.gamma0"},
      {"ramp_epsilon", "ramp.epsilon"},
      {"max_steps", "run.max_steps"},
      {"realisations", "run.realisations"},
      {"first_realisation", "run.first_realisation"},
      {"thetas", "arrhenius.theta"},
      {"histogram_bins", "analysis.histogram_bins"},
      {"theory_points", "analysis.theory_points"},
      {"theory_rate", "theory.rate"},
      {"rate_formula", "theory.rate"},
      {"ensemble", "run"}};
  const auto it = keys.find(parameter);
  return it != keys.end() ? it->second : parameter;  // physical.* are already keys
}

ResolvedRun resolve_input(const RunParameters& p) {
  try {
    return resolve(p);
  } catch (const RunParameterError& e) {
    throw app::BadInput(key_of(e.parameter) + ": " + e.what());
  } catch (const std::domain_error& e) {
    throw app::BadInput(std::string("physical: ") + e.what());
  }
}

// Host memory of a run: every realisation's result stays on the host until the output is
// written, and the output is built in memory. About 90 bytes per realisation were measured
// (Serial build, 2026-11-28: 1e6 and 4e6 censored realisations); 160 leaves room for escape
// data and the output's copy while it is written.
std::size_t host_bytes(const ResolvedRun& r) {
  constexpr std::size_t per_realisation = 160;
  constexpr std::size_t most = std::numeric_limits<std::size_t>::max() / per_realisation;
  std::size_t realisations = 0;
  for (const auto& point : r.points)
    realisations = std::min<std::size_t>(most, realisations + point.realisations);
  return realisations * per_realisation;
}

void print_resolved(const ResolvedRun& r) {
  const RunParameters& in = r.input;
  std::fprintf(stderr, "mode %s, %s %s, %s%s; V0 = %.6g, beta = %.6g", to_string(in.mode),
               to_string(in.dynamics), to_string(in.integrator), to_string(in.precision),
               in.ensemble.float_noise ? " (float normals)" : "", r.V0, r.beta);
  if (in.mode != RunMode::arrhenius)
    std::fprintf(stderr, ", theta = %.6g (D = beta theta = %.6g)", r.theta, r.beta * r.theta);
  std::fprintf(stderr, ", h = %g\n", in.h);
  if (r.units)
    std::fprintf(stderr,
                 "  from physical units: E_C = %.6g J, E_J = %.6g J, t0 = hbar/E_C = %.6g s, "
                 "omega_p = %.6g rad/s, Q = %.4g\n",
                 r.units->charging_energy, r.units->josephson_energy, r.units->time_unit,
                 r.units->plasma_frequency, r.units->quality_factor);
  if (in.mode == RunMode::switching)
    std::fprintf(stderr, "  ramp: gamma0 = %.10g%s, nu = %.6g per unit time (%.3g per step)\n",
                 r.ramp_gamma0, r.ramp_start_automatic ? " (auto)" : "", r.nu, r.nu * in.h);
  std::fprintf(stderr, "  theory rate: %s\n", r.theory_rate_name().c_str());
  for (std::size_t k = 0; k < r.points.size(); ++k) {
    const LangevinParameters& p = r.points[k];
    std::fprintf(stderr, "  ensemble %zu: %llu realisations, max_steps = %llu%s", k,
                 static_cast<unsigned long long>(p.realisations),
                 static_cast<unsigned long long>(p.max_steps),
                 r.max_steps_automatic ? " (auto)" : "");
    if (k < r.theory.size())
      std::fprintf(stderr, ", theta = %.6g, DeltaU/theta = %.4g, theory <tau> = %.6g", p.theta,
                   r.theory[k].barrier / p.theta, r.theory[k].mean_time);
    std::fprintf(stderr, "\n");
  }
}

void print_summary(const ResolvedRun& r, const std::vector<PointRecord>& points,
                   const RunAnalysis& a) {
  const auto rate = [](const PointRecord& p) {
    return p.seconds > 0 ? double(p.steps_integrated()) / p.seconds : 0.0;
  };
  if (r.input.mode == RunMode::switching) {
    const SampleSummary& s = a.samples.front();
    if (s.escaped == 0)
      std::printf("switched 0 of %zu (%zu censored)\n", s.realisations, s.censored);
    else
      std::printf(
          "switched %zu of %zu (%zu censored): <gamma_sw> = %.8f +- %.2e, std = %.6f +- "
          "%.2e  [%.3g steps/s]\n",
          s.escaped, s.realisations, s.censored, s.mean, s.mean_error, s.standard_deviation,
          s.standard_deviation_error, rate(points.front()));
    const SwitchingTheoryCurves& t = *a.switching;
    if (t.status == "ok")
      std::printf("Fulton-Dunkleberger (%s): <gamma_sw> = %.8f, std = %.6f\n", t.rate_name.c_str(),
                  t.moments.mean, t.moments.standard_deviation);
    else
      std::printf("Fulton-Dunkleberger (%s): %s\n", t.rate_name.c_str(), t.status.c_str());
    return;
  }
  std::printf("%10s %11s %24s %12s %9s %14s\n", "theta", "D", "<tau>", "median", "censored",
              "theory <tau>");
  for (std::size_t k = 0; k < points.size(); ++k) {
    const SampleSummary& s = a.samples[k];
    const double theta = r.points[k].theta;
    std::printf("%10.5g %11.5g %12.6g +- %9.2e %12.6g %9zu %14.6g  [%.3g steps/s]\n", theta,
                r.beta * theta, s.mean, s.mean_error, s.median, s.censored, r.theory[k].mean_time,
                rate(points[k]));
  }
  std::printf("theory <tau>: %s\n", r.theory_rate_name().c_str());
  if (a.arrhenius) {
    const ArrheniusAnalysis& f = *a.arrhenius;
    for (auto [name, fit] : {std::pair{"eq. 12, ln <tau>", &f.plain},
                             std::pair{"eq. 13, ln (theta <tau>)", &f.theta_prefactor}}) {
      if (fit->status.rfind("ok", 0) == 0)
        std::printf("Arrhenius fit (%s): DeltaU = %.5f +- %.5f, chi2/dof = %.3g/%d\n", name,
                    fit->fit.barrier, fit->fit.barrier_error, fit->fit.chi_squared,
                    fit->fit.degrees_of_freedom);
      else
        std::printf("Arrhenius fit (%s): %s\n", name, fit->status.c_str());
    }
    std::printf("theory barrier DeltaU(gamma = %g) = %.5f\n", r.input.gamma, f.barrier);
  }
}

// The run as the protocol drives it (run_protocol.hpp): one unit is one kernel launch of every
// rank's share of the current ensemble.
class JosephsonDriver final : public app::RunDriver {
 public:
  JosephsonDriver(const app::Context& ctx, const RunParameters& parameters) : ctx_(ctx) {
    resolved_ = resolve_input(parameters);
    require_host_memory(host_bytes(resolved_), "run.realisations over all ensembles");
    try {
      simulation_ = std::make_unique<Simulation>(resolved_, ctx.comm);
    } catch (const RunParameterError& e) {
      throw app::BadInput(key_of(e.parameter) + ": " + e.what());
    }
    if (!ctx.options.quiet && ctx.is_root()) print_resolved(resolved_);
    // Warnings are never silent, not even with --quiet; they also go into the output file.
    if (ctx.is_root())
      for (const std::string& w : resolved_.warnings) std::cerr << "warning: " << w << "\n";
  }

  void advance() override { simulation_->advance(); }
  bool done() const override { return simulation_->done(); }
  double fraction_done() const override { return simulation_->fraction_done(); }
  std::string status() const override { return simulation_->status(); }
  // Every rank reads the whole file and keeps its new share.
  void resume(const std::string& path) override { simulation_->restore(read_checkpoint(path)); }
  void save(const std::string& path, const std::string& yaml) override {
    const RunCheckpoint state = simulation_->checkpoint();  // collective
    if (ctx_.is_root()) write_checkpoint(path, state, yaml);
  }
  void finish() override { points_ = simulation_->gathered_points(); }
  void analyse() override {
    analysis_ = analyse_run(resolved_, points_);
    std::size_t censored = 0;
    for (const SampleSummary& s : analysis_.samples) censored += s.censored;
    described_ = resolved_;
    if (censored == 0) return;
    std::cerr << "warning: " << censored
              << " realisation(s) reached max_steps without escaping: censored, counted in "
                 "'censored' and left out of the escape times and means\n";
    described_.warnings.push_back(std::to_string(censored) +
                                  " realisation(s) censored at max_steps (see 'censored')");
  }
  void write_results(h5::Group root) override {
    josephson::write_results(root, described_, points_, analysis_);
  }
  void print_summary() const override { ::print_summary(resolved_, points_, analysis_); }

 private:
  const app::Context& ctx_;
  ResolvedRun resolved_, described_;
  std::unique_ptr<Simulation> simulation_;
  std::vector<PointRecord> points_;
  RunAnalysis analysis_;
};

int run(const app::Context& ctx) {
  const RunParameters parameters = to_parameters(ctx.config);
  app::RunPlan plan = app::plan_run(ctx, "josephson", parameters.seed);
  plan.resume_note = "on any number of ranks";
  return app::run_protocol(ctx, plan,
                           [&] { return std::make_unique<JosephsonDriver>(ctx, parameters); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-josephson",
      "Josephson junction escape times, switching currents and Arrhenius scans (Langevin "
      "ensembles)",
      "portamc-josephson input/josephson.yaml --set junction.theta=0.15 -o josephson.h5"};
  return app::main(argc, argv, description, make_schema(), run);
}

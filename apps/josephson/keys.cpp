// The keys of portamc-josephson, each declared once and bound to the member of
// josephson::RunParameters it fills (config_binding.hpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "josephson_app.hpp"
#include "portamc/app.hpp"
#include "portamc/josephson/names.hpp"

namespace portamc::josephson_app {

namespace {

using namespace portamc::josephson;
using config::Integer, config::Real, config::RealList, config::String;

constexpr double kHuge = 1e300;  // upper bound of keys that only need to be positive

const char* const kPhysicalKeys[] = {"physical.resistance",       "physical.capacitance",
                                     "physical.critical_current", "physical.temperature",
                                     "physical.sweep_rate",       "physical.sweep_frequency"};

// The six physical.* keys fill one PhysicalInput, present only when the junction is given in
// physical units: each key's fill sets the whole of it (physical_of), the same every time.
void fill_physical(const config::Config& c, P& p) {
  if (physical_given(c)) p.physical = physical_of(c);
}

// theory.rate names a TheoryRate or, for kramers, the Kramers-type formula itself.
std::vector<std::string> theory_rate_choices() {
  std::vector<std::string> choices = theory_rate_names().names();
  for (const std::string& name : rate_formula_names().names()) choices.push_back(name);
  return choices;
}

void fill_theory_rate(const config::Config& c, P& p) {
  const std::string& rate = c.string("theory.rate");
  const std::vector<std::string> own = theory_rate_names().names();
  if (std::find(own.begin(), own.end(), rate) != own.end()) {
    p.theory_rate = theory_rate_names().value(rate);
  } else {
    p.theory_rate = TheoryRate::kramers;
    p.rate_formula = rate_formula_names().value(rate);
  }
}

}  // namespace

std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || std::isnan(v)) return std::nullopt;
  return v;
}

bool normalised_given(const config::Config& c) {
  return c.real("junction.V0") > 0 || c.real("junction.beta") > 0 || c.real("junction.theta") > 0;
}

bool physical_given(const config::Config& c) {
  for (const char* key : kPhysicalKeys)
    if (c.real(key) > 0) return true;
  return false;
}

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

// junction.* fill V0, beta and theta even when the junction is physical: RunParameters ignores
// them then. model.noise_precision is read after model.precision (declaration order).
config::Bindings<P> bindings() {
  config::Bindings<P> b("portamc-josephson");
  b.choice("mode", &P::mode, run_mode_names(), RunMode::escape,
           "escape: escape times at the constant bias bias.gamma; switching: switching biases "
           "under a linear ramp; arrhenius: one escape ensemble per arrhenius.theta")
      .real("junction.V0", &P::V0, Real{0, kHuge, 0},
            "normalised junction: V0 = E_J / E_C (> 0); all junction.* 0 = not given (give "
            "junction.* or physical.*, not both)")
      .real("junction.beta", &P::beta, Real{0, kHuge, 0},
            "normalised damping beta = hbar / (R (2e)^2), >= 0")
      .real("junction.theta", &P::theta, Real{0, kHuge, 0},
            "normalised temperature theta = k_B T / E_C (> 0; not in arrhenius mode)", "E_C")
      .custom("physical.resistance", Real{0, kHuge, 0},
              "physical junction: shunt resistance R (> 0); all physical.* 0 = not given", "ohm",
              fill_physical)
      .custom("physical.capacitance", Real{0, kHuge, 0}, "capacitance C (> 0)", "F", fill_physical)
      .custom("physical.critical_current", Real{0, kHuge, 0}, "critical current I_c (> 0)", "A",
              fill_physical)
      .custom("physical.temperature", Real{0, kHuge, 0},
              "temperature T (> 0; not in arrhenius mode)", "K", fill_physical)
      .custom("physical.sweep_rate", Real{0, kHuge, 0},
              "switching: bias sweep dI/dt (give this or sweep_frequency; 0 = not given)", "A/s",
              fill_physical)
      .custom("physical.sweep_frequency", Real{0, kHuge, 0},
              "switching: sawtooth sweep frequency f, 0 -> I_c once per period: dI/dt = I_c f",
              "Hz", fill_physical)
      .choice("model.dynamics", &P::dynamics, dynamics_names(), Dynamics::underdamped,
              "phi'' + beta phi' = -U' + xi, or its overdamped limit beta phi' = -U' + xi")
      .choice("model.integrator", &P::integrator, integrator_names(), Integrator::euler,
              "Euler-Maruyama (the paper's) or stochastic Heun")
      .choice("model.precision", &P::precision, precision_names(), Precision::double_precision,
              "precision of the trajectories (the bias is always evaluated in double)")
      .custom("model.noise_precision", String{"same", {"same", "float"}},
              "precision of the Gaussian normals: same as model.precision, or float (double "
              "trajectories only: ~40% less FP64 work per step; the normals differ from double "
              "ones by ~6e-8 relative, a different but equally valid chain)",
              [](const config::Config& c, P& p) {
                p.ensemble.float_noise = p.precision == Precision::double_precision &&
                                         c.string("model.noise_precision") == "float";
              })
      .real("model.h", &P::h, Real{0, 1e6, 0.004}, "time step (> 0)", "hbar/E_C")
      .custom("model.threshold", String{"saddle", {}},
              "escape when phi exceeds this (rad): a number, or `saddle` = pi - arcsin(gamma0)",
              [](const config::Config& c, P& p) {
                if (c.string("model.threshold") != "saddle")
                  p.threshold = parse_number(c.string("model.threshold"));
              })
      .real("bias.gamma", &P::gamma, Real{-1, 1, 0.5},
            "escape, arrhenius: constant bias gamma = I / I_c, |gamma| < 1")
      .custom("ramp.gamma0", String{"0", {}},
              "switching: bias at which the ramp starts, a number in (-1, 1) or `auto` (where "
              "the Fulton-Dunkleberger CDF from 0 reaches ramp.epsilon)",
              [](const config::Config& c, P& p) {
                const std::string& text = c.string("ramp.gamma0");
                p.ramp_gamma0 = text == "auto" ? std::nullopt : parse_number(text);
              })
      .real("ramp.epsilon", &P::ramp_epsilon, Real{1e-300, 0.5, josephson::default_ramp_epsilon},
            "ramp.gamma0 auto: switching probability (theory) skipped before the start")
      .real("ramp.rate", &P::ramp_rate, Real{0, kHuge, 0},
            "switching, normalised junction: nu = d gamma / dt (> 0; 0 = not given)",
            "1/(hbar/E_C)")
      .integer("run.realisations", &P::realisations, Integer{1, 1LL << 62, 1024},
               "realisations (per ensemble)")
      .custom("run.max_steps",
              Integer{1, static_cast<long long>(josephson::max_step_cap), std::nullopt, true, true},
              "step cap after which a realisation is censored; auto: 100 theoretical mean escape "
              "times (constant bias), or until the ramp is 10% past gamma = 1 plus 100 periods",
              "steps",
              [](const config::Config& c, P& p) {
                const auto cap = c.integer_or_auto("run.max_steps");
                p.max_steps = cap ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*cap))
                                  : std::nullopt;
              })
      .integer("run.seed", &P::seed, Integer{0, 1LL << 62, 1}, "random seed")
      .integer("run.first_realisation", &P::first_realisation, Integer{0, 1LL << 62, 0},
               "RNG entity of the first realisation (split a run over jobs with disjoint ranges)")
      .choice(
          "run.schedule", [](P& p) -> Schedule& { return p.ensemble.schedule; }, schedule_names(),
          Schedule::refill,
          "refill: finished slots take the next realisation; one_per_thread: static assignment")
      .integer_or_auto(
          "run.slots", [](P& p) -> std::int64_t& { return p.ensemble.slots; },
          Integer{1, 1LL << 40, std::nullopt, true, true}, 0,
          "refill: concurrent trajectories; auto: the device's concurrency")
      .integer(
          "run.steps_per_launch",
          [](P& p) -> std::uint64_t& { return p.ensemble.steps_per_launch; },
          Integer{1, 1LL << 40, 1LL << 16},
          "steps per slot in one kernel launch (progress, signals and checkpoints in between)",
          "steps")
      .real(
          "run.compact_below", [](P& p) -> double& { return p.ensemble.compact_below; },
          Real{0, 1, 0.5},
          "refill: pack busy slots when fewer than this fraction are busy (0: never)")
      .reals("arrhenius.theta", &P::thetas, RealList{0, kHuge, std::vector<double>{}, 0},
             "arrhenius: the temperatures theta = k_B T / E_C, one escape ensemble each (> 0); "
             "the paper's noise strength is D = beta theta",
             "E_C")
      .integer("analysis.histogram_bins", &P::histogram_bins, Integer{1, 1000000, 50},
               "bins of the histograms of escape times / switching biases")
      .integer("analysis.theory_points", &P::theory_points, Integer{2, 1000000, 200},
               "points of the theory curves")
      .custom("theory.rate", String{"auto", theory_rate_choices()},
              "escape rate the theory is built on: exact (overdamped dynamics only: the "
              "Pontryagin mean first-passage time to the threshold), kramers (the leading-order "
              "formula of the dynamics: overdamped or melnikov_meshkov) or a Kramers-type formula "
              "(kramers.hpp); auto: exact where it exists, else kramers",
              fill_theory_rate)
      .unbound("output.file", String{"josephson.h5", {}}, "HDF5 result file");
  app::add_checkpoint_keys(b.schema(),
                           "one kernel launch of every rank's share of the current ensemble");
  add_rules(b);
  return b;
}

}  // namespace portamc::josephson_app

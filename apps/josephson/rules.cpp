// The rules between portamc-josephson's keys, checked once every key is valid on its own: one
// junction, complete and positive; a bias, ramp and threshold that fit the mode; a theory that
// exists for the dynamics; the temperatures of an Arrhenius scan.
#include <cmath>
#include <cstdio>
#include <exception>

#include "josephson_app.hpp"
#include "portamc/josephson/names.hpp"
#include "portamc/josephson/units.hpp"

namespace portamc::josephson_app {

namespace {

using namespace portamc::josephson;
using Rule = std::optional<std::string>;

std::string config_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// Exactly one junction block: the other rules about junction keys apply only then.
bool one_junction(const config::Config& c) {
  return normalised_given(c) != physical_given(c);
}

RunMode mode_of(const config::Config& c) {
  return run_mode_names().value(c.string("mode"));
}

}  // namespace

void add_rules(config::Bindings<P>& b) {
  // ---- The junction: exactly one block, each complete and positive ----------------------------
  b.check(
      [](const config::Config& c) -> Rule {
        if (normalised_given(c) && physical_given(c))
          return "give the junction in normalised units (junction.*) or in physical units "
                 "(physical.*), not both";
        return std::nullopt;
      },
      "physical");
  b.check(
      [](const config::Config& c) -> Rule {
        if (!normalised_given(c) && !physical_given(c))
          return "no junction given: set junction.V0, junction.beta, junction.theta (normalised) "
                 "or physical.resistance, capacitance, critical_current, temperature";
        return std::nullopt;
      },
      "junction");
  b.check(
      [](const config::Config& c) -> Rule {
        if (one_junction(c) && normalised_given(c) && !(c.real("junction.V0") > 0))
          return "expected V0 = E_J / E_C > 0";
        return std::nullopt;
      },
      "junction.V0");
  b.check(
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
  b.check(
      [](const config::Config& c) -> Rule {
        if (one_junction(c) && normalised_given(c) && c.string("model.dynamics") == "overdamped" &&
            !(c.real("junction.beta") > 0))
          return "the overdamped dynamics divides by beta: expected beta > 0";
        return std::nullopt;
      },
      "junction.beta");
  for (const char* key :
       {"physical.resistance", "physical.capacitance", "physical.critical_current"}) {
    b.check(
        [key](const config::Config& c) -> Rule {
          if (one_junction(c) && physical_given(c) && !(c.real(key) > 0))
            return "a physical junction needs R, C and I_c > 0";
          return std::nullopt;
        },
        key);
  }
  b.check(
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
  b.check(
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
  b.check(
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
  b.check(
      [](const config::Config& c) -> Rule {
        if (!(c.real("model.h") > 0)) return "expected a time step h > 0";
        return std::nullopt;
      },
      "model.h");
  b.check(
      [](const config::Config& c) -> Rule {
        const double g = c.real("bias.gamma");
        if (mode_of(c) != RunMode::switching && !(std::fabs(g) < 1))
          return "gamma = " + config_number(g) +
                 ": at a constant bias |gamma| >= 1 leaves no barrier to escape over; expected "
                 "|gamma| < 1";
        return std::nullopt;
      },
      "bias.gamma");
  b.check(
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
  b.check(
      [](const config::Config& c) -> Rule {
        const std::string& t = c.string("ramp.gamma0");
        if (t == "auto") return std::nullopt;
        const auto v = parse_number(t);
        if (!v || !(*v > -1 && *v < 1))
          return "expected `auto` or a start bias in (-1, 1), got '" + t + "'";
        return std::nullopt;
      },
      "ramp.gamma0");
  b.check(
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
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.string("theory.rate") == "exact" && c.string("model.dynamics") != "overdamped")
          return "there is no exact escape rate for underdamped dynamics (the exact mean "
                 "first-passage time is that of the overdamped equation): use kramers or a "
                 "Kramers-type formula";
        return std::nullopt;
      },
      "theory.rate");

  // ---- Arrhenius ------------------------------------------------------------------------------
  b.check(
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
}

}  // namespace portamc::josephson_app

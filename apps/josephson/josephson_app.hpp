#pragma once
// What the files of portamc-josephson (apps/josephson/) share: main.cpp declares the app, and
// keys.cpp (the keys), rules.cpp (their cross-key rules), driver.cpp (the run under the run
// protocol) and summary.cpp (what is printed) do the rest.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "portamc/config_binding.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_analysis.hpp"
#include "portamc/run_protocol.hpp"

namespace portamc::josephson_app {

using P = josephson::RunParameters;

/// Every key of portamc-josephson, bound to the member of josephson::RunParameters it fills
/// (keys.cpp), with the cross-key rules of add_rules.
config::Bindings<P> bindings();
/// The rules between keys: one junction, complete; the bias, ramp and theory that fit the mode
/// (rules.cpp).
void add_rules(config::Bindings<P>& b);

/// A number written as text (keys that also take a word such as `auto`); nullopt if the text is
/// not entirely a number.
std::optional<double> parse_number(const std::string& text);
/// Whether any junction.* / physical.* key is given (> 0).
bool normalised_given(const config::Config& c);
bool physical_given(const config::Config& c);
/// The junction in physical units as the configuration gives it (switching: with its sweep).
josephson::PhysicalInput physical_of(const config::Config& c);

/// The run as the protocol drives it (driver.cpp), on the backend ctx.options.backend.
std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx, const P& parameters);

/// On stderr before the run: the resolved ensembles (summary.cpp).
void print_resolved(const josephson::ResolvedRun& r);
/// On stdout at the end: the ensembles' results beside their theory (summary.cpp).
void print_summary(const josephson::ResolvedRun& r,
                   const std::vector<josephson::PointRecord>& points,
                   const josephson::RunAnalysis& a);

}  // namespace portamc::josephson_app

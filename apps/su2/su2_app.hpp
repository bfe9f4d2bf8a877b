#pragma once
// What the files of portamc-su2 (apps/su2/) share: main.cpp declares the app, and keys.cpp (the
// keys), rules.cpp (their cross-key rules), driver.cpp (the run under the run protocol) and
// summary.cpp (the printed summary) do the rest.
#include <memory>
#include <optional>
#include <vector>

#include "portamc/config_binding.hpp"
#include "portamc/run_protocol.hpp"
#include "portamc/su2/run.hpp"
#include "portamc/su2/run_analysis.hpp"

namespace portamc::su2_app {

using P = su2::RunParameters;

/// Every key of portamc-su2, bound to the member of su2::RunParameters it fills (keys.cpp),
/// with the cross-key rules of add_rules.
config::Bindings<P> bindings();
/// The rules between keys (rules.cpp).
void add_rules(config::Bindings<P>& b);
/// The validated parameters of a configuration (keys.cpp).
su2::RunParameters to_parameters(const config::Config& c);
/// parallel.*, which the driver reads (keys.cpp).
su2::ParallelOptions to_parallel_options(const config::Config& c);

/// The extents as integers, or nullopt when they are not 2..4 even integers (reported once, by
/// the lattice.extents rule; the rules that depend on the lattice then stay silent; keys.cpp).
std::optional<std::vector<int>> extents_of(const config::Config& c);

/// The run as the protocol drives it (driver.cpp), on the backend ctx.options.backend.
std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx, const su2::RunParameters& p);

/// The summary on stdout (summary.cpp): every coupling's plaquette, Polyakov loop and static
/// potential.
void print_summary(const su2::RunParameters& p, const std::vector<su2::PointRecord>& points,
                   const std::vector<su2::PointAnalysis>& analyses);

}  // namespace portamc::su2_app

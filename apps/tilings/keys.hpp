#pragma once
// The keys of portamc-tilings, each declared once with its type, range, default, units and
// description and bound to the member of tilings::RunParameters it fills
// (portamc/config_binding.hpp), and the cross-key rules that reject combinations that cannot
// run before anything is built. What needs the domain itself (tileability, files) is checked
// by tilings::prepare_run.
#include "portamc/config_binding.hpp"
#include "portamc/tilings/run.hpp"

namespace portamc {

/// Every key of portamc-tilings: .schema() is what --help, --dry-run and docs/config.md print
/// and what the input is validated against; .parameters(config) turns a validated
/// configuration into the run's parameters.
config::Bindings<tilings::RunParameters> tilings_bindings();

}  // namespace portamc

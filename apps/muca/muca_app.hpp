#pragma once
// What the files of portamc-muca (apps/muca/) share: main.cpp declares the app, and keys.cpp
// (the keys and the model they name), driver.cpp (the run under the run protocol) and summary.cpp
// (the printed summary) do the rest.
#include <memory>
#include <vector>

#include "portamc/config_binding.hpp"
#include "portamc/muca/io.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/run_protocol.hpp"

namespace portamc::muca_app {

using P = muca::Parameters;

/// Every key of portamc-muca, bound to the member of muca::Parameters it fills (keys.cpp).
config::Bindings<P> bindings();

/// The run as the protocol drives it (driver.cpp), on the backend ctx.options.backend.
std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx,
                                            const muca::Parameters& parameters);

/// The model the input names (model.hamiltonian, model.dimension, model.L, model.q,
/// model.beta; keys.cpp).
muca::Hamiltonian model_of(const config::Config& config);
/// analysis.double_peak: yes, no, or auto (the Potts models with a first-order transition:
/// q >= 5 in 2D, q >= 3 in 3D; Blume-Capel, whose first-order regime depends on beta, and
/// whose analysis reports why when it finds no double peak).
bool wants_double_peak(const config::Config& config, const muca::Hamiltonian& model);

/// The summary on stdout (summary.cpp), for a run on any backend of the build and either
/// engine.
template <class Space, class Engine>
void print_summary(const muca::Simulation<Space, Engine>& sim,
                   const muca::ProductionAnalysis& analysis, const muca::Timing& timing,
                   const std::vector<double>& points);

}  // namespace portamc::muca_app

#pragma once
// What the files of portamc-muca (apps/muca/) share: main.cpp declares the app, and keys.cpp
// (the keys), driver.cpp (the run under the run protocol) and summary.cpp (the printed
// summary) do the rest.
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

/// The summary on stdout (summary.cpp), for a run on any backend of the build.
template <class Space>
void print_summary(const muca::Simulation<Space>& sim, const muca::ProductionAnalysis& analysis,
                   const muca::Timing& timing, const std::vector<double>& betas);

}  // namespace portamc::muca_app

#pragma once
// What the files of portamc-cvf (apps/cvf/) share: main.cpp declares the app, and keys.cpp (the
// keys) and driver.cpp (the run under the run protocol) do the rest.
#include <memory>

#include "portamc/config_binding.hpp"
#include "portamc/cvf/run.hpp"
#include "portamc/run_protocol.hpp"

namespace portamc::cvf_app {

using P = cvf::RunParameters;

/// Every key of portamc-cvf, bound to the member of cvf::RunParameters it fills (keys.cpp).
config::Bindings<P> bindings();

/// The run as the protocol drives it (driver.cpp), on the backend of ctx.options.backend.
std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx, const cvf::RunParameters& p);

}  // namespace portamc::cvf_app

// portamc-josephson: Langevin ensembles of a current-biased Josephson junction (the paper's
// normalised RCSJ model): escape times at constant bias, switching currents under a bias ramp,
// and Arrhenius scans of the mean escape time over temperature, each with its theory alongside.
// YAML in (input/josephson*.yaml), HDF5 out (docs/output.md); checkpoints and resume through the
// run protocol (run_protocol.hpp).
//
// The app's files: keys.cpp declares the keys, rules.cpp the rules between them, driver.cpp
// runs the ensembles under the run protocol and summary.cpp prints the resolved run and the
// summary.
#include <memory>

#include "josephson_app.hpp"
#include "portamc/app.hpp"

namespace {

using namespace portamc;

int run(const app::Context& ctx) {
  const josephson::RunParameters parameters = josephson_app::bindings().parameters(ctx.config);
  app::RunPlan plan = app::plan_run(ctx, "josephson", parameters.seed);
  plan.resume_note = "on any number of ranks";
  return app::run_protocol(ctx, plan, [&] { return josephson_app::make_driver(ctx, parameters); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-josephson",
      "Josephson junction escape times, switching currents and Arrhenius scans (Langevin "
      "ensembles)",
      "portamc-josephson input/josephson.yaml --set junction.theta=0.15 -o josephson.h5"};
  return app::main(argc, argv, description, josephson_app::bindings().schema(), run);
}

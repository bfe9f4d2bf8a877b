// portamc-su2: SU(2) lattice gauge theory (Wilson action; heatbath + overrelaxation) at one
// coupling or over a scan of couplings: plaquette, Polyakov loop, Wilson loops and the static
// potential. YAML in (input/su2*.yaml), HDF5 out (docs/output.md); checkpoints and resume
// through the run protocol (run_protocol.hpp).
//
// The app's files: keys.cpp declares the keys, rules.cpp the rules between them, driver.cpp
// runs the simulation under the run protocol and summary.cpp prints the summary.
#include "portamc/app.hpp"
#include "su2_app.hpp"

namespace {

using namespace portamc;

int run(const app::Context& ctx) {
  const su2::RunParameters p = su2_app::to_parameters(ctx.config);
  app::RunPlan plan = app::plan_run(ctx, "su2", p.seed);
  plan.also_written = {{"output.save_config", ctx.config.string("output.save_config")}};
  plan.also_read = {{"model.start_file", p.start_file}};
  plan.resume_note = "on any number of ranks";
  return app::run_protocol(ctx, plan, [&] { return su2_app::make_driver(ctx, p); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-su2", "SU(2) lattice gauge theory: plaquette, Polyakov loop, static potential",
      "portamc-su2 input/su2.yaml --set model.beta=2.5 -o su2-b2.5.h5"};
  return app::main(argc, argv, description, su2_app::bindings().schema(), run);
}

// portamc-muca: parallel multicanonical simulation of discrete spin models: Ising (2D, 3D) and
// q-state Potts (2D, 3D).
// YAML in (input/muca.yaml), HDF5 out (docs/output.md); checkpoints and resume through the run
// protocol (run_protocol.hpp).
//
// The app's files: keys.cpp declares the keys, driver.cpp runs the weight iteration and the
// production under the run protocol and summary.cpp prints the summary.
#include "muca_app.hpp"
#include "portamc/app.hpp"

namespace {

using namespace portamc;

int run(const app::Context& ctx) {
  const muca::Parameters parameters = muca_app::bindings().parameters(ctx.config);
  app::RunPlan plan = app::plan_run(ctx, "muca", parameters.seed);
  plan.resume_note = "on any number of ranks up to W";
  return app::run_protocol(ctx, plan, [&] { return muca_app::make_driver(ctx, parameters); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-muca",
      "parallel multicanonical simulation of the Ising, q-state Potts and Blume-Capel models "
      "(2D, 3D)",
      "portamc-muca input/muca.yaml --set model.L=32 -o muca-L32.h5"};
  return app::main(argc, argv, description, muca_app::bindings().schema(), run);
}

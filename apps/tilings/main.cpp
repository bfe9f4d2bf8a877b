// portamc-tilings: random domino, lozenge, bibone and rectangle-triangle tilings and the
// six-vertex model, by coupling from the past or domino shuffling (exact samples) or Glauber
// dynamics: final configuration, height function (where the model has one), tile-type
// densities (arctic curves) and summary observables. YAML in (input/tilings*.yaml),
// HDF5 out (docs/output.md); checkpoints and resume through the run protocol
// (run_protocol.hpp). Under mpiexec: Glauber chains in row slabs over the ranks, CFTP/shuffling
// samples shared out; rank 0 writes the same file as one rank (docs/models/tilings.md,
// "Several GPUs (MPI)").
#include <memory>

#include "driver.hpp"
#include "keys.hpp"
#include "portamc/app.hpp"
#include "portamc/backends.hpp"
#include "portamc/run_protocol.hpp"

namespace {

using namespace portamc;

int run(const app::Context& ctx) {
  const tilings::RunParameters p = tilings_bindings().parameters(ctx.config);
  app::RunPlan plan = app::plan_run(ctx, "tilings", p.seed);
  plan.resume_note = tilings_app::resume_note(p, ctx.comm.size());
  // The run's engines live on the execution space that --backend names.
  return app::run_protocol(ctx, plan, [&]() -> std::unique_ptr<app::RunDriver> {
    return with_backend(ctx.options.backend, [&](auto space) -> std::unique_ptr<app::RunDriver> {
      return std::make_unique<tilings_app::TilingsDriver<decltype(space)>>(space, ctx, p);
    });
  });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-tilings",
      "random domino/lozenge/bibone/rectangle-triangle tilings and the six-vertex model (CFTP, "
      "domino shuffling or Glauber dynamics)",
      "portamc-tilings input/tilings-domino.yaml --set domain.n=60 -o aztec60.h5"};
  return app::main(argc, argv, description, tilings_bindings().schema(), run);
}

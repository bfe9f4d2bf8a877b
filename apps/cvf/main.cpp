// portamc-cvf: the CVF water model (Coronas, Vilanova, Franzese) in the NPT ensemble at one
// state point or over a scan in T and P, with parallel Metropolis or Swendsen-Wang updates of
// the hydrogen-bond network: density, enthalpy, hydrogen bonds, order parameter, their time
// series and autocorrelation, C_P, kappa_T and alpha_P. YAML in (input/cvf*.yaml), HDF5 out
// (docs/output.md); checkpoints and resume through the run protocol (run_protocol.hpp).
//
// The app's files: keys.cpp declares the keys and the rules between them, driver.cpp runs the
// chain under the run protocol (the summary is cvf::print_summary of the model library).
#include <exception>

#include "cvf_app.hpp"
#include "portamc/app.hpp"

namespace {

using namespace portamc;

int run(const app::Context& ctx) {
  const cvf::RunParameters p = cvf_app::bindings().parameters(ctx.config);
  // Every rank holds the same parameters, so these checks agree without communication.
  try {
    p.validate();
    cvf::validate_ranks(p, ctx.comm.size());
  } catch (const std::exception& e) {
    throw app::AgreedFailure(app::exit_bad_input, e.what());
  }
  app::RunPlan plan = app::plan_run(ctx, "cvf", p.seed);
  plan.resume_note = "on any number of ranks the lattice allows";
  return app::run_protocol(ctx, plan, [&] { return cvf_app::make_driver(ctx, p); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-cvf",
      "CVF water (NPT Monte Carlo of the hydrogen-bond network; Metropolis or Swendsen-Wang)",
      "portamc-cvf input/cvf.yaml --set state.temperatures=[250,260,270] -o scan.h5"};
  return app::main(argc, argv, description, cvf_app::bindings().schema(), run);
}

// portamc-tilings: random domino, lozenge, bibone and rectangle-triangle tilings and the
// six-vertex model, by coupling from the past or domino shuffling (exact samples) or Glauber
// dynamics: final configuration, height function (where the model has one), tile-type
// densities (arctic curves) and summary observables. YAML in (input/tilings*.yaml),
// HDF5 out (docs/output.md). Under mpiexec: Glauber chains in row slabs over the ranks,
// CFTP/shuffling samples shared out; rank 0 writes the same file as one rank
// (docs/models/tilings.md, "Several GPUs (MPI)").
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>

#include "portamc/app.hpp"
#include "portamc/tilings/run.hpp"
#include "portamc/tilings/run_output.hpp"
#include "tilings/keys.hpp"

namespace {

using namespace portamc;

// Everything that needs the domain (files, tileability, memory) is checked here, before the
// output file is touched: a bad input costs nothing and leaves nothing behind.
tilings::PreparedRun prepare(const tilings::RunParameters& p) {
  try {
    return tilings::prepare_run(p);
  } catch (const std::invalid_argument& e) {
    throw app::BadInput(e.what());
  }
}

void print_summary(const tilings::PreparedRun& run, const tilings::RunResults& r,
                   const stats::SeriesAnalysis& m) {
  std::printf("%s %s (%s), %zu samples in %.2f s\n", tilings::to_string(run.parameters.model),
              tilings::to_string(run.parameters.mode), run.parameters.domain_description().c_str(),
              r.observable_values.size(), r.seconds);
  std::printf("  %s = %.6g +- %.2g (tau_int %.3g samples, N_eff %.4g, %zu discarded)\n",
              r.observable.c_str(), m.mean.value, m.mean.error, m.tau.tau_int, m.effective_samples,
              m.discarded);
  if (!r.cftp_horizons.empty()) {
    std::uint64_t largest = 0;
    for (auto h : r.cftp_horizons) largest = std::max(largest, h);
    std::printf("  largest coalescence horizon %llu steps\n",
                static_cast<unsigned long long>(largest));
  }
}

int run(const app::Context& ctx) {
  const auto& c = ctx.config;
  const tilings::RunParameters p = tilings_bindings().parameters(c);
  const std::string output =
      ctx.options.output.empty() ? c.string("output.file") : ctx.options.output;
  if (!ctx.options.resume.empty())
    throw app::BadInput("--resume: portamc-tilings has no checkpoints (runs are restarted)");
  app::check_run_files(ctx, {{"output", output}});  // on rank 0, which alone writes it
  // Every rank prepares the same problem (deterministic) and checks that the ranks can share
  // it out; a failure on any rank is one exit code 2 on all of them.
  tilings::PreparedRun prepared;
  app::collective_check(ctx, [&] {
    prepared = prepare(p);
    tilings::check_ranks(prepared, ctx.comm.size());
  });

  const bool verbose = !ctx.options.quiet && ctx.is_root();
  if (verbose)
    std::cerr << tilings::to_string(p.model) << " " << tilings::to_string(p.mode) << " on "
              << p.domain_description() << ", " << p.samples << " sample(s)\n";
  tilings::RunResults results;
  {
    app::Progress progress("tilings", verbose);
    results = tilings::run_sampling(
        prepared,
        [&](double fraction, const std::string& status) {
          progress.update(fraction, status);
          return !app::stop_requested();
        },
        ctx.comm);
  }
  // A stop on any rank stops the run on all of them (no output: there are no checkpoints).
  if (ctx.comm.max(std::uint64_t{app::stop_requested() ? 1u : 0u}) != 0) {
    if (ctx.is_root())
      std::cerr << "interrupted: no output written (portamc-tilings has no checkpoints)\n";
    return app::exit_interrupted;
  }
  if (!ctx.is_root()) return app::exit_ok;  // rank 0 holds the gathered results

  h5::OutputFile file(output);
  auto root = file.root();
  h5::write_provenance(root, ctx.provenance(p.seed));
  root.write_string("config", c.to_yaml(), "resolved configuration (YAML)");
  tilings::write_results(root, prepared, results);
  file.commit();
  const auto statistics = tilings::observable_statistics(p.mode, results.observable_values);
  // Printed even with --quiet: an error bar that cannot be trusted must not pass unnoticed.
  if (!statistics.reliable)
    std::cerr << "warning: " << results.observable << ": " << statistics.warning << "\n";
  if (verbose) {
    print_summary(prepared, results, statistics);
    std::printf("wrote %s\n", output.c_str());
  }
  return app::exit_ok;
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

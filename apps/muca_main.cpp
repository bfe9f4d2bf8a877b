// portamc-muca: parallel multicanonical simulation of the 2D Ising model.
// YAML in (input/muca.yaml), HDF5 out (docs/output.md); checkpoints and resume through the run
// protocol (run_protocol.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "portamc/app.hpp"
#include "portamc/config_binding.hpp"
#include "portamc/muca/io.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "portamc/muca/names.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/run_protocol.hpp"

namespace {

using namespace portamc;
using config::Integer, config::Real, config::String;

using P = muca::Parameters;

// Every key of portamc-muca, bound to the member of muca::Parameters it fills.
config::Bindings<P> bindings() {
  config::Bindings<P> b("portamc-muca");
  b.integer("model.L", &P::L, Integer{4, 256, 16}, "linear lattice size (even)")
      .integer_or_auto("model.walkers", &P::walkers,
                       Integer{1, 1LL << 30, std::nullopt, true, true}, 0,
                       "parallel walkers; auto fills the device")
      .integer("model.seed", &P::seed, Integer{0, (1LL << 62), 1}, "random seed")
      .choice("model.storage", &P::storage, muca::lattice_storage_names(),
              muca::LatticeStorage::automatic,
              "where lattices live during sweeps (auto: team scratch when it fits)")
      .integer_or_auto("model.team_size", &P::team_size, Integer{1, 1024, std::nullopt, true, true},
                       0, "threads per GPU team; auto chooses")
      .integer_or_auto("model.walkers_per_thread", &P::walkers_per_thread,
                       Integer{1, 8, std::nullopt, true, true}, 0,
                       "walkers one thread updates in lockstep; auto: GPU 2 (shared memory) or 1, "
                       "CPU 8")
      .real("iteration.therm_factor", &P::therm_factor, Real{0, 1e6, 30.0},
            "thermalisation attempts per walker = therm_factor * w")
      .real("iteration.updates_prefactor", &P::updates_prefactor, Real{1e-9, 1e9, 6.0},
            "N_updates = prefactor w^z / W + 1")
      .real("iteration.updates_exponent", &P::updates_exponent, Real{0.1, 4, 2.25},
            "z in N_updates")
      .real("iteration.updates_growth", &P::updates_growth, Real{1, 10, 1.1},
            "N_updates factor per iteration once every energy was visited")
      .real("iteration.kl_threshold", &P::kl_threshold, Real{1e-12, 1, 1e-4},
            "stop when the Kullback-Leibler divergence is below this")
      .integer("iteration.max_iterations", &P::max_iterations, Integer{1, 1000000, 1000},
               "give up after this many")
      .real("production.therm_prefactor", &P::production_therm_prefactor, Real{0, 1e6, 1.0},
            "thermalisation under the final weights before production: prefactor * N^exponent "
            "attempts per walker (N = L^2; the paper's code: N^2.25)")
      .real("production.therm_exponent", &P::production_therm_exponent, Real{0, 4, 2.25},
            "exponent of N in that thermalisation")
      .real("production.stationarity_threshold", &P::stationarity_threshold, Real{1e-3, 1e3, 4.5},
            "the production passes its stationarity check when no energy window's share "
            "changes by more than this many errors between the first and last third of the "
            "blocks")
      .integer("production.walker_groups", &P::walker_groups, Integer{1, 4096, 64},
               "record the production per group of walkers (group of walker w: floor(w G / W)); "
               "with at least 16 groups the errors come from a jackknife over the groups, which "
               "are independent, else from bins of consecutive blocks")
      .integer("production.blocks", &P::production_blocks, Integer{2, 1000000, 100},
               "production blocks (jackknife samples; the stationarity check needs at least 6)")
      .integer_or_auto("production.updates_per_block", &P::production_updates_per_block,
                       Integer{1, 1LL << 50, std::nullopt, true, true}, 0,
                       "attempts per walker per block; auto = 10 x N_updates of the last "
                       "iteration")
      .unbound("analysis.beta_min", Real{0, 10, 0.2},
               "smallest inverse temperature for reweighting", "1/J")
      .unbound("analysis.beta_max", Real{0, 10, 0.8}, "largest inverse temperature", "1/J")
      .unbound("analysis.beta_points", Integer{1, 100000, 61}, "points of the beta grid")
      .unbound("output.file", String{"muca.h5", {}}, "HDF5 result file");
  app::add_checkpoint_keys(b.schema(), "a weight iteration, or a production block");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        if (c.integer("model.L") % 2 != 0) return "expected an even lattice size";
        return std::nullopt;
      },
      "model.L");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        if (c.real("analysis.beta_max") < c.real("analysis.beta_min"))
          return "must be >= analysis.beta_min";
        return std::nullopt;
      },
      "analysis.beta_max");
  return b;
}

// The summary on stdout: convergence, production, errors, stationarity and the comparison with
// the exact finite-lattice values (Ferdinand-Fisher).
void print_summary(const muca::Simulation& sim, const muca::ProductionAnalysis& analysis,
                   const muca::Timing& timing, const std::vector<double>& betas) {
  const auto& canonical = analysis.canonical;
  const auto& stationarity = analysis.stationarity;
  const double sites = sim.model().sites(), walkers = static_cast<double>(sim.walkers());
  const auto& last = sim.driver().records.back();
  std::printf(
      "portamc-muca: L=%d W=%.0f %s after %d iterations (d_KL = %.2e, %.2f s, %.1f ps/attempt)\n",
      sim.parameters().L, walkers, sim.converged() ? "converged" : "NOT converged",
      sim.driver().iteration, last.kullback_leibler, timing.iteration_seconds,
      1e12 * timing.iteration_seconds / std::max(timing.iteration_attempts, 1.0));
  std::printf(
      "production: %llu attempts/walker of thermalisation, then %d blocks x %llu "
      "attempts/walker in %.2f s\n",
      static_cast<unsigned long long>(sim.driver().production_therm), sim.driver().blocks_done,
      static_cast<unsigned long long>(sim.driver().production_updates), timing.production_seconds);
  if (analysis.error_method == "walker_groups") {
    std::printf("errors: jackknife over %d independent walker groups\n",
                analysis.jackknife_samples);
  } else {
    const auto& b = analysis.binning;
    std::printf("errors: jackknife over %d bins of about %d blocks (block tau_int %.2f)%s\n",
                analysis.jackknife_samples, b.blocks_per_bin, b.block_tau_int,
                b.long_enough ? "" : "; bins shorter than 20 tau_int, errors may be low");
  }
  if (stationarity.checked)
    std::printf("stationarity: %s (max |z| = %.2f over %zu energy windows, threshold %.2f)\n",
                stationarity.passed ? "passed" : "FAILED", stationarity.max_abs_z,
                stationarity.z.size(), stationarity.threshold);
  else
    std::printf("stationarity: %s\n", stationarity.statistic.c_str());
  std::printf("%8s %22s %12s %22s %12s\n", "beta", "U/N (muca)", "U/N exact", "C/N (muca)",
              "C/N exact");
  const std::size_t n = betas.size();
  for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 6)) {
    const auto e = muca::exact::ferdinand_fisher(sim.parameters().L, betas[i]);
    std::printf("%8.4f %12.6f +- %.6f %12.6f %12.6f +- %.6f %12.6f\n", betas[i],
                canonical.energy.value[i], canonical.energy.error[i], e.energy_per_spin,
                canonical.specific_heat.value[i], canonical.specific_heat.error[i],
                e.specific_heat_per_spin);
  }
  // The exact finite-lattice values are known for every L: how many beta points lie within
  // 3 errors of them is the first thing to check in a run.
  int within_u = 0, within_c = 0;
  double max_u = 0, max_c = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto e = muca::exact::ferdinand_fisher(sim.parameters().L, betas[i]);
    const double zu = (canonical.energy.value[i] - e.energy_per_spin) / canonical.energy.error[i];
    const double zc = (canonical.specific_heat.value[i] - e.specific_heat_per_spin) /
                      canonical.specific_heat.error[i];
    within_u += std::abs(zu) <= 3;
    within_c += std::abs(zc) <= 3;
    max_u = std::max(max_u, std::abs(zu));
    max_c = std::max(max_c, std::abs(zc));
  }
  std::printf(
      "against Ferdinand-Fisher: U/N within 3 errors at %d of %zu beta points (max |z| %.2f), "
      "C/N at %d of %zu (max |z| %.2f)\n",
      within_u, n, max_u, within_c, n, max_c);
  std::printf("%g spins x %g walkers\n", sites, walkers);
}

// The run as the protocol drives it (run_protocol.hpp): one unit is a weight iteration, or a
// production block (the first one after the thermalisation under the final weights).
class MucaDriver final : public app::RunDriver {
 public:
  MucaDriver(const app::Context& ctx, muca::Parameters parameters) : ctx_(ctx) {
    // Every rank reads the whole checkpoint first: with model.walkers = auto the run continues
    // with the checkpoint's W (auto would depend on the rank count).
    const std::string& resume = ctx.options.resume;
    if (!resume.empty()) {
      checkpoint_ = muca::read_checkpoint(resume);
      if (parameters.walkers == 0) parameters.walkers = checkpoint_->model.walkers;
      if (checkpoint_->model.walkers < ctx.comm.size())
        throw std::invalid_argument("checkpoint '" + resume +
                                    "' holds W = " + std::to_string(checkpoint_->model.walkers) +
                                    " walkers, fewer than the " + std::to_string(ctx.comm.size()) +
                                    " MPI ranks; resume it on at most " +
                                    std::to_string(checkpoint_->model.walkers) + " ranks");
    }
    sim_ = std::make_unique<muca::Simulation>(parameters, ctx.comm);
    if (verbose())
      std::cerr << "L = " << sim_->parameters().L << ", W = " << sim_->walkers()
                << (ctx.comm.size() > 1 ? " over " + std::to_string(ctx.comm.size()) + " ranks"
                                        : "")
                << (sim_->model().plan().scratch_lattice ? ", lattices in team scratch" : "")
                << "\n";
  }

  void resume(const std::string&) override {
    sim_->restore(*checkpoint_);
    checkpoint_.reset();
  }
  void advance() override {
    const double walkers = static_cast<double>(sim_->walkers());
    const double t0 = app::now_seconds();
    if (iterating()) {
      const auto& r = sim_->iterate();
      timing_.iteration_attempts += (r.therm_attempts + r.update_attempts) * walkers;
      timing_.iteration_seconds += app::now_seconds() - t0;
      if (!iterating() && !sim_->converged() && verbose())
        std::cerr << "\nwarning: weights not converged after " << sim_->driver().iteration
                  << " iterations; production continues with the last weights\n";
      return;
    }
    sim_->production_block();
    timing_.production_attempts += sim_->driver().production_updates * walkers;
    timing_.production_seconds += app::now_seconds() - t0;
  }
  bool done() const override { return !iterating() && sim_->production_done(); }
  // The iteration's length is not known in advance: its share of the bar is a tenth, filled by
  // log d_KL against log of the threshold.
  double fraction_done() const override {
    const auto& d = sim_->driver();
    if (iterating()) {
      if (d.records.empty()) return 0;
      const double kl = std::max(d.records.back().kullback_leibler, 1e-12);
      return 0.1 *
             std::clamp(std::log10(kl) / std::log10(sim_->parameters().kl_threshold), 0.0, 1.0);
    }
    return 0.1 + 0.9 * double(d.blocks_done) / sim_->parameters().production_blocks;
  }
  std::string status() const override {
    const auto& d = sim_->driver();
    char text[96];
    if (iterating() && !d.records.empty())
      std::snprintf(text, sizeof text, "iteration %d, width %d, d_KL %.2e",
                    d.records.back().iteration, d.records.back().width,
                    d.records.back().kullback_leibler);
    else if (iterating())
      std::snprintf(text, sizeof text, "iteration");
    else
      std::snprintf(text, sizeof text, "production block %d of %d", d.blocks_done,
                    sim_->parameters().production_blocks);
    return text;
  }
  void save(const std::string& path, const std::string& yaml) override {
    const muca::Checkpoint state = sim_->checkpoint();  // collective
    if (ctx_.is_root()) muca::write_checkpoint(path, state, yaml);
  }
  void analyse() override {
    const auto& c = ctx_.config;
    betas_ = muca::linear_grid(c.real("analysis.beta_min"), c.real("analysis.beta_max"),
                               static_cast<int>(c.integer("analysis.beta_points")));
    analysis_ = muca::analyse_production(*sim_, betas_);
    // Printed even with --quiet: a result that fails its check must not pass unnoticed.
    const auto& stationarity = analysis_.stationarity;
    if (stationarity.checked && !stationarity.passed)
      std::cerr << "warning: the production blocks are not stationary (max |z| = "
                << stationarity.max_abs_z << " > " << stationarity.threshold
                << " between the first and last third); the walkers had not relaxed under the "
                   "final weights. Raise production.therm_prefactor (now "
                << sim_->parameters().production_therm_prefactor << ") and run again\n";
  }
  void write_results(h5::Group root) override {
    muca::write_results(root, *sim_, analysis_, timing_);
  }
  void print_summary() const override { ::print_summary(*sim_, analysis_, timing_, betas_); }

 private:
  bool verbose() const { return !ctx_.options.quiet && ctx_.is_root(); }
  bool iterating() const {
    return !sim_->converged() && !sim_->iterations_exhausted() && sim_->driver().blocks_done == 0;
  }

  const app::Context& ctx_;
  std::optional<muca::Checkpoint> checkpoint_;
  std::unique_ptr<muca::Simulation> sim_;
  muca::Timing timing_;
  std::vector<double> betas_;
  muca::ProductionAnalysis analysis_;
};

int run(const app::Context& ctx) {
  const muca::Parameters parameters = bindings().parameters(ctx.config);
  app::RunPlan plan = app::plan_run(ctx, "muca", parameters.seed);
  plan.resume_note = "on any number of ranks up to W";
  return app::run_protocol(ctx, plan,
                           [&] { return std::make_unique<MucaDriver>(ctx, parameters); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-muca", "parallel multicanonical simulation of the 2D Ising model",
      "portamc-muca input/muca.yaml --set model.L=32 -o muca-L32.h5"};
  return app::main(argc, argv, description, bindings().schema(), run);
}

// portamc-muca's run under the run protocol (run_protocol.hpp): the weight iteration, then the
// production blocks. The 2D Ising model runs on its tuned engine (IsingMuca), every other
// model on the generic one (SpinMuca).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "muca_app.hpp"
#include "portamc/app.hpp"
#include "portamc/backends.hpp"

namespace portamc::muca_app {

namespace {

// The run as the protocol drives it (run_protocol.hpp): one unit is a weight iteration, or a
// production block (the first one after the thermalisation under the final weights).
// On execution space Space (the run's --backend) with walker engine Engine.
template <class Space, class Engine>
class MucaDriver final : public app::RunDriver {
 public:
  MucaDriver(const app::Context& ctx, const Space& space, muca::Parameters parameters,
             const muca::Hamiltonian& model)
      : ctx_(ctx) {
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
    if constexpr (std::is_same_v<Engine, muca::IsingMuca<Space>>)
      sim_ = std::make_unique<Simulation>(space, parameters, ctx.comm);
    else
      sim_ = std::make_unique<Simulation>(space, parameters, ctx.comm, &model);
    if (verbose()) {
      std::cerr << model.describe() << ", W = " << sim_->walkers()
                << (ctx.comm.size() > 1 ? " over " + std::to_string(ctx.comm.size()) + " ranks"
                                        : "");
      if constexpr (std::is_same_v<Engine, muca::IsingMuca<Space>>)
        std::cerr << (sim_->model().plan().scratch_lattice ? ", lattices in team scratch" : "");
      std::cerr << "\n";
    }
  }

  void resume(const std::string&) override {
    sim_->restore(*checkpoint_);
    checkpoint_.reset();
    // The weight iteration's time and attempts are in its records, whichever process ran it.
    // (Production blocks keep no times: production_seconds counts this process only.)
    const double walkers = static_cast<double>(sim_->walkers());
    for (const auto& r : sim_->driver().records) {
      timing_.iteration_seconds += r.seconds;
      timing_.iteration_attempts += (r.therm_attempts + r.update_attempts) * walkers;
    }
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
    // Blume-Capel runs at fixed beta are reweighted over the crystal field instead.
    const bool fixed_beta = sim_->hamiltonian().kind == muca::HamiltonianKind::blume_capel;
    const std::string axis = fixed_beta ? "analysis.crystal_field" : "analysis.beta";
    points_ = muca::linear_grid(c.real(axis + "_min"), c.real(axis + "_max"),
                                static_cast<int>(c.integer(axis + "_points")));
    analysis_ = muca::analyse_production(*sim_, points_, wants_double_peak(c, sim_->hamiltonian()));
    const auto& peak = analysis_.double_peak;
    // A missing double peak is a warning, except for Blume-Capel under `auto`: its transition is
    // first order only below the tricritical temperature, so there it is a note.
    const bool asked = c.string("analysis.double_peak") == "yes" || !fixed_beta;
    if (peak.attempted && !peak.found && (asked || verbose()))
      std::cerr << (asked ? "warning" : "note") << ": no double peak of "
                << (fixed_beta ? "P(n)" : "P(E)") << " with equal heights for "
                << (fixed_beta ? "D" : "beta") << " in [" << peak.beta_lo << ", " << peak.beta_hi
                << "]: " << peak.reason << "; /muca/first_order holds only this reason\n";
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
  void print_summary() const override {
    muca_app::print_summary(*sim_, analysis_, timing_, points_);
  }

 private:
  bool verbose() const { return !ctx_.options.quiet && ctx_.is_root(); }
  bool iterating() const {
    return !sim_->converged() && !sim_->iterations_exhausted() && sim_->driver().blocks_done == 0;
  }

  const app::Context& ctx_;
  std::optional<muca::Checkpoint> checkpoint_;
  using Simulation = muca::Simulation<Space, Engine>;
  std::unique_ptr<Simulation> sim_;
  muca::Timing timing_;
  std::vector<double> points_;  ///< inverse temperatures, or Blume-Capel's crystal fields
  muca::ProductionAnalysis analysis_;
};

}  // namespace

std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx,
                                            const muca::Parameters& parameters) {
  const muca::Hamiltonian model = model_of(ctx.config);
  return with_backend(ctx.options.backend, [&](auto space) -> std::unique_ptr<app::RunDriver> {
    using Space = decltype(space);
    if (model.kind == muca::HamiltonianKind::ising && model.dimension == 2)
      return std::make_unique<MucaDriver<Space, muca::IsingMuca<Space>>>(ctx, space, parameters,
                                                                         model);
    return std::make_unique<MucaDriver<Space, muca::SpinMuca<Space>>>(ctx, space, parameters,
                                                                      model);
  });
}

}  // namespace portamc::muca_app

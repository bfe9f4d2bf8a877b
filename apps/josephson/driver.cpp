// portamc-josephson's run under the run protocol (run_protocol.hpp): the parameters resolved
// into ensembles (bad input named by its key), the host memory checked, then one kernel launch
// of every rank's share of the current ensemble per unit.
#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>

#include "josephson_app.hpp"
#include "portamc/app.hpp"
#include "portamc/backends.hpp"
#include "portamc/device_info.hpp"
#include "portamc/josephson/run_output.hpp"

namespace portamc::josephson_app {

namespace {

using namespace portamc::josephson;

// The configuration key of a RunParameters member named by a RunParameterError.
std::string key_of(const std::string& parameter) {
  static const std::map<std::string, std::string> keys = {
      {"V0", "junction.V0"},
      {"beta", "junction.beta"},
      {"theta", "junction.theta"},
      {"h", "model.h"},
      {"threshold", "model.threshold"},
      {"gamma", "bias.gamma"},
      {"ramp_rate", "ramp.rate"},
      {"ramp_gamma0", "ramp.gamma0"},
      {"ramp_epsilon", "ramp.epsilon"},
      {"max_steps", "run.max_steps"},
      {"realisations", "run.realisations"},
      {"first_realisation", "run.first_realisation"},
      {"thetas", "arrhenius.theta"},
      {"histogram_bins", "analysis.histogram_bins"},
      {"theory_points", "analysis.theory_points"},
      {"theory_rate", "theory.rate"},
      {"rate_formula", "theory.rate"},
      {"ensemble", "run"}};
  const auto it = keys.find(parameter);
  return it != keys.end() ? it->second : parameter;  // physical.* are already keys
}

ResolvedRun resolve_input(const RunParameters& p) {
  try {
    return resolve(p);
  } catch (const RunParameterError& e) {
    throw app::BadInput(key_of(e.parameter) + ": " + e.what());
  } catch (const std::domain_error& e) {
    throw app::BadInput(std::string("physical: ") + e.what());
  }
}

// Host memory of a run: every realisation's result stays on the host until the output is
// written, and the output is built in memory. About 90 bytes per realisation were measured
// (Serial build, 2026-11-28: 1e6 and 4e6 censored realisations); 160 leaves room for escape
// data and the output's copy while it is written.
std::size_t host_bytes(const ResolvedRun& r) {
  constexpr std::size_t per_realisation = 160;
  constexpr std::size_t most = std::numeric_limits<std::size_t>::max() / per_realisation;
  std::size_t realisations = 0;
  for (const auto& point : r.points)
    realisations = std::min<std::size_t>(most, realisations + point.realisations);
  return realisations * per_realisation;
}

// The run as the protocol drives it (run_protocol.hpp): one unit is one kernel launch of every
// rank's share of the current ensemble, on execution space Space (the run's --backend).
template <class Space>
class JosephsonDriver final : public app::RunDriver {
 public:
  JosephsonDriver(const app::Context& ctx, const Space& space, const RunParameters& parameters)
      : ctx_(ctx) {
    resolved_ = resolve_input(parameters);
    require_host_memory(host_bytes(resolved_), "run.realisations over all ensembles");
    try {
      simulation_ = std::make_unique<Simulation<Space>>(space, resolved_, ctx.comm);
    } catch (const RunParameterError& e) {
      throw app::BadInput(key_of(e.parameter) + ": " + e.what());
    }
    if (!ctx.options.quiet && ctx.is_root()) print_resolved(resolved_);
    // Warnings are never silent, not even with --quiet; they also go into the output file.
    if (ctx.is_root())
      for (const std::string& w : resolved_.warnings) std::cerr << "warning: " << w << "\n";
  }

  void advance() override { simulation_->advance(); }
  bool done() const override { return simulation_->done(); }
  double fraction_done() const override { return simulation_->fraction_done(); }
  std::string status() const override { return simulation_->status(); }
  // Every rank reads the whole file and keeps its new share.
  void resume(const std::string& path) override { simulation_->restore(read_checkpoint(path)); }
  void save(const std::string& path, const std::string& yaml) override {
    const RunCheckpoint state = simulation_->checkpoint();  // collective
    if (ctx_.is_root()) write_checkpoint(path, state, yaml);
  }
  void finish() override { points_ = simulation_->gathered_points(); }
  void analyse() override {
    analysis_ = analyse_run(resolved_, points_);
    std::size_t censored = 0;
    for (const SampleSummary& s : analysis_.samples) censored += s.censored;
    described_ = resolved_;
    if (censored == 0) return;
    std::cerr << "warning: " << censored
              << " realisation(s) reached max_steps without escaping: censored, counted in "
                 "'censored' and left out of the escape times and means\n";
    described_.warnings.push_back(std::to_string(censored) +
                                  " realisation(s) censored at max_steps (see 'censored')");
  }
  void write_results(h5::Group root) override {
    josephson::write_results(root, described_, points_, analysis_);
  }
  void print_summary() const override {
    josephson_app::print_summary(resolved_, points_, analysis_);
  }

 private:
  const app::Context& ctx_;
  ResolvedRun resolved_, described_;
  std::unique_ptr<Simulation<Space>> simulation_;
  std::vector<PointRecord> points_;
  RunAnalysis analysis_;
};

}  // namespace

std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx, const P& parameters) {
  return with_backend(ctx.options.backend, [&](auto space) -> std::unique_ptr<app::RunDriver> {
    return std::make_unique<JosephsonDriver<decltype(space)>>(ctx, space, parameters);
  });
}

}  // namespace portamc::josephson_app

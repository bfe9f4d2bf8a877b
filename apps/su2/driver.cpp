// portamc-su2's run under the run protocol (run_protocol.hpp): one unit is a thermalisation
// update, or the updates before a measurement and the measurement.
#include <iostream>
#include <memory>
#include <optional>

#include "portamc/app.hpp"
#include "portamc/backends.hpp"
#include "portamc/su2/names.hpp"
#include "portamc/su2/run_output.hpp"
#include "su2_app.hpp"

namespace portamc::su2_app {

namespace {

// The start configuration, checked against this run's lattice and precision (and checksum).
su2::GaugeConfig load_start(const su2::RunParameters& p) {
  su2::GaugeConfigExpectation expected;
  expected.extents.assign(p.extents.begin(), p.extents.end());
  expected.precision = p.precision;
  try {
    return su2::read_gauge_config(p.start_file, expected);
  } catch (const std::exception& e) {
    throw app::BadInput(std::string("model.start_file: ") + e.what());
  }
}

// The run as the protocol drives it (run_protocol.hpp): one unit is a thermalisation update,
// or the updates before a measurement and the measurement. Every kernel runs on `space`.
template <class Space>
class Su2Driver final : public app::RunDriver {
 public:
  Su2Driver(const Space& space, const app::Context& ctx, const su2::RunParameters& p)
      : ctx_(ctx), p_(p), save_path_(ctx.config.string("output.save_config")) {
    sim_.emplace(space, p, ctx.comm, to_parallel_options(ctx.config));
    if (!ctx.options.quiet && ctx.is_root())
      std::cerr << "lattice " << p.extents.size() << "D, " << p.volume() << " sites, "
                << p.betas.size() << " coupling(s), " << su2::to_string(p.precision) << ", "
                << sim_->decomposition_text() << "\n";
  }

  // The start configuration is read on rank 0 and sent out in blocks; the other ranks only
  // need the RNG counter it continues.
  void start() override {
    std::optional<su2::GaugeConfig> start;
    if (p_.start == su2::StartKind::file) {
      app::collective_check(
          ctx_, [&] { start = load_start(p_); }, true);
      std::string sweep = ctx_.is_root() ? std::to_string(start->metadata.sweep) : std::string();
      ctx_.comm.broadcast(sweep);
      if (!ctx_.is_root()) {
        start.emplace();
        start->metadata.sweep = std::stoull(sweep);
      }
    }
    sim_->start(start ? &*start : nullptr);
  }
  void resume(const std::string& path) override {
    su2::RunCheckpoint checkpoint = su2::read_checkpoint(path);
    if (!ctx_.is_root()) checkpoint.links.clear();  // the configuration comes from rank 0
    sim_->restore(checkpoint);
  }
  void advance() override { sim_->advance(); }
  bool done() const override { return sim_->done(); }
  double fraction_done() const override { return sim_->fraction_done(); }
  std::string status() const override { return sim_->status(); }
  void save(const std::string& path, const std::string& yaml) override {
    const su2::RunCheckpoint state = sim_->checkpoint();  // collective
    if (ctx_.is_root()) su2::write_checkpoint(path, state, yaml);
  }
  // Collective: the configuration is gathered on rank 0 before it alone writes files.
  void finish() override {
    if (!save_path_.empty()) final_links_ = sim_->configuration();
  }
  void analyse() override {
    for (const auto& r : sim_->points()) analyses_.push_back(su2::analyse_point(r, p_));
    for (std::size_t k = 0; k < analyses_.size(); ++k)
      for (const std::string& w : su2::analysis_warnings(analyses_[k], p_))
        std::cerr << "warning: beta " << sim_->points()[k].beta << ": " << w << "\n";
  }
  void write_results(h5::Group root) override {
    su2::write_results(root, p_, sim_->points(), analyses_);
  }
  void write_other_files() override {
    if (!save_path_.empty())
      su2::save_configuration(save_path_, *sim_, ctx_.provenance(p_.seed), final_links_);
  }
  void print_summary() const override { su2_app::print_summary(p_, sim_->points(), analyses_); }

 private:
  const app::Context& ctx_;
  su2::RunParameters p_;
  std::string save_path_;
  std::optional<su2::Simulation> sim_;
  std::vector<double> final_links_;
  std::vector<su2::PointAnalysis> analyses_;
};

}  // namespace

std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx, const su2::RunParameters& p) {
  return with_backend(ctx.options.backend, [&](auto space) -> std::unique_ptr<app::RunDriver> {
    return std::make_unique<Su2Driver<decltype(space)>>(space, ctx, p);
  });
}

}  // namespace portamc::su2_app

// portamc-cvf's run under the run protocol (run_protocol.hpp): the chain over the state points.
#include <iostream>
#include <memory>
#include <optional>

#include "cvf_app.hpp"
#include "portamc/app.hpp"
#include "portamc/backends.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/cvf/checkpoint.hpp"
#include "portamc/cvf/names.hpp"
#include "portamc/cvf/run_output.hpp"

namespace portamc::cvf_app {

namespace {

// The run as the protocol drives it (run_protocol.hpp) on execution space `Space` (the
// backend of --backend): one unit is a thermalisation step, or the steps before a measurement
// and the measurement.
template <class Space>
class CvfDriver final : public app::RunDriver {
 public:
  CvfDriver(const Space& space, const app::Context& ctx, const cvf::RunParameters& p)
      : ctx_(ctx), p_(p) {
    const int ranks = ctx.comm.size();  // the rank count was validated in run()
    // A size that does not fit is bad input, found before anything is allocated.
    try {
      require_memory<Space>(cvf::required_device_bytes(p, ranks),
                            "the CVF state of " + std::to_string(p.molecules()) + " molecules" +
                                (ranks > 1 ? " (one slab of " + std::to_string(ranks) + ")" : ""));
    } catch (const std::invalid_argument& e) {
      throw app::BadInput(e.what());
    }
    chain_ = std::make_unique<cvf::Run>(space, p, ctx.comm);
    if (verbose())
      std::cerr << "CVF water, " << p.molecules() << " molecules (L = " << p.L << "), "
                << p.point_count() << " state point(s), " << cvf::to_string(p.algorithm)
                << (ranks > 1 ? ", z-slabs over " + std::to_string(ranks) +
                                    " ranks (halos: " + chain_->halo_transport() + ")"
                              : std::string())
                << "\n";
  }

  void advance() override { chain_->advance(); }
  bool done() const override { return chain_->done(); }
  double fraction_done() const override { return chain_->fraction_done(); }
  std::string status() const override { return chain_->status(); }
  void resume(const std::string& path) override {
    const cvf::RunCheckpoint checkpoint = cvf::read_checkpoint(path);
    try {
      chain_->restore(checkpoint);
    } catch (const std::invalid_argument& e) {
      throw h5::BadCheckpoint("cannot resume from '" + path + "': " + e.what());
    }
  }
  void save(const std::string& path, const std::string& yaml) override {
    const cvf::RunCheckpoint state = chain_->checkpoint();  // collective
    if (ctx_.is_root()) cvf::write_checkpoint(path, state, yaml);
  }
  void finish() override {
    if (verbose() && chain_->ranks() > 1)
      std::cerr << "halo exchanges: " << chain_->halo_seconds() << " s on rank 0\n";
    // Gathered on rank 0 by every rank (collective).
    if (ctx_.config.boolean("output.configuration")) configuration_ = chain_->configuration();
  }
  void analyse() override {
    analyses_ = cvf::analyse(p_, chain_->points());
    for (std::size_t k = 0; k < analyses_.size(); ++k) {
      const auto warnings = cvf::analysis_warnings(analyses_[k]);
      if (warnings.empty()) continue;
      const cvf::StatePoint& s = chain_->points()[k].point;
      std::cerr << "warning: T = " << s.temperature_kelvin << " K, P = " << s.pressure_megapascal
                << " MPa: " << warnings.size() << " estimate(s) not reliable (run longer):\n";
      for (const std::string& w : warnings) std::cerr << "  " << w << "\n";
    }
  }
  void write_results(h5::Group root) override {
    cvf::write_results(root, p_, chain_->points(), analyses_);
    if (configuration_) cvf::write_configuration(root, *configuration_);
  }
  void print_summary() const override { cvf::print_summary(p_, chain_->points(), analyses_); }

 private:
  bool verbose() const { return !ctx_.options.quiet && ctx_.is_root(); }

  const app::Context& ctx_;
  cvf::RunParameters p_;
  std::unique_ptr<cvf::Run> chain_;
  std::optional<cvf::FinalConfiguration> configuration_;
  std::vector<cvf::PointAnalysis> analyses_;
};

}  // namespace

std::unique_ptr<app::RunDriver> make_driver(const app::Context& ctx, const cvf::RunParameters& p) {
  return with_backend(ctx.options.backend, [&](auto space) -> std::unique_ptr<app::RunDriver> {
    return std::make_unique<CvfDriver<decltype(space)>>(space, ctx, p);
  });
}

}  // namespace portamc::cvf_app

#pragma once
// portamc-tilings' run as the run protocol drives it (run_protocol.hpp): one unit of work is
// the glauber thermalisation, one sample, or a piece of at most 4096 time slots or steps of a
// cftp pass (tilings/sampling_run.hpp). The driver runs on one execution space (--backend):
// TilingsDriver<Space> is instantiated in driver.cpp for every backend of the build.
#include <memory>
#include <string>

#include "portamc/app.hpp"
#include "portamc/backends.hpp"
#include "portamc/run_protocol.hpp"
#include "portamc/series_analysis.hpp"
#include "portamc/tilings/run.hpp"
#include "portamc/tilings/sampling_run.hpp"

namespace portamc::tilings_app {

template <class Space>
class TilingsDriver final : public app::RunDriver {
 public:
  /// Collective: prepares the run on `space` (bad input: app::BadInput, on every rank alike).
  TilingsDriver(const Space& space, const app::Context& ctx, const tilings::RunParameters& p);

  void advance() override { sampling_->advance(); }
  bool done() const override { return sampling_->done(); }
  double fraction_done() const override { return sampling_->fraction_done(); }
  std::string status() const override { return sampling_->status(); }
  void resume(const std::string& path) override;
  void save(const std::string& path, const std::string& yaml) override;
  void finish() override { results_ = sampling_->results(); }
  void analyse() override;
  void write_results(h5::Group root) override;
  void print_summary() const override;

 private:
  const app::Context& ctx_;
  tilings::PreparedRun prepared_;
  std::unique_ptr<tilings::SamplingRun> sampling_;
  tilings::RunResults results_;
  stats::SeriesAnalysis statistics_;
};

// Compiled in driver.cpp for every backend of the build.
#define PORTAMC_TILINGS_EXTERN_DRIVER_(Space) extern template class TilingsDriver<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_EXTERN_DRIVER_)
#undef PORTAMC_TILINGS_EXTERN_DRIVER_

/// "on the same N ranks" (samples shared out) or "on any number of ranks the domain allows".
std::string resume_note(const tilings::RunParameters& p, int ranks);

}  // namespace portamc::tilings_app

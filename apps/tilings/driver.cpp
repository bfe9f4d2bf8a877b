#include "driver.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "portamc/backends.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/tilings/run_output.hpp"

namespace portamc::tilings_app {

template <class Space>
TilingsDriver<Space>::TilingsDriver(const Space& space, const app::Context& ctx,
                                    const tilings::RunParameters& p)
    : ctx_(ctx) {
  // Everything that needs the domain (files, tileability, memory, the rank count) is checked
  // here, before the output file is touched: a bad input costs nothing and leaves nothing.
  try {
    prepared_ = tilings::prepare_run(p, backend_name<Space>());
    tilings::check_ranks(prepared_, ctx.comm.size());
  } catch (const std::invalid_argument& e) {
    throw app::BadInput(e.what());
  }
  if (!ctx.options.quiet && ctx.is_root())
    std::cerr << tilings::to_string(p.model) << " " << tilings::to_string(p.mode) << " on "
              << p.domain_description() << ", " << p.samples << " sample(s)\n";
  sampling_ = std::make_unique<tilings::SamplingRun>(space, prepared_, ctx.comm);
}

template <class Space>
void TilingsDriver<Space>::resume(const std::string& path) {
  const tilings::SamplingCheckpoint checkpoint = tilings::read_checkpoint(path);
  try {
    sampling_->restore(checkpoint);
  } catch (const std::invalid_argument& e) {
    h5::refuse_checkpoint(path, e.what());
  }
}

template <class Space>
void TilingsDriver<Space>::save(const std::string& path, const std::string& yaml) {
  const tilings::SamplingCheckpoint state = sampling_->checkpoint();  // collective
  if (ctx_.is_root()) tilings::write_checkpoint(path, state, yaml);
}

template <class Space>
void TilingsDriver<Space>::analyse() {
  statistics_ =
      tilings::observable_statistics(prepared_.parameters.mode, results_.observable_values);
  // Printed even with --quiet: an error bar that cannot be trusted must not pass unnoticed.
  if (!statistics_.reliable)
    std::cerr << "warning: " << results_.observable << ": " << statistics_.warning << "\n";
}

template <class Space>
void TilingsDriver<Space>::write_results(h5::Group root) {
  tilings::write_results(root, prepared_, results_);
}

template <class Space>
void TilingsDriver<Space>::print_summary() const {
  const tilings::RunParameters& p = prepared_.parameters;
  const stats::SeriesAnalysis& m = statistics_;
  std::printf("%s %s (%s), %zu samples in %.2f s\n", tilings::to_string(p.model),
              tilings::to_string(p.mode), p.domain_description().c_str(),
              results_.observable_values.size(), results_.seconds);
  std::printf("  %s = %.6g +- %.2g (tau_int %.3g samples, N_eff %.4g, %zu discarded)\n",
              results_.observable.c_str(), m.mean.value, m.mean.error, m.tau.tau_int,
              m.effective_samples, m.discarded);
  if (!results_.cftp_horizons.empty()) {
    const auto largest =
        *std::max_element(results_.cftp_horizons.begin(), results_.cftp_horizons.end());
    std::printf("  largest coalescence horizon %llu steps\n",
                static_cast<unsigned long long>(largest));
  }
}

#define PORTAMC_TILINGS_INSTANTIATE_(Space) template class TilingsDriver<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_INSTANTIATE_)
#undef PORTAMC_TILINGS_INSTANTIATE_

std::string resume_note(const tilings::RunParameters& p, int ranks) {
  if (p.mode == tilings::SamplingMode::glauber) return "on any number of ranks the domain allows";
  return "on " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") +
         " (the samples are shared out by rank)";
}

}  // namespace portamc::tilings_app

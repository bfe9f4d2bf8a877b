#include "portamc/muca/production_analysis.hpp"

#include "portamc/muca/stationarity.hpp"

namespace portamc::muca {

template <class Space>
ProductionAnalysis analyse_production(const Simulation<Space>& sim,
                                      const std::vector<double>& betas) {
  const auto& driver = sim.driver();
  const EnergyBins& bins = sim.model().energy_bins();
  const auto& lnw = sim.model().log_weights();
  const double threshold = sim.parameters().stationarity_threshold;
  ProductionAnalysis a;
  std::vector<std::vector<count_type>> samples;
  if (sim.production_by_group() && driver.groups >= kMinJackknifeGroups) {
    a.error_method = "walker_groups";
    const std::size_t nbins = static_cast<std::size_t>(bins.count());
    for (int g = 0; g < driver.groups; ++g)
      samples.emplace_back(driver.group_histograms.begin() + g * nbins,
                           driver.group_histograms.begin() + (g + 1) * nbins);
    a.stationarity = group_stationarity(driver.block_group_windows, driver.groups, threshold);
  } else {
    a.error_method = "time_bins";
    a.binning = bin_blocks(bins, lnw, driver.block_histograms);
    samples = a.binning.bins;
    a.stationarity = production_stationarity(bins, driver.block_histograms, threshold);
  }
  a.jackknife_samples = static_cast<int>(samples.size());
  a.dos = estimate_log_dos(bins, lnw, samples);
  a.canonical = reweight(sim.parameters().L, lnw, samples, betas);
  return a;
}

#define PORTAMC_MUCA_INSTANTIATE_(S)                                       \
  template ProductionAnalysis analyse_production(const Simulation<S>& sim, \
                                                 const std::vector<double>& betas);
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_INSTANTIATE_)
#undef PORTAMC_MUCA_INSTANTIATE_

}  // namespace portamc::muca

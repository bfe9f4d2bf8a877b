#include "portamc/muca/production_analysis.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/muca/first_order.hpp"
#include "portamc/muca/stationarity.hpp"

namespace portamc::muca {

FirstOrderAnalysis analyse_double_peak(const EnergyBins& bins, const Hamiltonian& h,
                                       const std::vector<double>& log_weights,
                                       const std::vector<std::vector<count_type>>& samples,
                                       double beta_lo, double beta_hi) {
  FirstOrderAnalysis a;
  a.attempted = true;
  a.beta_lo = beta_lo;
  a.beta_hi = beta_hi;
  const std::vector<double> energy = bins.energies();
  const auto values_of = [&](const std::vector<double>& histogram) {
    return double_peak_values(double_peak(energy,
                                          log_dos_from_histogram(bins, log_weights, histogram), h.L,
                                          h.dimension, beta_lo, beta_hi));
  };
  std::vector<std::vector<double>> blocks;
  std::vector<double> all(static_cast<std::size_t>(bins.count()), 0.0);
  for (const auto& s : samples) {
    blocks.emplace_back(s.begin(), s.end());
    for (std::size_t k = 0; k < all.size(); ++k) all[k] += static_cast<double>(s[k]);
  }
  try {
    values_of(all);
  } catch (const std::invalid_argument& e) {
    a.reason = e.what();
    return a;
  }
  a.found = true;
  // A sample without the double peak (a noisy ln g near the search range's ends) gives NaN,
  // and with it NaN errors: counted, not hidden.
  a.values = stats::jackknife_with_tau(blocks, [&](const std::vector<double>& h_sum) {
    try {
      return values_of(h_sum);
    } catch (const std::invalid_argument&) {
      ++a.failed_samples;
      return std::vector<double>(6, std::numeric_limits<double>::quiet_NaN());
    }
  });
  return a;
}

template <class Space, class Engine>
ProductionAnalysis analyse_production(const Simulation<Space, Engine>& sim,
                                      const std::vector<double>& points, bool double_peak) {
  const auto& driver = sim.driver();
  const Hamiltonian h = sim.hamiltonian();
  const bool fixed_beta = h.kind == HamiltonianKind::blume_capel;
  // The coefficient of the bin variable in the reweighting exponent: beta for a scan in beta,
  // beta D for Blume-Capel's scan in D at fixed beta.
  std::vector<double> betas = points;
  if (fixed_beta)
    for (double& b : betas) b *= h.beta;
  const EnergyBins& bins = sim.bins();
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
  if (fixed_beta) {
    a.has_crystal_field = true;
    a.crystal_field = reweight_crystal_field(bins, h.beta, lnw, samples, points);
  } else {
    a.canonical = reweight(bins, lnw, samples, betas);
  }
  if (!sim.order_parameter_recorded()) {
    a.order_parameter_reason = sim.parameters().order_parameter_sweeps == 0
                                   ? "production.order_parameter_sweeps is 0"
                                   : "the production was not measured in every block";
  } else {
    // The moments' jackknife samples are those of ln g: walker groups, or the same bins of
    // consecutive blocks.
    const std::size_t row = static_cast<std::size_t>(bins.count()) * kOrderSlots;
    std::vector<std::vector<std::uint64_t>> sums;
    if (a.error_method == "walker_groups") {
      for (int g = 0; g < driver.groups; ++g)
        sums.emplace_back(driver.group_order_sums.begin() + g * row,
                          driver.group_order_sums.begin() + (g + 1) * row);
    } else {
      sums = sum_consecutive(driver.block_order_sums, samples.size());
      for (auto& sum : sums) normalise_limbs(sum);
    }
    a.has_order_parameter = true;
    a.order_parameter =
        reweight_order_parameter(bins, order_parameter_spec(h), lnw, samples, sums, betas,
                                 fixed_beta ? std::vector<double>(betas.size(), h.beta) : betas);
    a.order_parameter.beta = points;
  }
  if (double_peak && !betas.empty()) {
    a.double_peak = analyse_double_peak(bins, h, lnw, samples, betas.front(), betas.back());
    if (fixed_beta) {
      // beta D_eq found: report D_eq and the search range in D.
      a.double_peak.beta_lo = points.front();
      a.double_peak.beta_hi = points.back();
      if (a.double_peak.found) {
        a.double_peak.values[0].value /= h.beta;
        a.double_peak.values[0].error /= h.beta;
      } else {
        a.double_peak.reason += " (the betas named here are beta D at the run's beta)";
      }
    }
  }
  return a;
}

#define PORTAMC_MUCA_INSTANTIATE_(S)                                                      \
  template ProductionAnalysis analyse_production(const Simulation<S>& sim,                \
                                                 const std::vector<double>& betas, bool); \
  template ProductionAnalysis analyse_production(const Simulation<S, SpinMuca<S>>& sim,   \
                                                 const std::vector<double>& betas, bool);
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_INSTANTIATE_)
#undef PORTAMC_MUCA_INSTANTIATE_

}  // namespace portamc::muca

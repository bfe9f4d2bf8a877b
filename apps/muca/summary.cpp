// portamc-muca's summary on stdout, with the comparison against the exact finite-lattice values.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "muca_app.hpp"
#include "portamc/muca/ising_exact.hpp"

namespace portamc::muca_app {

// The summary on stdout: convergence, production, errors, stationarity and the comparison with
// the exact finite-lattice values (Ferdinand-Fisher).
template <class Space>
void print_summary(const muca::Simulation<Space>& sim, const muca::ProductionAnalysis& analysis,
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

#define PORTAMC_MUCA_INSTANTIATE_(S)                                    \
  template void print_summary(const muca::Simulation<S>& sim,           \
                              const muca::ProductionAnalysis& analysis, \
                              const muca::Timing& timing, const std::vector<double>& betas);
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_INSTANTIATE_)
#undef PORTAMC_MUCA_INSTANTIATE_

}  // namespace portamc::muca_app

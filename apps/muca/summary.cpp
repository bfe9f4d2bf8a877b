// portamc-muca's summary on stdout, with the comparison against the exact finite-lattice values
// where they are known (exact_reference.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "muca_app.hpp"
#include "portamc/muca/exact_reference.hpp"

namespace portamc::muca_app {

namespace {

// beta_eq (D_eq), the latent heat (density jump) and the interface tension with their errors.
void print_double_peak(const muca::FirstOrderAnalysis& peak, bool fixed_beta) {
  if (!peak.attempted) return;
  const char* point = fixed_beta ? "D" : "beta";
  if (!peak.found) {
    std::printf("double peak: none in %s [%g, %g]\n", point, peak.beta_lo, peak.beta_hi);
    return;
  }
  const auto& v = peak.values;
  std::printf(
      "double peak: %s_eq = %.6f +- %.6f, %s = %.5f +- %.5f, "
      "beta sigma_L = %.5f +- %.5f%s\n",
      point, v[0].value, v[0].error, fixed_beta ? "density jump" : "latent heat/N", v[3].value,
      v[3].error, v[5].value, v[5].error,
      peak.failed_samples > 0 ? " (some jackknife samples had no double peak: errors NaN)" : "");
}

// A few rows of a table over the points, each value with its error.
void print_rows(const char* point, const std::vector<double>& points,
                const std::vector<std::pair<const char*, const muca::EstimateTable*>>& columns) {
  std::printf("%8s", point);
  for (const auto& c : columns) std::printf(" %22s", c.first);
  std::printf("\n");
  const std::size_t n = points.size();
  for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 6)) {
    std::printf("%8.4f", points[i]);
    for (const auto& c : columns)
      std::printf(" %12.6f +- %.6f", c.second->value[i], c.second->error[i]);
    std::printf("\n");
  }
}

}  // namespace

// The summary on stdout: convergence, production, errors, stationarity and the comparison with
// the exact finite-lattice values where known.
template <class Space, class Engine>
void print_summary(const muca::Simulation<Space, Engine>& sim,
                   const muca::ProductionAnalysis& analysis, const muca::Timing& timing,
                   const std::vector<double>& betas) {
  const auto& canonical = analysis.canonical;
  const auto& stationarity = analysis.stationarity;
  const muca::Hamiltonian h = sim.hamiltonian();
  const double sites = static_cast<double>(h.sites()), walkers = static_cast<double>(sim.walkers());
  const auto& last = sim.driver().records.back();
  std::printf(
      "portamc-muca: %s, W=%.0f %s after %d iterations (d_KL = %.2e, %.2f s, %.1f "
      "ps/attempt)\n",
      h.describe().c_str(), walkers, sim.converged() ? "converged" : "NOT converged",
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
  const std::size_t n = betas.size();
  const bool fixed_beta = analysis.has_crystal_field;
  const auto exact = muca::exact_canonical(h, sim.bins(), betas);
  if (fixed_beta) {
    const auto& t = analysis.crystal_field;
    print_rows("D", betas, {{"<n>/N", &t.density}, {"(<n^2>-<n>^2)/N", &t.density_susceptibility}});
  } else if (exact.empty()) {
    std::printf("%8s %22s %22s\n", "beta", "U/N", "C/N");
    for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 6))
      std::printf("%8.4f %12.6f +- %.6f %12.6f +- %.6f\n", betas[i], canonical.energy.value[i],
                  canonical.energy.error[i], canonical.specific_heat.value[i],
                  canonical.specific_heat.error[i]);
  } else {
    std::printf("%8s %22s %12s %22s %12s\n", "beta", "U/N (muca)", "U/N exact", "C/N (muca)",
                "C/N exact");
    for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 6))
      std::printf("%8.4f %12.6f +- %.6f %12.6f %12.6f +- %.6f %12.6f\n", betas[i],
                  canonical.energy.value[i], canonical.energy.error[i], exact[i].energy_per_spin,
                  canonical.specific_heat.value[i], canonical.specific_heat.error[i],
                  exact[i].specific_heat_per_spin);
    // How many beta points lie within 3 errors of the exact finite-lattice values is the first
    // thing to check in a run.
    int within_u = 0, within_c = 0;
    double max_u = 0, max_c = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double zu =
          (canonical.energy.value[i] - exact[i].energy_per_spin) / canonical.energy.error[i];
      const double zc = (canonical.specific_heat.value[i] - exact[i].specific_heat_per_spin) /
                        canonical.specific_heat.error[i];
      within_u += std::abs(zu) <= 3;
      within_c += std::abs(zc) <= 3;
      max_u = std::max(max_u, std::abs(zu));
      max_c = std::max(max_c, std::abs(zc));
    }
    std::printf(
        "against %s: U/N within 3 errors at %d of %zu beta points (max |z| %.2f), "
        "C/N at %d of %zu (max |z| %.2f)\n",
        muca::exact_source(h).c_str(), within_u, n, max_u, within_c, n, max_c);
  }
  print_double_peak(analysis.double_peak, fixed_beta);
  if (analysis.has_order_parameter) {
    const auto& m = analysis.order_parameter;
    print_rows(fixed_beta ? "D" : "beta", betas,
               {{"<|m|>", &m.magnetisation}, {"chi", &m.susceptibility}, {"U4", &m.binder}});
  } else {
    std::printf("order parameter: not measured (%s)\n", analysis.order_parameter_reason.c_str());
  }
  std::printf("%g spins x %g walkers\n", sites, walkers);
}

#define PORTAMC_MUCA_INSTANTIATE_(S)                                                         \
  template void print_summary(const muca::Simulation<S>& sim,                                \
                              const muca::ProductionAnalysis& analysis,                      \
                              const muca::Timing& timing, const std::vector<double>& betas); \
  template void print_summary(const muca::Simulation<S, muca::SpinMuca<S>>& sim,             \
                              const muca::ProductionAnalysis& analysis,                      \
                              const muca::Timing& timing, const std::vector<double>& betas);
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_INSTANTIATE_)
#undef PORTAMC_MUCA_INSTANTIATE_

}  // namespace portamc::muca_app

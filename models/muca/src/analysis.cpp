#include "portamc/muca/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "portamc/muca/ising_exact.hpp"
#include "portamc/series_analysis.hpp"
#include "portamc/statistics.hpp"

namespace portamc::muca {
namespace {

std::vector<std::vector<double>> as_doubles(const std::vector<std::vector<count_type>>& blocks) {
  std::vector<std::vector<double>> out;
  out.reserve(blocks.size());
  for (const auto& b : blocks) out.emplace_back(b.begin(), b.end());
  return out;
}

}  // namespace

EstimateTable table_of(const std::vector<stats::JackknifeEstimate>& e, std::size_t first,
                       std::size_t n) {
  EstimateTable t;
  for (std::size_t i = first; i < first + n; ++i) {
    t.value.push_back(e[i].value);
    t.error.push_back(e[i].error);
    t.tau_int.push_back(e[i].tau_int);
    t.n_eff.push_back(e[i].effective_blocks);
  }
  return t;
}

std::vector<double> log_dos_from_histogram(const EnergyBins& bins,
                                           const std::vector<double>& log_weights,
                                           const std::vector<double>& histogram) {
  const double minus_inf = -std::numeric_limits<double>::infinity();
  std::vector<double> log_g(bins.count(), minus_inf);
  double top = minus_inf;
  for (int k = 0; k < bins.count(); ++k) {
    if (histogram[k] > 0) {
      log_g[k] = std::log(histogram[k]) - log_weights[k];
      top = std::max(top, log_g[k]);
    }
  }
  if (top == minus_inf) return log_g;
  if (bins.anchor_bin >= 0) {
    // Without the anchor bin the normalisation is unknown: every bin undefined.
    const double anchor = log_g[static_cast<std::size_t>(bins.anchor_bin)];
    for (double& v : log_g)
      v = anchor == minus_inf ? std::numeric_limits<double>::quiet_NaN() : v - anchor;
    return log_g;
  }
  double sum = 0;
  for (double v : log_g)
    if (v != minus_inf) sum += std::exp(v - top);
  const double shift =
      bins.N * std::log(static_cast<double>(bins.site_states)) - (top + std::log(sum));
  for (double& v : log_g)
    if (v != minus_inf) v += shift;
  return log_g;
}

DensityOfStates estimate_log_dos(const EnergyBins& bins, const std::vector<double>& log_weights,
                                 const std::vector<std::vector<count_type>>& blocks) {
  const auto estimates = stats::jackknife_with_tau(
      as_doubles(blocks),
      [&](const std::vector<double>& h) { return log_dos_from_histogram(bins, log_weights, h); });
  return DensityOfStates{table_of(estimates, 0, estimates.size())};
}

CanonicalTable reweight(const EnergyBins& bins, const std::vector<double>& log_weights,
                        const std::vector<std::vector<count_type>>& blocks,
                        const std::vector<double>& betas) {
  const auto n = betas.size();
  const std::vector<double> energy = bins.energies();
  // One estimator returns all four observables at every beta: [U..., C..., F..., S...].
  const auto estimates =
      stats::jackknife_with_tau(as_doubles(blocks), [&](const std::vector<double>& h) {
        const auto log_g = log_dos_from_histogram(bins, log_weights, h);
        std::vector<double> out(4 * n);
        for (std::size_t i = 0; i < n; ++i) {
          const auto c = exact::canonical_from_log_dos(log_g, energy, bins.N, betas[i]);
          out[i] = c.energy_per_spin;
          out[n + i] = c.specific_heat_per_spin;
          out[2 * n + i] = c.free_energy_per_spin;
          out[3 * n + i] = c.entropy_per_spin;
        }
        return out;
      });
  CanonicalTable t;
  t.beta = betas;
  t.energy = table_of(estimates, 0, n);
  t.specific_heat = table_of(estimates, n, n);
  t.free_energy = table_of(estimates, 2 * n, n);
  t.entropy = table_of(estimates, 3 * n, n);
  return t;
}

BlockBinning bin_blocks(const EnergyBins& bins, const std::vector<double>& log_weights,
                        const std::vector<std::vector<count_type>>& blocks) {
  BlockBinning b;
  std::vector<double> taus;
  for (double t : estimate_log_dos(bins, log_weights, blocks).log_g.tau_int)
    if (std::isfinite(t)) taus.push_back(t);
  if (!taus.empty()) {
    std::nth_element(taus.begin(), taus.begin() + taus.size() / 2, taus.end());
    b.block_tau_int = taus[taus.size() / 2];
  }
  const stats::BinChoice choice = stats::choose_bins(blocks.size(), b.block_tau_int);
  b.blocks_per_bin = static_cast<int>(std::max<std::size_t>(choice.bin_size, 1));
  b.long_enough = choice.long_enough;
  b.bins = sum_consecutive(blocks, std::max<std::size_t>(choice.bins, 1));
  return b;
}

std::vector<std::vector<count_type>> sum_consecutive(
    const std::vector<std::vector<count_type>>& rows, std::size_t n_bins) {
  // Every row is used: the first (rows mod n_bins) bins take one row more.
  const std::size_t base = rows.size() / n_bins, extra = rows.size() % n_bins;
  std::vector<std::vector<count_type>> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < n_bins; ++i) {
    std::vector<count_type> sum(rows.front().size(), 0);
    for (std::size_t j = 0; j < base + (i < extra ? 1 : 0); ++j, ++next)
      for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += rows[next][k];
    out.push_back(std::move(sum));
  }
  return out;
}

std::vector<double> linear_grid(double lo, double hi, int n) {
  std::vector<double> grid(n);
  for (int i = 0; i < n; ++i) grid[i] = n == 1 ? lo : lo + (hi - lo) * i / (n - 1);
  return grid;
}

}  // namespace portamc::muca

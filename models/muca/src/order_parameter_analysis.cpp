#include "portamc/muca/order_parameter_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "portamc/statistics.hpp"

namespace portamc::muca {
namespace {

// Microcanonical moments <m>, <m^2>, <m^4> of one bin from the sums of d^0..d^4, with
// m = a + s d (order_parameter.hpp).
struct BinMoments {
  double m1, m2, m4;
};
BinMoments bin_moments(const OrderParameterSpec& spec, double count, const double* power_sums) {
  const double mu1 = power_sums[0] / count, mu2 = power_sums[1] / count,
               mu3 = power_sums[2] / count, mu4 = power_sums[3] / count;
  const double a = spec.offset, s = spec.scale;
  BinMoments m;
  m.m1 = a + s * mu1;
  m.m2 = a * a + 2 * a * s * mu1 + s * s * mu2;
  m.m4 = a * a * a * a + 4 * a * a * a * s * mu1 + 6 * a * a * s * s * mu2 +
         4 * a * s * s * s * mu3 + s * s * s * s * mu4;
  return m;
}

}  // namespace

OrderParameterTable reweight_order_parameter(const EnergyBins& bins, const OrderParameterSpec& spec,
                                             const std::vector<double>& log_weights,
                                             const std::vector<std::vector<count_type>>& histograms,
                                             const std::vector<std::vector<std::uint64_t>>& sums,
                                             const std::vector<double>& betas,
                                             const std::vector<double>& chi_betas) {
  const std::size_t nbins = static_cast<std::size_t>(bins.count());
  if (histograms.size() != sums.size() || betas.size() != chi_betas.size())
    throw std::invalid_argument("order parameter: mismatched group or beta lists");
  // One jackknife sample per group: [histogram | count | sum d | sum d^2 | sum d^3 | sum d^4],
  // each nbins long, so a group's energies and measurements leave the sums together.
  std::vector<std::vector<double>> samples;
  for (std::size_t g = 0; g < histograms.size(); ++g) {
    if (histograms[g].size() != nbins || sums[g].size() != nbins * kOrderSlots)
      throw std::invalid_argument("order parameter: a group's data do not match the bins");
    std::vector<double> v(6 * nbins);
    for (std::size_t k = 0; k < nbins; ++k) {
      const std::uint64_t* slot = &sums[g][k * kOrderSlots];
      v[k] = static_cast<double>(histograms[g][k]);
      v[nbins + k] = static_cast<double>(slot[0]);
      for (int p = 0; p < 4; ++p) v[(2 + p) * nbins + k] = limbs_value(slot + 1 + 4 * p);
    }
    samples.push_back(std::move(v));
  }
  OrderParameterTable t;
  t.beta = betas;
  const std::size_t n = betas.size();
  const std::vector<double> energy = bins.energies();
  const double sites = static_cast<double>(spec.sites);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto estimator = [&](const std::vector<double>& v) {
    const std::vector<double> histogram(v.begin(), v.begin() + nbins);
    const std::vector<double> log_g = log_dos_from_histogram(bins, log_weights, histogram);
    std::vector<BinMoments> moments(nbins);
    std::vector<char> measured(nbins, 0);
    std::vector<double> out(5 * n + nbins, nan);
    for (std::size_t k = 0; k < nbins; ++k) {
      const double count = v[nbins + k];
      if (count <= 0 || !std::isfinite(log_g[k])) continue;
      const double power_sums[4] = {v[2 * nbins + k], v[3 * nbins + k], v[4 * nbins + k],
                                    v[5 * nbins + k]};
      moments[k] = bin_moments(spec, count, power_sums);
      measured[k] = 1;
      out[5 * n + k] = moments[k].m1;
    }
    for (std::size_t i = 0; i < n; ++i) {
      double top = -std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < nbins; ++k)
        if (measured[k]) top = std::max(top, log_g[k] - betas[i] * energy[k]);
      double z = 0, m1 = 0, m2 = 0, m4 = 0;
      for (std::size_t k = 0; k < nbins; ++k) {
        if (!measured[k]) continue;
        const double w = std::exp(log_g[k] - betas[i] * energy[k] - top);
        z += w;
        m1 += w * moments[k].m1;
        m2 += w * moments[k].m2;
        m4 += w * moments[k].m4;
      }
      if (z <= 0) continue;
      m1 /= z;
      m2 /= z;
      m4 /= z;
      out[i] = m1;
      out[n + i] = m2;
      out[2 * n + i] = m4;
      out[3 * n + i] = chi_betas[i] * sites * (m2 - m1 * m1);
      out[4 * n + i] = 1.0 - m4 / (3.0 * m2 * m2);
    }
    return out;
  };
  const auto estimates = stats::jackknife_with_tau(samples, estimator);
  t.magnetisation = table_of(estimates, 0, n);
  t.m2 = table_of(estimates, n, n);
  t.m4 = table_of(estimates, 2 * n, n);
  t.susceptibility = table_of(estimates, 3 * n, n);
  t.binder = table_of(estimates, 4 * n, n);
  t.bin_magnetisation = table_of(estimates, 5 * n, nbins);
  std::vector<double> all_hist(nbins, 0), all_count(nbins, 0);
  for (const auto& v : samples)
    for (std::size_t k = 0; k < nbins; ++k) {
      all_hist[k] += v[k];
      all_count[k] += v[nbins + k];
    }
  for (std::size_t k = 0; k < nbins; ++k)
    if (all_hist[k] > 0 && all_count[k] == 0) ++t.unmeasured_bins;
  return t;
}

}  // namespace portamc::muca

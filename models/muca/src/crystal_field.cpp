#include "portamc/muca/crystal_field.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "portamc/statistics.hpp"

namespace portamc::muca {

CrystalFieldPoint crystal_field_point(const std::vector<double>& log_g, double sites, double beta,
                                      double crystal_field) {
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t n = 0; n < log_g.size(); ++n)
    if (std::isfinite(log_g[n]))
      top = std::max(top, log_g[n] - beta * crystal_field * static_cast<double>(n));
  double z = 0, n1 = 0, n2 = 0;
  for (std::size_t n = 0; n < log_g.size(); ++n) {
    if (!std::isfinite(log_g[n])) continue;
    const double x = static_cast<double>(n);
    const double w = std::exp(log_g[n] - beta * crystal_field * x - top);
    z += w;
    n1 += w * x;
    n2 += w * x * x;
  }
  CrystalFieldPoint p;
  n1 /= z;
  n2 /= z;
  p.density = n1 / sites;
  p.density_susceptibility = (n2 - n1 * n1) / sites;
  p.free_energy = -(top + std::log(z)) / (beta * sites);
  return p;
}

CrystalFieldTable reweight_crystal_field(const EnergyBins& bins, double beta,
                                         const std::vector<double>& log_weights,
                                         const std::vector<std::vector<count_type>>& samples,
                                         const std::vector<double>& crystal_fields) {
  const std::size_t n = crystal_fields.size();
  std::vector<std::vector<double>> blocks;
  for (const auto& s : samples) blocks.emplace_back(s.begin(), s.end());
  const auto estimates = stats::jackknife_with_tau(blocks, [&](const std::vector<double>& h) {
    const auto log_g = log_dos_from_histogram(bins, log_weights, h);
    std::vector<double> out(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const CrystalFieldPoint p = crystal_field_point(log_g, bins.N, beta, crystal_fields[i]);
      out[i] = p.density;
      out[n + i] = p.density_susceptibility;
      out[2 * n + i] = p.free_energy;
    }
    return out;
  });
  CrystalFieldTable t;
  t.crystal_field = crystal_fields;
  t.density = table_of(estimates, 0, n);
  t.density_susceptibility = table_of(estimates, n, n);
  t.free_energy = table_of(estimates, 2 * n, n);
  return t;
}

}  // namespace portamc::muca

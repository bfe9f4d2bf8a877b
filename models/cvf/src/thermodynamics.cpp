#include "portamc/cvf/thermodynamics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace portamc::cvf {
namespace {

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

void check_series(const char* who, const char* name, const std::vector<double>& series,
                  std::size_t blocks) {
  const std::string prefix = std::string(who) + ": ";
  require(blocks >= 2,
          prefix + "at least 2 jackknife blocks are required, got " + std::to_string(blocks));
  require(series.size() >= blocks, prefix + "the " + name + " series has " +
                                       std::to_string(series.size()) + " samples, fewer than the " +
                                       std::to_string(blocks) + " jackknife blocks");
  for (std::size_t k = 0; k < series.size(); ++k) {
    require(
        std::isfinite(series[k]),
        prefix + "the " + name + " series has a non-finite sample at index " + std::to_string(k));
  }
}

// Block b holds samples [b S / B, (b+1) S / B): every sample is used and block lengths differ
// by at most one. The jackknife works on per-block sums, so unequal counts are harmless.
std::size_t block_start(std::size_t b, std::size_t samples, std::size_t blocks) {
  return static_cast<std::size_t>(static_cast<unsigned long long>(b) * samples / blocks);
}

double mean_of(const std::vector<double>& x) {
  double sum = 0;
  for (double value : x) sum += value;
  return sum / static_cast<double>(x.size());
}

stats::Estimate scaled(stats::Estimate e, double factor) {
  return {e.value * factor, e.error * factor};
}

// Layout of one block's sums. Samples are shifted by the overall means first: Var(h) ~ t^2 C_P /
// N is tiny against <h>^2 for large N, and sum(h^2) - n <h>^2 would cancel catastrophically.
enum Sum : std::size_t { count, dh, dv, dh2, dv2, dhdv, rho, sum_size };
enum Result : std::size_t { r_volume, r_density, r_enthalpy, r_cp, r_kappa, r_alpha, r_size };

}  // namespace

double heat_capacity_j_per_mol_k(double heat_capacity_reduced) {
  return heat_capacity_reduced * gas_constant;
}

double compressibility_per_gpa(const ModelParameters& parameters, double compressibility_reduced) {
  const double v0_m3_per_mol = molar_v0_cm3(parameters) * 1e-6;
  const double epsilon_j_per_mol = parameters.epsilon_kj_per_mol * 1e3;
  return compressibility_reduced * v0_m3_per_mol / epsilon_j_per_mol * 1e9;
}

double expansivity_per_kelvin(const ModelParameters& parameters, double expansivity_reduced) {
  const double epsilon_j_per_mol = parameters.epsilon_kj_per_mol * 1e3;
  return expansivity_reduced * gas_constant / epsilon_j_per_mol;
}

ResponseFunctions response_functions(const std::vector<double>& h, const std::vector<double>& v,
                                     std::int64_t molecules, double t,
                                     const ModelParameters& parameters, std::size_t blocks) {
  const char* who = "cvf::response_functions";
  validate(parameters);
  require(h.size() == v.size(), std::string(who) + ": the enthalpy series has " +
                                    std::to_string(h.size()) + " samples but the volume series " +
                                    std::to_string(v.size()));
  check_series(who, "enthalpy", h, blocks);
  check_series(who, "volume", v, blocks);
  require(molecules >= 1, std::string(who) + ": the number of molecules must be positive, got " +
                              std::to_string(molecules));
  require(std::isfinite(t) && t > 0,
          std::string(who) + ": the reduced temperature t must be positive and finite");
  for (std::size_t k = 0; k < v.size(); ++k) {
    require(v[k] > 0, std::string(who) + ": the volume per molecule must be positive, got " +
                          std::to_string(v[k]) + " at index " + std::to_string(k));
  }

  const std::size_t samples = h.size();
  const double h_ref = mean_of(h);
  const double v_ref = mean_of(v);
  std::vector<std::vector<double>> sums(blocks, std::vector<double>(sum_size, 0.0));
  for (std::size_t b = 0; b < blocks; ++b) {
    auto& s = sums[b];
    const std::size_t end = block_start(b + 1, samples, blocks);
    for (std::size_t k = block_start(b, samples, blocks); k < end; ++k) {
      const double x = h[k] - h_ref;
      const double y = v[k] - v_ref;
      s[count] += 1;
      s[dh] += x;
      s[dv] += y;
      s[dh2] += x * x;
      s[dv2] += y * y;
      s[dhdv] += x * y;
      s[rho] += density_g_per_cm3(parameters, v[k]);
    }
  }

  const double n_molecules = static_cast<double>(molecules);
  // Sample (co)variances with the n - 1 denominator: unbiased for independent samples; for
  // correlated ones the remaining bias, of relative order 2 tau_int / n, is below the error.
  auto estimator = [&](const std::vector<double>& s) {
    const double n = s[count];
    const double mh = s[dh] / n;
    const double mv = s[dv] / n;
    const double var_h = (s[dh2] - n * mh * mh) / (n - 1);
    const double var_v = (s[dv2] - n * mv * mv) / (n - 1);
    const double cov = (s[dhdv] - n * mh * mv) / (n - 1);
    const double volume = v_ref + mv;
    std::vector<double> r(r_size);
    r[r_volume] = volume;
    r[r_density] = s[rho] / n;
    r[r_enthalpy] = h_ref + mh;
    r[r_cp] = n_molecules * var_h / (t * t);
    r[r_kappa] = n_molecules * var_v / (t * volume);
    r[r_alpha] = n_molecules * cov / (t * t * volume);
    return r;
  };
  const std::vector<stats::Estimate> e = stats::jackknife(sums, estimator);

  ResponseFunctions out{};
  out.samples = samples;
  out.blocks = blocks;
  out.volume = e[r_volume];
  out.density_g_per_cm3 = e[r_density];
  out.enthalpy = e[r_enthalpy];
  out.enthalpy_kj_per_mol = {kj_per_mol(parameters, e[r_enthalpy].value),
                             kj_per_mol(parameters, e[r_enthalpy].error)};
  out.heat_capacity = e[r_cp];
  out.heat_capacity_j_per_mol_k = scaled(e[r_cp], heat_capacity_j_per_mol_k(1.0));
  out.compressibility = e[r_kappa];
  out.compressibility_per_gpa = scaled(e[r_kappa], compressibility_per_gpa(parameters, 1.0));
  out.expansivity = e[r_alpha];
  out.expansivity_per_kelvin = scaled(e[r_alpha], expansivity_per_kelvin(parameters, 1.0));
  out.enthalpy_tau = stats::integrated_autocorrelation_time(h);
  out.volume_tau = stats::integrated_autocorrelation_time(v);
  const double shortest_block = static_cast<double>(samples / blocks);
  const double tau = std::max(out.enthalpy_tau.tau_int, out.volume_tau.tau_int);
  out.blocks_long_enough = out.enthalpy_tau.window_converged && out.volume_tau.window_converged &&
                           shortest_block >= 10.0 * tau;
  return out;
}

stats::Estimate jackknife_mean(const std::vector<double>& series, std::size_t blocks) {
  check_series("cvf::jackknife_mean", "observable", series, blocks);
  const double reference = mean_of(series);
  std::vector<std::vector<double>> sums(blocks, std::vector<double>(2, 0.0));
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t end = block_start(b + 1, series.size(), blocks);
    for (std::size_t k = block_start(b, series.size(), blocks); k < end; ++k) {
      sums[b][0] += 1;
      sums[b][1] += series[k] - reference;
    }
  }
  const auto e = stats::jackknife(sums, [&](const std::vector<double>& s) {
    return std::vector<double>{reference + s[1] / s[0]};
  });
  return e.front();
}

}  // namespace portamc::cvf

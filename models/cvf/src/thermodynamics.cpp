#include "portamc/cvf/thermodynamics.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace portamc::cvf {
namespace {

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

void check_finite(const std::string& who, const char* name, const std::vector<double>& series) {
  for (std::size_t k = 0; k < series.size(); ++k) {
    require(
        std::isfinite(series[k]),
        who + ": the " + name + " series has a non-finite sample at index " + std::to_string(k));
  }
}

void check_start(const std::string& who, const char* name, std::size_t samples, std::size_t start) {
  require(start <= samples && samples - start >= 2,
          who + ": the " + name + " series has " + std::to_string(samples) +
              " samples; from sample " + std::to_string(start) + " on fewer than 2 remain");
}

// Why a jackknife over `b` of series with these autocorrelation times is not to be trusted
// (empty: it is). The wording follows stats::analyse_series and su2's jackknife estimates.
std::vector<std::string> blocking_reasons(const Blocking& b, std::size_t used,
                                          const stats::Autocorrelation& tau_h,
                                          const stats::Autocorrelation& tau_v) {
  std::vector<std::string> reasons = stats::jackknife_bin_warnings(
      b, static_cast<double>(used) / (2.0 * b.tau_int), "analysis.blocks");
  if (!tau_h.window_converged || !tau_v.window_converged)
    reasons.push_back(std::string("the autocorrelation window of ") +
                      (tau_h.window_converged   ? "v"
                       : tau_v.window_converged ? "h"
                                                : "h and v") +
                      " did not converge (tau_int is a lower bound)");
  return reasons;
}

// Layout of one bin's sums. Samples are shifted by the window's means first: Var(h) ~ t^2 C_P /
// N is tiny against <h>^2 for large N, and sum(h^2) - n <h>^2 would cancel catastrophically.
enum Sum : std::size_t { count, dh, dv, dh2, dv2, dhdv, sum_size };
enum Result : std::size_t { r_cp, r_kappa, r_alpha, r_size };

}  // namespace

Estimate estimate_of(const stats::SeriesAnalysis& a) {
  Estimate e;
  e.value = a.mean.value;
  e.error = a.mean.error;
  e.tau_int = a.tau.tau_int;
  e.effective_samples = a.effective_samples;
  e.jackknife = false;
  e.bins = a.bins.bins;
  e.bin_size = a.bins.bin_size;
  e.reliable = a.reliable;
  e.warning = a.warning;
  return e;
}

Estimate scaled(Estimate e, double factor) {
  e.value *= factor;
  e.error *= factor;
  return e;
}

bool ResponseFunctions::reliable() const {
  for (const Estimate* e :
       {&volume, &density_g_per_cm3, &enthalpy, &heat_capacity, &compressibility, &expansivity})
    if (!e->reliable) return false;
  return true;
}

EquilibrationPoint equilibration_point(const std::vector<double>& h, const std::vector<double>& v) {
  const std::string who = "cvf::equilibration_point";
  require(h.size() == v.size(), who + ": the enthalpy series has " + std::to_string(h.size()) +
                                    " samples but the volume series " + std::to_string(v.size()));
  check_finite(who, "enthalpy", h);
  check_finite(who, "volume", v);
  EquilibrationPoint e;
  e.measurements = h.size();
  e.enthalpy_discarded = stats::detect_equilibration(h).discarded;
  e.volume_discarded = stats::detect_equilibration(v).discarded;
  e.discarded = std::min(std::max(e.enthalpy_discarded, e.volume_discarded), e.measurements);
  e.used = e.measurements - e.discarded;
  return e;
}

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

Estimate series_mean(const std::vector<double>& series, std::size_t start) {
  const std::string who = "cvf::series_mean";
  check_finite(who, "observable", series);
  check_start(who, "observable", series.size(), start);
  return estimate_of(stats::analyse_series_from(series, start));
}

ResponseFunctions response_functions(const std::vector<double>& h, const std::vector<double>& v,
                                     std::int64_t molecules, double t,
                                     const ModelParameters& parameters,
                                     const ResponseOptions& options) {
  const std::string who = "cvf::response_functions";
  validate(parameters);
  require(h.size() == v.size(), who + ": the enthalpy series has " + std::to_string(h.size()) +
                                    " samples but the volume series " + std::to_string(v.size()));
  check_finite(who, "enthalpy", h);
  check_finite(who, "volume", v);
  check_start(who, "enthalpy", h.size(), options.start);
  require(molecules >= 1,
          who + ": the number of molecules must be positive, got " + std::to_string(molecules));
  require(std::isfinite(t) && t > 0,
          who + ": the reduced temperature t must be positive and finite");
  for (std::size_t k = 0; k < v.size(); ++k) {
    require(v[k] > 0, who + ": the volume per molecule must be positive, got " +
                          std::to_string(v[k]) + " at index " + std::to_string(k));
  }
  const std::size_t start = options.start;
  const std::size_t used = h.size() - start;
  require(options.blocks == 0 || (options.blocks >= 2 && options.blocks <= used),
          who + ": " + std::to_string(options.blocks) + " jackknife blocks requested for " +
              std::to_string(used) + " samples (expected 2..samples, or 0 for automatic bins)");

  ResponseFunctions out;
  out.samples = h.size();
  out.start = start;
  out.used = used;

  // Plain means through the service, from the same start.
  std::vector<double> rho(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) rho[k] = density_g_per_cm3(parameters, v[k]);
  out.volume = estimate_of(stats::analyse_series_from(v, start));
  out.density_g_per_cm3 = estimate_of(stats::analyse_series_from(rho, start));
  out.enthalpy = estimate_of(stats::analyse_series_from(h, start));
  out.enthalpy_kj_per_mol = scaled(out.enthalpy, kj_per_mol(parameters, 1.0));

  const std::vector<double> h_used(h.begin() + static_cast<std::ptrdiff_t>(start), h.end());
  const std::vector<double> v_used(v.begin() + static_cast<std::ptrdiff_t>(start), v.end());
  out.enthalpy_tau = stats::autocorrelation_time(h_used);
  out.volume_tau = stats::autocorrelation_time(v_used);
  out.tau_max = std::max({0.5, out.enthalpy_tau.tau_int, out.volume_tau.tau_int});
  out.blocking = blocking_for(start, used, out.tau_max, options.blocks);
  const Blocking& b = out.blocking;

  // The jackknife sees exactly the samples of its bins (a trailing partial bin is dropped, as
  // the service's binned means do).
  const std::size_t window = b.blocks * b.block_size;
  double h_ref = 0, v_ref = 0;
  for (std::size_t k = start; k < start + window; ++k) h_ref += h[k], v_ref += v[k];
  h_ref /= static_cast<double>(window);
  v_ref /= static_cast<double>(window);
  std::vector<std::vector<double>> sums(b.blocks, std::vector<double>(sum_size, 0.0));
  for (std::size_t j = 0; j < b.blocks; ++j) {
    auto& s = sums[j];
    const std::size_t first = start + j * b.block_size;
    for (std::size_t k = first; k < first + b.block_size; ++k) {
      const double x = h[k] - h_ref;
      const double y = v[k] - v_ref;
      s[count] += 1;
      s[dh] += x;
      s[dv] += y;
      s[dh2] += x * x;
      s[dv2] += y * y;
      s[dhdv] += x * y;
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
    r[r_cp] = n_molecules * var_h / (t * t);
    r[r_kappa] = n_molecules * var_v / (t * volume);
    r[r_alpha] = n_molecules * cov / (t * t * volume);
    return r;
  };
  const std::vector<stats::JackknifeEstimate> e = stats::jackknife_with_tau(sums, estimator);
  const std::vector<std::string> reasons =
      blocking_reasons(b, used, out.enthalpy_tau, out.volume_tau);
  auto jackknifed = [&](const stats::JackknifeEstimate& j) {
    Estimate r;
    r.value = j.value;
    r.error = j.error;
    r.tau_int = j.tau_int;
    r.effective_samples = j.effective_blocks;
    r.jackknife = true;
    r.bins = b.blocks;
    r.bin_size = b.block_size;
    std::vector<std::string> why = reasons;
    if (!std::isfinite(j.error)) why.insert(why.begin(), "no finite jackknife error");
    r.reliable = why.empty();
    r.warning = stats::join_warnings(why);
    return r;
  };
  out.heat_capacity = jackknifed(e[r_cp]);
  out.compressibility = jackknifed(e[r_kappa]);
  out.expansivity = jackknifed(e[r_alpha]);
  out.heat_capacity_j_per_mol_k = scaled(out.heat_capacity, heat_capacity_j_per_mol_k(1.0));
  out.compressibility_per_gpa =
      scaled(out.compressibility, compressibility_per_gpa(parameters, 1.0));
  out.expansivity_per_kelvin = scaled(out.expansivity, expansivity_per_kelvin(parameters, 1.0));
  return out;
}

}  // namespace portamc::cvf

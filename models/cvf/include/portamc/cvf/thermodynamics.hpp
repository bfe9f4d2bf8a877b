#pragma once
// Statistics of one CVF state point from its NPT time series (host-only), all through the core
// statistics service (portamc/series_analysis.hpp):
//
// - Equilibration. The point's equilibration start is the largest
//   stats::detect_equilibration().discarded over its primary series, the enthalpy h and the
//   volume v; every series of the point is analysed from there (equilibration_point).
// - Plain means (<v>, <h>, the density, N_HB/N, N_sigma/N, v_iso, M): the service's binned error
//   (bins of ceil(20 tau_int) of the series itself, at least 16), tau_int, N_eff = used /
//   (2 tau_int) and a warning when the estimate is not reliable (series_mean).
// - Response functions, which are not plain means, are jackknifed over bins of consecutive
//   equilibrated measurements: stats::choose_bins(used, tau_max), tau_max the larger tau_int of
//   h and v, or a fixed number of bins (analysis.blocks). Their tau_int and effective number are
//   those of the jackknife pseudovalues, in bins (stats::jackknife_with_tau).
//
// The simulation records, once per measurement k, the enthalpy per molecule h_k = (E + pV)/N (in
// epsilon) and the volume per molecule v_k = V/N (in v0). With k_B = 1 (reduced units: energies
// in epsilon, temperatures t = k_B T / epsilon) the fluctuation formulas per molecule are
//   C_P     = N Var(h) / t^2             (k_B per molecule)
//   kappa_T = N Var(v) / (t <v>)         (v0 / epsilon)
//   alpha_P = N Cov(v, h) / (t^2 <v>)    (k_B / epsilon, i.e. 1 / temperature unit)
// because Var(H) = N^2 Var(h) etc. for the extensive H = N h, V = N v.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "portamc/cvf/parameters.hpp"
#include "portamc/jackknife_bins.hpp"
#include "portamc/series_analysis.hpp"
#include "portamc/statistics.hpp"

namespace portamc::cvf {

/// One estimate with what its error rests on, the same for plain means and jackknife estimates.
struct Estimate {
  double value = std::numeric_limits<double>::quiet_NaN();
  double error = std::numeric_limits<double>::quiet_NaN();
  /// Plain means: tau_int of the equilibrated series, in measurements. Jackknife estimates
  /// (jackknife == true): tau_int of the bins' pseudovalues, in bins (1/2: independent bins).
  double tau_int = std::numeric_limits<double>::quiet_NaN();
  /// Effective number of independent samples behind the error, in the units of tau_int:
  /// used / (2 tau_int) measurements, or bins / (2 tau_int) bins.
  double effective_samples = std::numeric_limits<double>::quiet_NaN();
  bool jackknife = false;
  std::size_t bins = 0;      ///< bins the error comes from
  std::size_t bin_size = 0;  ///< measurements per bin
  bool reliable = false;
  std::string warning;  ///< why the error is not to be trusted; empty when reliable
};

/// The service's analysis of one series as an Estimate.
Estimate estimate_of(const stats::SeriesAnalysis& analysis);
/// value and error times a positive factor (unit conversions); the rest unchanged.
Estimate scaled(Estimate e, double factor);

/// Where the measurements of one state point become equilibrated.
struct EquilibrationPoint {
  std::size_t measurements = 0;        ///< at this point
  std::size_t discarded = 0;           ///< max of the two below: removed from every series
  std::size_t used = 0;                ///< measurements - discarded
  std::size_t enthalpy_discarded = 0;  ///< detect_equilibration(h).discarded
  std::size_t volume_discarded = 0;    ///< detect_equilibration(v).discarded
};

/// The largest stats::detect_equilibration().discarded over the enthalpy and volume series.
/// Throws std::invalid_argument for series of different lengths or with non-finite samples.
EquilibrationPoint equilibration_point(const std::vector<double>& enthalpy_per_molecule,
                                       const std::vector<double>& volume_per_molecule);

/// Bins of consecutive equilibrated measurements for the jackknife of the response functions.
/// Bins of the jackknife of C_P, kappa_T and alpha_P (core: stats::jackknife_bins; override
/// key analysis.blocks).
using Blocking = stats::JackknifeBins;
/// stats::jackknife_bins: choose_bins(used, tau_int) when blocks_override is 0, else
/// min(blocks_override, used) bins of equal length.
inline Blocking blocking_for(std::size_t start, std::size_t used, double tau_int,
                             std::size_t blocks_override = 0) {
  return stats::jackknife_bins(start, used, tau_int, blocks_override);
}

/// How response_functions treats the series.
struct ResponseOptions {
  std::size_t start = 0;   ///< measurements discarded from the front (the equilibration start)
  std::size_t blocks = 0;  ///< 0: bins by choose_bins; else this many jackknife bins
};

struct ResponseFunctions {
  std::size_t samples = 0;  ///< length of the series given
  std::size_t start = 0;    ///< measurements discarded
  std::size_t used = 0;     ///< samples - start
  Blocking blocking;        ///< the bins of the jackknife of C_P, kappa_T and alpha_P

  // Plain means (the service's binned errors; tau_int in measurements).
  Estimate volume;  ///< <v> in v0 per molecule
  /// Mass density in g/cm^3 as the mean of rho_k = density_g_per_cm3(v_k): the time average of
  /// the instantaneous density (what a density histogram averages). It differs from the density
  /// at <v> by <rho> Var(v)/<v>^2 = <rho> t kappa_T / (N <v>), far below the error for any N
  /// the model is simulated at.
  Estimate density_g_per_cm3;
  Estimate enthalpy;             ///< <h> in epsilon per molecule
  Estimate enthalpy_kj_per_mol;  ///< <h> in kJ/mol

  // Jackknife over the bins (tau_int and effective_samples of the pseudovalues, in bins).
  Estimate heat_capacity;              ///< C_P in k_B per molecule
  Estimate heat_capacity_j_per_mol_k;  ///< C_P in J/(mol K)
  Estimate compressibility;            ///< kappa_T in v0/epsilon
  Estimate compressibility_per_gpa;    ///< kappa_T in 1/GPa
  Estimate expansivity;                ///< alpha_P in k_B/epsilon
  Estimate expansivity_per_kelvin;     ///< alpha_P in 1/K

  /// Integrated autocorrelation times (in measurements) of the equilibrated h and v; the bins
  /// are chosen for the larger one.
  stats::Autocorrelation enthalpy_tau{0.5, 0, 0, true};
  stats::Autocorrelation volume_tau{0.5, 0, 0, true};
  double tau_max = 0.5;

  /// Every estimate above is reliable.
  bool reliable() const;
};

/// Response functions and means of h and v of a system of `molecules` molecules at reduced
/// temperature t, from measurement options.start on. Throws std::invalid_argument for
/// mismatched lengths, fewer than 2 samples after the start, a block override below 2 or above
/// the used samples, non-finite samples, non-positive volumes, molecules < 1, t not positive
/// and finite, or invalid parameters.
ResponseFunctions response_functions(const std::vector<double>& enthalpy_per_molecule,
                                     const std::vector<double>& volume_per_molecule,
                                     std::int64_t molecules, double t,
                                     const ModelParameters& parameters,
                                     const ResponseOptions& options = {});

/// Mean of any observable series (N_HB/N, N_sigma/N, M, ...) from measurement `start` on, by the
/// service (stats::analyse_series_from). Throws std::invalid_argument for non-finite samples or
/// fewer than 2 samples after the start.
Estimate series_mean(const std::vector<double>& series, std::size_t start = 0);

// Unit conversions from reduced to laboratory units (positive factors, so they apply to values
// and errors alike). epsilon and v0 enter per mole: epsilon_molar = epsilon_kj_per_mol * 1e3
// J/mol, v0_molar = molar_v0_cm3 * 1e-6 m^3/mol.

/// C_P: k_B per molecule -> J/(mol K), i.e. times R.
double heat_capacity_j_per_mol_k(double heat_capacity_reduced);
/// kappa_T: v0/epsilon -> 1/GPa (v0_molar / epsilon_molar is in m^3/J = 1/Pa).
double compressibility_per_gpa(const ModelParameters& parameters, double compressibility_reduced);
/// alpha_P: 1/(epsilon/k_B) -> 1/K (the temperature unit is epsilon_molar / R kelvin).
double expansivity_per_kelvin(const ModelParameters& parameters, double expansivity_reduced);

}  // namespace portamc::cvf

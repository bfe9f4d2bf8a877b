#pragma once
// Response functions of the CVF model from equilibrium NPT time series (host-only).
//
// The simulation records, once per MC step k, the enthalpy per molecule h_k = (E + pV)/N (in
// epsilon) and the volume per molecule v_k = V/N (in v0). With k_B = 1 (reduced units: energies
// in epsilon, temperatures t = k_B T / epsilon) the fluctuation formulas per molecule are
//   C_P     = N Var(h) / t^2             (k_B per molecule)
//   kappa_T = N Var(v) / (t <v>)         (v0 / epsilon)
//   alpha_P = N Cov(v, h) / (t^2 <v>)    (k_B / epsilon, i.e. 1 / temperature unit)
// because Var(H) = N^2 Var(h) etc. for the extensive H = N h, V = N v.
//
// Errors come from the delete-one jackknife over B contiguous blocks of the series. The blocks
// must be long compared with the integrated autocorrelation times of h and v (reported here):
// the caller provides series much longer than B * tau_int, after equilibration. A block
// shorter than a few tau_int makes the blocks correlated and the error too small.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "portamc/cvf/parameters.hpp"
#include "portamc/statistics.hpp"

namespace portamc::cvf {

inline constexpr std::size_t default_jackknife_blocks = 20;

struct ResponseFunctions {
  std::size_t samples;  ///< length of the series (all samples are used)
  std::size_t blocks;   ///< jackknife blocks B (contiguous, lengths differ by at most one)

  stats::Estimate volume;  ///< <v> in v0 per molecule
  /// Mass density in g/cm^3 as the mean of rho_k = density_g_per_cm3(v_k): the time average of
  /// the instantaneous density (what a density histogram averages). It differs from the density
  /// at <v> by <rho> Var(v)/<v>^2 = <rho> t kappa_T / (N <v>), far below the error for any N
  /// the model is simulated at.
  stats::Estimate density_g_per_cm3;
  stats::Estimate enthalpy;                   ///< <h> in epsilon per molecule
  stats::Estimate enthalpy_kj_per_mol;        ///< <h> in kJ/mol
  stats::Estimate heat_capacity;              ///< C_P in k_B per molecule
  stats::Estimate heat_capacity_j_per_mol_k;  ///< C_P in J/(mol K)
  stats::Estimate compressibility;            ///< kappa_T in v0/epsilon
  stats::Estimate compressibility_per_gpa;    ///< kappa_T in 1/GPa
  stats::Estimate expansivity;                ///< alpha_P in k_B/epsilon
  stats::Estimate expansivity_per_kelvin;     ///< alpha_P in 1/K

  /// Integrated autocorrelation times (in samples) of h and v; blocks of samples/blocks must be
  /// much longer than these for the errors above to hold.
  stats::Autocorrelation enthalpy_tau;
  stats::Autocorrelation volume_tau;
  /// Whether every block is at least 10 * max(tau_int(h), tau_int(v)) long and both windows
  /// converged; false means the errors are likely underestimated (longer run or fewer blocks).
  bool blocks_long_enough;
};

/// Response functions of a system of `molecules` molecules at reduced temperature t.
/// Throws std::invalid_argument for mismatched lengths, fewer samples than blocks, blocks < 2,
/// non-finite samples, molecules < 1, t not positive and finite, or invalid parameters.
ResponseFunctions response_functions(const std::vector<double>& enthalpy_per_molecule,
                                     const std::vector<double>& volume_per_molecule,
                                     std::int64_t molecules, double t,
                                     const ModelParameters& parameters,
                                     std::size_t blocks = default_jackknife_blocks);

/// Mean of any observable series (N_HB/N, N_sigma/N, M, ...) with its jackknife error over
/// `blocks` contiguous blocks (for a mean this equals the standard error of the block means).
/// Same validation of the series and block count as response_functions.
stats::Estimate jackknife_mean(const std::vector<double>& series,
                               std::size_t blocks = default_jackknife_blocks);

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

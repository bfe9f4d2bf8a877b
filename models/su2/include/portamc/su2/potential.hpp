#pragma once
// Static quark-antiquark potential from Wilson loops W(R,T): effective masses, plateau choice,
// the fit V(R) = V0 - alpha/R + sigma R, the lattice spacing from the string tension and the
// Sommer scale, all with delete-one jackknife errors over blocks of measurements, each with the
// integrated autocorrelation time of its jackknife pseudovalues over the blocks
// (stats::jackknife_with_tau: 1/2 when consecutive blocks are independent, as the error assumes)
// and the effective number of blocks.
// Host-only (no Kokkos): the model measures W(R,T) on the device and hands the samples here.
#include <cstddef>
#include <vector>

#include "portamc/statistics.hpp"

namespace portamc::su2 {

// Wilson-loop measurements: samples[m][(R-1)*t_max + (T-1)] = W(R,T) of measurement m, for
// R = 1..r_max and T = 1..t_max (on-axis loops, averaged over the lattice by the caller).
// Measurements must be in Monte Carlo order: blocks are formed from consecutive ones.
struct WilsonLoopSamples {
  int r_max = 0;
  int t_max = 0;
  std::vector<std::vector<double>> samples;
};

struct PotentialOptions {
  // Measurements per jackknife block; 0 chooses N/32 (at least 1), i.e. about 32 blocks. Blocks
  // should be long compared with the integrated autocorrelation time of the loops (portamc-su2
  // takes stats::choose_bins(N, tau_int): run_analysis.hpp). A trailing partial block is dropped.
  std::size_t block_size = 0;
  // Plateau: T at which V(R) = V_T(R) is read off; 0 chooses it per R as the smallest T with
  // |V_T - V_{T+1}| <= plateau_tolerance * (jackknife error of V_T - V_{T+1}). The difference's
  // own error is used because V_T and V_{T+1} are strongly correlated (both contain W(R,T+1)).
  // The automatic choice is made again in every jackknife sample of the fit, so that the errors
  // of V0, alpha and sigma include it (conservatively; a fixed T gives smaller honest errors).
  int plateau_t = 0;
  double plateau_tolerance = 1.0;
  // Fit range [fit_r_min, fit_r_max]; fit_r_max = 0 means r_max. At least 3 points are needed
  // for the 3 parameters; with exactly 3 the fit has no degree of freedom and chi2/dof is NaN.
  int fit_r_min = 1;
  int fit_r_max = 0;
  // Physical string tension sqrt(sigma) in MeV that sets the lattice spacing (the paper's 440).
  double sqrt_sigma_mev = 440.0;
  // Sommer condition r^2 F(r) = c with F = dV/dr (c = 1.65 defines r0).
  double sommer_c = 1.65;
};

// hbar c in MeV fm (CODATA 2018; exact in the 2019 SI, shown to the digits CODATA lists).
inline constexpr double kHbarCMeVFm = 197.3269804;

struct PotentialPoint {
  int r;
  int plateau_t;       // T of V_T(R) used as V(R)
  bool plateau_found;  // false: the automatic choice found no agreeing pair and used the last T
                       // with a defined V_T; always true for a configured plateau_t
  stats::JackknifeEstimate v;  // V(R) in lattice units (NaN where W is not positive at that T)
};

struct StaticPotential {
  std::size_t measurements_used;  // blocks * block_size
  std::size_t blocks;
  std::size_t block_size;
  // effective_mass[R-1][T-1] = V_T(R) = ln(W(R,T)/W(R,T+1)) for T = 1..t_max-1; NaN value where a
  // mean loop is not positive, NaN error where that happens in some jackknife sample.
  std::vector<std::vector<stats::JackknifeEstimate>> effective_mass;
  std::vector<PotentialPoint> potential;  // R = 1..r_max
  int fit_r_min;
  int fit_r_max;
  int degrees_of_freedom;  // fit points - 3
  bool weighted;           // false if some V(R) in the fit had no error beyond rounding (noise-free
                  // input): the fit is then unweighted and chi2/dof the mean squared residual
  stats::JackknifeEstimate v0;     // lattice units
  stats::JackknifeEstimate alpha;  // dimensionless Coulomb coefficient
  stats::JackknifeEstimate sigma;  // string tension in lattice units (sigma a^2)
  // Uncorrelated chi^2 with the weights of the full-data fit.
  stats::JackknifeEstimate chi2_per_dof;
  // a = sqrt(sigma a^2) hbar c / sqrt_sigma_mev; NaN if sigma <= 0.
  stats::JackknifeEstimate spacing_fm;
  stats::JackknifeEstimate sommer_r0;  // r0/a = sqrt((c - alpha)/sigma); NaN if undefined
  bool sommer_r0_in_fit_range;  // fit_r_min <= r0/a <= fit_r_max: an interpolation, not a guess
};

// Runs the whole analysis. The plateau T(R) and the fit weights 1/err^2(V(R)) are fixed from the
// full data set and reused in every jackknife sample, so each sample repeats the same linear
// weighted least-squares fit (basis 1, -1/R, R). Throws std::invalid_argument with a message
// saying what is wrong for: r_max < 1 or t_max < 2; samples of the wrong length or not finite;
// fewer than 2 blocks; plateau_t outside 1..t_max-1; a fit range outside 1..r_max or with fewer
// than 3 points; a non-positive mean W(R,T) or W(R,T+1) needed for V(R) in the fit range; a V(R)
// in the fit range without a finite jackknife error.
StaticPotential analyse_static_potential(const WilsonLoopSamples& loops,
                                         const PotentialOptions& options = {});

// The fitted model, for plots and tests.
inline double cornell_potential(double r, double v0, double alpha, double sigma) {
  return v0 - alpha / r + sigma * r;
}

}  // namespace portamc::su2

#pragma once
// A Blume-Capel run at fixed beta, reweighted to any crystal field D. Its bins count the
// configurations with n non-zero spins weighted by their bonds, Z_beta(n) (hamiltonian.hpp),
// normalised by Z_beta(0) = 1, so at every D
//   P_D(n) ~ Z_beta(n) exp(-beta D n),   Z(D) = sum_n Z_beta(n) exp(-beta D n)
// with absolute free energies. The field part plays the energy's role: its double peak at a
// first-order transition locates D_eq, the density jump and the interface tension
// (first_order.hpp with beta -> beta D).
#include <vector>

#include "portamc/muca/analysis.hpp"

namespace portamc::muca {

/// Per-site values at one D.
struct CrystalFieldPoint {
  double density = 0;                 ///< <n>/N: the density of non-zero spins
  double density_susceptibility = 0;  ///< (<n^2> - <n>^2) / N
  double free_energy = 0;             ///< F/N = -ln Z(D) / (beta N)
};

/// From ln Z_beta(n) over n = 0 .. log_g.size() - 1 (-inf: empty) for `sites` sites.
CrystalFieldPoint crystal_field_point(const std::vector<double>& log_g, double sites, double beta,
                                      double crystal_field);

struct CrystalFieldTable {
  std::vector<double> crystal_field;
  EstimateTable density;
  EstimateTable density_susceptibility;
  EstimateTable free_energy;
};

/// The points at each D with delete-one jackknife errors over `samples` (production_analysis's
/// walker groups or time bins).
CrystalFieldTable reweight_crystal_field(const EnergyBins& bins, double beta,
                                         const std::vector<double>& log_weights,
                                         const std::vector<std::vector<count_type>>& samples,
                                         const std::vector<double>& crystal_fields);

}  // namespace portamc::muca

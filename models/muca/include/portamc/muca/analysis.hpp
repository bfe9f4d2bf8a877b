#pragma once
// From production histograms to physics: ln g(E) normalised to 2^N states, and
// canonical observables reweighted to a grid of inverse temperatures, each with
// delete-one jackknife errors over the production blocks.
#include <vector>

#include "portamc/histogram.hpp"
#include "portamc/muca/parameters.hpp"

namespace portamc::muca {

struct DensityOfStates {
  std::vector<double> log_g;        ///< per energy bin; -inf where never visited
  std::vector<double> log_g_error;  ///< jackknife; NaN where undefined
};

struct CanonicalTable {
  std::vector<double> beta;
  std::vector<double> energy, energy_error;                ///< U/N
  std::vector<double> specific_heat, specific_heat_error;  ///< C/N
  std::vector<double> free_energy, free_energy_error;      ///< F/N
  std::vector<double> entropy, entropy_error;              ///< S/N
};

/// ln g(k) = ln H(k) - ln W(k) + const with sum_k g(k) = 2^N.
std::vector<double> log_dos_from_histogram(const EnergyBins& bins,
                                           const std::vector<double>& log_weights,
                                           const std::vector<double>& histogram);

DensityOfStates estimate_log_dos(const EnergyBins& bins, const std::vector<double>& log_weights,
                                 const std::vector<std::vector<count_type>>& blocks);

CanonicalTable reweight(int L, const std::vector<double>& log_weights,
                        const std::vector<std::vector<count_type>>& blocks,
                        const std::vector<double>& betas);

/// n evenly spaced values from lo to hi inclusive.
std::vector<double> linear_grid(double lo, double hi, int n);

}  // namespace portamc::muca

#pragma once
// From production histograms to physics: ln g(E) normalised to 2^N states, and
// canonical observables reweighted to a grid of inverse temperatures, each with
// delete-one jackknife errors over the production blocks. Beside every error: the integrated
// autocorrelation time of the blocks' jackknife pseudovalues (in blocks; 1/2 when blocks are
// independent, as the jackknife assumes) and the effective number of blocks.
#include <vector>

#include "portamc/histogram.hpp"
#include "portamc/muca/parameters.hpp"

namespace portamc::muca {

/// One reweighted quantity on its grid (energy bins or inverse temperatures).
struct EstimateTable {
  std::vector<double> value;
  std::vector<double> error;    ///< delete-one jackknife over the blocks; NaN where undefined
  std::vector<double> tau_int;  ///< of the blocks' pseudovalues, in blocks
  std::vector<double> n_eff;    ///< effective blocks, blocks / (2 tau_int)
};

struct DensityOfStates {
  EstimateTable log_g;  ///< per energy bin; value -inf where never visited
};

struct CanonicalTable {
  std::vector<double> beta;
  EstimateTable energy;         ///< U/N
  EstimateTable specific_heat;  ///< C/N
  EstimateTable free_energy;    ///< F/N
  EstimateTable entropy;        ///< S/N
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

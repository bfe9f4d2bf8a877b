#pragma once
// From production histograms to physics: ln g(E) normalised to all states (2^N for Ising), and
// canonical observables reweighted to a grid of inverse temperatures, each with
// delete-one jackknife errors over the production blocks. Beside every error: the integrated
// autocorrelation time of the blocks' jackknife pseudovalues (in blocks; 1/2 when blocks are
// independent, as the jackknife assumes) and the effective number of blocks.
#include <vector>

#include "portamc/histogram.hpp"
#include "portamc/muca/parameters.hpp"
#include "portamc/statistics.hpp"

namespace portamc::muca {

/// One reweighted quantity on its grid (energy bins or inverse temperatures).
struct EstimateTable {
  std::vector<double> value;
  std::vector<double> error;    ///< delete-one jackknife over the blocks; NaN where undefined
  std::vector<double> tau_int;  ///< of the blocks' pseudovalues, in blocks
  std::vector<double> n_eff;    ///< effective blocks, blocks / (2 tau_int)
};

/// Components [first, first + n) of jackknife results as one table.
EstimateTable table_of(const std::vector<stats::JackknifeEstimate>& estimates, std::size_t first,
                       std::size_t n);

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

/// ln g(k) = ln H(k) - ln W(k) + const with sum_k g(k) = site_states^N (2^N for Ising).
std::vector<double> log_dos_from_histogram(const EnergyBins& bins,
                                           const std::vector<double>& log_weights,
                                           const std::vector<double>& histogram);

DensityOfStates estimate_log_dos(const EnergyBins& bins, const std::vector<double>& log_weights,
                                 const std::vector<std::vector<count_type>>& blocks);

/// U/N, C/N, F/N and S/N of the bins' model at each beta, with jackknife errors over `blocks`.
CanonicalTable reweight(const EnergyBins& bins, const std::vector<double>& log_weights,
                        const std::vector<std::vector<count_type>>& blocks,
                        const std::vector<double>& betas);

/// Consecutive production blocks merged into jackknife bins. Walkers keep their energies from
/// one block to the next (a block is a few hundred sweeps, a walker crosses the energy range
/// in thousands), so neighbouring blocks are correlated and a jackknife over single blocks
/// understates the error. The bin length follows the statistics service's rule
/// (stats::choose_bins: 20 tau_int, at least 16 bins) with tau_int the median, over the
/// visited energy bins, of the single-block jackknife pseudovalues' tau_int of ln g(E).
struct BlockBinning {
  double block_tau_int = 0.5;  ///< the median tau_int, in blocks
  int blocks_per_bin = 1;      ///< the shorter bins; B mod bins of them hold one block more
  bool long_enough = true;     ///< bins of 20 tau_int with >= 16 bins were possible
  std::vector<std::vector<count_type>> bins;  ///< summed histograms, in run order
};
BlockBinning bin_blocks(const EnergyBins& bins, const std::vector<double>& log_weights,
                        const std::vector<std::vector<count_type>>& blocks);

/// `rows` (production blocks, in run order) summed into n_bins bins of consecutive rows, the
/// first (rows mod n_bins) of them one row longer: bin_blocks' bins, and the same bins of any
/// per-block record (the order parameter's sums).
std::vector<std::vector<count_type>> sum_consecutive(
    const std::vector<std::vector<count_type>>& rows, std::size_t n_bins);

/// n evenly spaced values from lo to hi inclusive.
std::vector<double> linear_grid(double lo, double hi, int n);

}  // namespace portamc::muca

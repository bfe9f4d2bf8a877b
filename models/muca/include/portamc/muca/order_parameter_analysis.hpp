#pragma once
// The order parameter reweighted from a production's measurements (order_parameter.hpp): per
// energy bin the microcanonical moments of m, and at each reweighting point <|m|>, <m^2>,
// <m^4>, the susceptibility and the Binder cumulant, with delete-one jackknife errors over the
// same walker groups as ln g (each group's histogram and moment sums leave together).
//
//   susceptibility  chi = beta N (<m^2> - <|m|>^2)  (beta: the run's inverse temperature)
//   Binder          U4 = 1 - <m^4> / (3 <m^2>^2)
// A bin the histogram visited but no measurement saw (measurements are every few sweeps, the
// histogram every attempt) is left out of the averages; unmeasured bins are counted.
#include <vector>

#include "portamc/muca/analysis.hpp"
#include "portamc/muca/detail/order_parameter.hpp"

namespace portamc::muca {

struct OrderParameterTable {
  std::vector<double> beta;     ///< the reweighting points (Blume-Capel: crystal fields D)
  EstimateTable magnetisation;  ///< <|m|>
  EstimateTable m2, m4;         ///< <m^2>, <m^4>
  EstimateTable susceptibility;
  EstimateTable binder;
  EstimateTable bin_magnetisation;  ///< <|m|> in each energy bin (NaN: not measured)
  int unmeasured_bins = 0;          ///< visited by the histogram, never measured
};

/// `histograms[g]` and `sums[g]` (bins x kOrderSlots normalised limbs) of each walker group g;
/// `betas` weight bin k by exp(-beta energy(k)); `chi_betas` (same length) multiply the
/// susceptibility (the same as `betas` for a run over temperatures).
OrderParameterTable reweight_order_parameter(const EnergyBins& bins, const OrderParameterSpec& spec,
                                             const std::vector<double>& log_weights,
                                             const std::vector<std::vector<count_type>>& histograms,
                                             const std::vector<std::vector<std::uint64_t>>& sums,
                                             const std::vector<double>& betas,
                                             const std::vector<double>& chi_betas);

}  // namespace portamc::muca

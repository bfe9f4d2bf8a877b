#pragma once
// Statistics of the flowed configurations of one coupling (run.hpp: PointRecord's flow_*),
// from the coupling's equilibration point on (run_analysis.hpp):
// - t0 and w0 from the mean E(t) curve, for both discretisations of E (flow_scales.hpp), with
//   delete-one jackknife errors over the configurations;
// - the topological charge Q at the last flow time: its mean as a series (binned error,
//   tau_int, N_eff) and the susceptibility chi_t = (<Q^2> - <Q>^2) / V with a jackknife error
//   over the configurations, and the tau_int and effective number of its pseudovalues.
// Host only.
#include <cstddef>
#include <vector>

#include "portamc/series_analysis.hpp"
#include "portamc/statistics.hpp"
#include "portamc/su2/flow_scales.hpp"
#include "portamc/su2/run.hpp"

namespace portamc::su2 {

struct FlowAnalysis {
  std::size_t configurations = 0;  ///< flowed configurations after the equilibration point
  std::size_t discarded = 0;       ///< flowed configurations before it
  std::vector<double> t;           ///< the flow times
  /// E(t) at each flow time as a series over the configurations used: <E(t)> with its binned
  /// error, tau_int and N_eff (configurations flowed from one chain are correlated).
  std::vector<stats::SeriesAnalysis> energy_plaquette, energy_clover;
  FlowScaleEstimates plaquette, clover;  ///< t0, w0 from E_plaq and from E_clov
  stats::SeriesAnalysis charge;          ///< Q(t_max) as a series over the configurations
  stats::JackknifeEstimate susceptibility{0, 0, 0, 0};  ///< chi_t at t_max, per site
};

/// The analysis of `record`'s flowed configurations whose measurement index is at least
/// `first_measurement` (the coupling's equilibration point). std::invalid_argument for fewer
/// than two such configurations.
FlowAnalysis analyse_flow(const PointRecord& record, const RunParameters& parameters,
                          std::size_t first_measurement);

}  // namespace portamc::su2

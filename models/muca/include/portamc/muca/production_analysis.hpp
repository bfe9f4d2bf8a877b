#pragma once
// Everything a production yields, with the error method chosen once: ln g(E), the canonical
// tables and the stationarity check. With at least 16 walker groups recorded the jackknife
// runs over the groups' production histograms (the walkers are independent chains, so the
// groups are independent samples whatever the walkers remember from block to block), and the
// stationarity check compares thirds group by group. Otherwise (few walkers, or a production
// begun before groups were recorded) both fall back to time blocks: the jackknife over bins of
// consecutive blocks (bin_blocks) and the comparison of thirds of the blocks.
#include <string>
#include <vector>

#include "portamc/muca/analysis.hpp"
#include "portamc/muca/crystal_field.hpp"
#include "portamc/muca/order_parameter_analysis.hpp"
#include "portamc/muca/simulation.hpp"
#include "portamc/stationarity.hpp"
#include "portamc/statistics.hpp"

namespace portamc::muca {

/// The double peak of a first-order transition (first_order.hpp) in the production's ln g,
/// with jackknife errors over the same samples as ln g.
struct FirstOrderAnalysis {
  bool attempted = false;
  bool found = false;      ///< the two peaks reach equal height in [beta_lo, beta_hi]
  std::string reason;      ///< why not, when attempted and not found
  int failed_samples = 0;  ///< jackknife samples without a double peak (their errors are NaN)
  double beta_lo = 0, beta_hi = 0;
  /// In double_peak_values' order: beta_eq, energy_ordered, energy_disordered,
  /// latent_heat_per_site, log_peak_to_valley, interface_tension.
  std::vector<stats::JackknifeEstimate> values;
};

/// The double peak at the model's L and dimension, searched for beta_eq in [beta_lo, beta_hi].
FirstOrderAnalysis analyse_double_peak(const EnergyBins& bins, const Hamiltonian& h,
                                       const std::vector<double>& log_weights,
                                       const std::vector<std::vector<count_type>>& samples,
                                       double beta_lo, double beta_hi);

struct ProductionAnalysis {
  std::string error_method;   ///< "walker_groups" or "time_bins"
  int jackknife_samples = 0;  ///< groups or bins the jackknife ran over
  BlockBinning binning;       ///< the time bins (time_bins only)
  DensityOfStates dos;
  CanonicalTable canonical;  ///< over beta; empty for Blume-Capel
  /// Blume-Capel only: the run's fixed beta reweighted over D.
  bool has_crystal_field = false;
  CrystalFieldTable crystal_field;
  stats::StationarityCheck stationarity;
  FirstOrderAnalysis double_peak;  ///< attempted only when asked for
  /// The order parameter at the canonical table's points, with errors by the same method as
  /// ln g, when the production measured it (else `order_parameter_reason` says why not).
  bool has_order_parameter = false;
  std::string order_parameter_reason;
  OrderParameterTable order_parameter;
};

/// For a Simulation on any backend of the build and either engine. `points` are inverse
/// temperatures, or for Blume-Capel (a run at fixed beta) crystal fields D. With
/// `double_peak`, also the first-order analysis with its transition point searched over
/// [points.front(), points.back()] (for Blume-Capel D_eq: beta_eq, beta_lo and beta_hi then
/// hold crystal fields).
template <class Space, class Engine>
ProductionAnalysis analyse_production(const Simulation<Space, Engine>& simulation,
                                      const std::vector<double>& points, bool double_peak = false);

}  // namespace portamc::muca

#pragma once
// Statistics of a portamc-su2 run at one coupling (host only), all through the core statistics
// service (series_analysis.hpp):
//
// - Equilibration. The coupling's equilibration point is the largest
//   stats::detect_equilibration().discarded over its primary series, the plaquette and |P|;
//   every series of the coupling (plaquettes, P, |P|, every W(R,T)) is analysed from there
//   (stats::analyse_series_from), and the susceptibility and the potential use the same
//   measurements.
// - Means: binned error with bins of ceil(20 tau_int) of the series itself, tau_int, N_eff and a
//   warning when the estimate is not reliable (stats::SeriesAnalysis).
// - Estimators that are not plain means (the Polyakov susceptibility, the static potential) are
//   jackknifed over bins of consecutive equilibrated measurements: by default
//   stats::choose_bins(used, tau) with tau the largest tau_int of the primary series (for the
//   potential also of the Wilson loops it is made of), or a fixed number of bins
//   (RunParameters::jackknife_blocks > 0). Their tau_int and effective number of bins are those
//   of the jackknife pseudovalues (stats::jackknife_with_tau), in bins.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "portamc/jackknife_bins.hpp"
#include "portamc/series_analysis.hpp"
#include "portamc/statistics.hpp"
#include "portamc/su2/flow_analysis.hpp"
#include "portamc/su2/potential.hpp"
#include "portamc/su2/run.hpp"

namespace portamc::su2 {

/// One measured series from the coupling's equilibration point on: mean with binned error,
/// tau_int (in measurements), N_eff, bins, reliable/warning (series_analysis.hpp). A series
/// with non-finite values (the spatial plaquette in 2D) has NaN mean, error and tau.
using SeriesSummary = stats::SeriesAnalysis;

/// Where the measurements of one coupling become equilibrated.
struct EquilibrationPoint {
  std::size_t measurements = 0;  ///< at this coupling
  std::size_t discarded = 0;     ///< max of the two below: removed from the front of every series
  std::size_t used = 0;          ///< measurements - discarded
  std::size_t plaquette_discarded = 0;     ///< detect_equilibration of the plaquette
  std::size_t polyakov_abs_discarded = 0;  ///< detect_equilibration of |P|
};

/// The largest detect_equilibration().discarded over the primary series (plaquette and |P|).
EquilibrationPoint equilibration_point(const PointRecord& record);

/// Bins of consecutive equilibrated measurements for the jackknife estimators of one coupling.
/// Bins of the jackknife estimates (core: stats::jackknife_bins; override key
/// analysis.blocks).
using Blocking = stats::JackknifeBins;
/// stats::jackknife_bins with the jackknife_blocks override (0 or less: automatic).
inline Blocking blocking_for(std::size_t start, std::size_t used, double tau_int,
                             int jackknife_blocks) {
  return stats::jackknife_bins(
      start, used, tau_int, jackknife_blocks > 0 ? static_cast<std::size_t>(jackknife_blocks) : 0);
}

/// A jackknife estimate over bins with its quality: tau_int and effective_blocks of the
/// pseudovalues (in bins), and a warning when the bins are too short or the primary series too
/// short for an honest error.
struct JackknifeSummary {
  stats::JackknifeEstimate estimate{0, 0, 0, 0};
  bool reliable = false;
  std::string warning;  ///< empty when reliable
};

/// chi = N_s (<P^2> - <|P|>^2), P the spatial average of ½ Tr P(x) in one measurement and N_s
/// the spatial volume; jackknife over the bins of `blocking` (from blocking.start on).
stats::JackknifeEstimate polyakov_susceptibility(const std::vector<double>& polyakov,
                                                 double spatial_volume, const Blocking& blocking);

struct PotentialResult {
  bool ok = false;
  std::string status;  ///< "ok" or why the analysis could not be done
  std::optional<StaticPotential> potential;
  Blocking blocking;  ///< the bins of its jackknife
  bool reliable = false;
  std::string warning;  ///< empty when reliable (or when the analysis failed: see status)
};

struct PointAnalysis {
  EquilibrationPoint equilibration;
  double tau_max = 0.5;  ///< largest tau_int of the primary series after the equilibration point
  Blocking blocking;     ///< bins of the susceptibility's jackknife
  SeriesSummary plaquette, plaquette_spatial, plaquette_temporal, polyakov, polyakov_abs;
  JackknifeSummary susceptibility;
  std::vector<SeriesSummary> wilson, wilson_smeared;  ///< per loop, index (R-1) t_max + (T-1)
  std::optional<PotentialResult> potential, potential_smeared;
  /// Counts of P over the equilibrated measurements, in the bins of the run's histogram.
  std::vector<std::uint64_t> polyakov_histogram_equilibrated;
  /// The flowed configurations from the equilibration point on (flow_analysis.hpp); empty
  /// without the flow or when too few were flowed after it (flow_status says why).
  std::optional<FlowAnalysis> flow;
  std::string flow_status;
};

/// Everything above for one coupling. Never throws for bad statistics: a potential that cannot
/// be extracted (noise, too few measurements) is reported in its status, an unreliable
/// estimate in its warning.
PointAnalysis analyse_point(const PointRecord& record, const RunParameters& parameters);

/// One line per estimate of the coupling that is not reliable, "<name>: <warning>" (the
/// spatial plaquette of a 2D lattice, which is undefined, is left out; unreliable Wilson loops
/// are summarised in one line per set).
std::vector<std::string> analysis_warnings(const PointAnalysis& analysis,
                                           const RunParameters& parameters);

}  // namespace portamc::su2

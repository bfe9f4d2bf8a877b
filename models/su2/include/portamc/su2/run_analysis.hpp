#pragma once
// Statistics of a portamc-su2 run at one coupling (host only): mean with a delete-one
// jackknife error over blocks of consecutive measurements and the integrated autocorrelation
// time of every measured series, the Polyakov-loop susceptibility, and the static potential
// from the (smeared and unsmeared) Wilson loops.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "portamc/statistics.hpp"
#include "portamc/su2/potential.hpp"
#include "portamc/su2/run.hpp"

namespace portamc::su2 {

struct SeriesSummary {
  stats::Estimate mean{0, 0};  ///< over the measurements in whole blocks; jackknife error
  stats::Autocorrelation tau{0, 0, 0, false};  ///< in units of measurements, over all of them
  bool finite = true;  ///< false: the series has non-finite values (e.g. the spatial plaquette
                       ///< in 2D); then every number above is NaN
};

/// Blocking shared by every observable of one coupling.
struct Blocking {
  std::size_t blocks;      ///< min(jackknife_blocks, measurements)
  std::size_t block_size;  ///< measurements / blocks; a trailing partial block is dropped
};
Blocking blocking_for(std::size_t measurements, int jackknife_blocks);

SeriesSummary summarise_series(const std::vector<double>& series, const Blocking& blocking);

/// chi = N_s (<P^2> - <|P|>^2), P the spatial average of ½ Tr P(x) in one measurement and N_s
/// the spatial volume; jackknife over the blocks.
stats::Estimate polyakov_susceptibility(const std::vector<double>& polyakov, double spatial_volume,
                                        const Blocking& blocking);

struct PotentialResult {
  bool ok = false;
  std::string status;  ///< "ok" or why the analysis could not be done
  std::optional<StaticPotential> potential;
};

struct PointAnalysis {
  Blocking blocking{0, 0};
  SeriesSummary plaquette, plaquette_spatial, plaquette_temporal, polyakov, polyakov_abs;
  stats::Estimate susceptibility{0, 0};
  std::vector<SeriesSummary> wilson, wilson_smeared;  ///< per loop, index (R-1) t_max + (T-1)
  std::optional<PotentialResult> potential, potential_smeared;
};

/// Everything above for one coupling. Never throws for bad statistics: a potential that cannot
/// be extracted (noise, too few measurements) is reported in its status.
PointAnalysis analyse_point(const PointRecord& record, const RunParameters& parameters);

}  // namespace portamc::su2

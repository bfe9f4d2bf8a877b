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
#include "portamc/muca/simulation.hpp"
#include "portamc/stationarity.hpp"

namespace portamc::muca {

inline constexpr int kMinJackknifeGroups = 16;

struct ProductionAnalysis {
  std::string error_method;   ///< "walker_groups" or "time_bins"
  int jackknife_samples = 0;  ///< groups or bins the jackknife ran over
  BlockBinning binning;       ///< the time bins (time_bins only)
  DensityOfStates dos;
  CanonicalTable canonical;
  stats::StationarityCheck stationarity;
};

/// For a Simulation on any backend of the build.
template <class Space>
ProductionAnalysis analyse_production(const Simulation<Space>& simulation,
                                      const std::vector<double>& betas);

}  // namespace portamc::muca

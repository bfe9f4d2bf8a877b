#pragma once
// Is the production stationary? The walker population's energy distribution under the final
// weights, block by block: the share of each block's histogram in 16 windows of consecutive
// accessible energy bins (equal numbers of bins; one bin each for L = 4), compared between
// the first and the last
// third of the blocks (stats::compare_thirds). A population still relaxing after the
// thermalisation shows as a trend at the ends of the energy range.
#include <vector>

#include "portamc/histogram.hpp"
#include "portamc/muca/parameters.hpp"
#include "portamc/stationarity.hpp"

namespace portamc::muca {

inline constexpr int kStationarityWindows = 16;

/// Per block, the fraction of its attempts in each of `windows` windows of accessible bins.
std::vector<std::vector<double>> window_occupations(
    const EnergyBins& bins, const std::vector<std::vector<count_type>>& blocks,
    int windows = kStationarityWindows);

/// compare_thirds of the window occupations; with fewer than 6 blocks nothing is compared
/// and the result says so (checked = false).
stats::StationarityCheck production_stationarity(const EnergyBins& bins,
                                                 const std::vector<std::vector<count_type>>& blocks,
                                                 double threshold = 4.5);

}  // namespace portamc::muca

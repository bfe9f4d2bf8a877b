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

/// Attempts of each walker group in each window: `grouped` holds `groups` rows of bins
/// (IsingMuca::sample_by_group); the result holds `groups` rows of `windows` counts.
std::vector<count_type> group_window_counts(const EnergyBins& bins,
                                            const std::vector<count_type>& grouped, int groups,
                                            int windows = kStationarityWindows);

/// The stationarity check with walker groups as the independent samples: per group, the share
/// of each window in the first and in the last third of the blocks; per window the mean change
/// over groups in units of its standard error over groups (stats::compare_thirds_by_group).
/// Unlike the comparison of time blocks this holds when blocks are correlated (walkers keep
/// their energies over many blocks): a group's own slow wander enters the scatter over groups.
stats::StationarityCheck group_stationarity(
    const std::vector<std::vector<count_type>>& block_group_windows, int groups,
    double threshold = 4.5);

/// compare_thirds of the window occupations; with fewer than 6 blocks nothing is compared
/// and the result says so (checked = false).
stats::StationarityCheck production_stationarity(const EnergyBins& bins,
                                                 const std::vector<std::vector<count_type>>& blocks,
                                                 double threshold = 4.5);

}  // namespace portamc::muca

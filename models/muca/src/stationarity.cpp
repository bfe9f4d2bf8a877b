#include "portamc/muca/stationarity.hpp"

#include <algorithm>
#include <stdexcept>

namespace portamc::muca {

namespace {

// Window of each energy bin (-1 for inaccessible bins): `windows` runs of consecutive
// accessible bins, of equal size to within one.
std::vector<int> window_of_bins(const EnergyBins& bins, int windows) {
  std::vector<int> accessible;
  for (int k = 0; k < bins.count(); ++k)
    if (bins.accessible(k)) accessible.push_back(k);
  const int n = static_cast<int>(accessible.size());
  if (windows < 1 || windows > n)
    throw std::invalid_argument("window_occupations: need 1 .. " + std::to_string(n) + " windows");
  std::vector<int> window_of(bins.count(), -1);
  for (int i = 0; i < n; ++i)
    window_of[accessible[i]] = static_cast<int>(static_cast<long long>(i) * windows / n);
  return window_of;
}

int windows_for(const EnergyBins& bins) {
  return std::min(kStationarityWindows, bins.accessible_count());
}

}  // namespace

std::vector<std::vector<double>> window_occupations(
    const EnergyBins& bins, const std::vector<std::vector<count_type>>& blocks, int windows) {
  const std::vector<int> window_of = window_of_bins(bins, windows);
  std::vector<std::vector<double>> out;
  out.reserve(blocks.size());
  for (const auto& h : blocks) {
    std::vector<double> share(windows, 0.0);
    double total = 0;
    for (int k = 0; k < bins.count(); ++k) {
      total += static_cast<double>(h[k]);
      if (window_of[k] >= 0) share[window_of[k]] += static_cast<double>(h[k]);
    }
    if (total > 0)
      for (double& s : share) s /= total;
    out.push_back(std::move(share));
  }
  return out;
}

stats::StationarityCheck production_stationarity(const EnergyBins& bins,
                                                 const std::vector<std::vector<count_type>>& blocks,
                                                 double threshold) {
  if (blocks.size() < 6) {
    stats::StationarityCheck none;
    none.checked = false;
    none.threshold = threshold;
    none.statistic = "not checked: " + std::to_string(blocks.size()) +
                     " blocks, the comparison of thirds needs at least 6";
    return none;
  }
  return stats::compare_thirds(window_occupations(bins, blocks, windows_for(bins)), threshold);
}

std::vector<count_type> group_window_counts(const EnergyBins& bins,
                                            const std::vector<count_type>& grouped, int groups,
                                            int windows) {
  windows = std::min(windows, windows_for(bins));
  const std::vector<int> window_of = window_of_bins(bins, windows);
  const std::size_t nbins = static_cast<std::size_t>(bins.count());
  std::vector<count_type> out(static_cast<std::size_t>(groups) * windows, 0);
  for (int g = 0; g < groups; ++g)
    for (std::size_t k = 0; k < nbins; ++k)
      if (window_of[k] >= 0) out[g * windows + window_of[k]] += grouped[g * nbins + k];
  return out;
}

stats::StationarityCheck group_stationarity(
    const std::vector<std::vector<count_type>>& block_group_windows, int groups, double threshold) {
  if (block_group_windows.size() < 6 || groups < 3) {
    stats::StationarityCheck none;
    none.checked = false;
    none.threshold = threshold;
    none.statistic = "not checked: " + std::to_string(block_group_windows.size()) + " blocks and " +
                     std::to_string(groups) + " walker groups (needs at least 6 and 3)";
    return none;
  }
  const std::size_t windows = block_group_windows.front().size() / groups;
  std::vector<std::vector<std::vector<double>>> amounts;
  for (const auto& row : block_group_windows) {
    std::vector<std::vector<double>> per_group(groups, std::vector<double>(windows));
    for (int g = 0; g < groups; ++g)
      for (std::size_t w = 0; w < windows; ++w)
        per_group[g][w] = static_cast<double>(row[g * windows + w]);
    amounts.push_back(std::move(per_group));
  }
  return stats::compare_thirds_by_group(amounts, threshold);
}

}  // namespace portamc::muca

#include "portamc/muca/stationarity.hpp"

#include <algorithm>
#include <stdexcept>

namespace portamc::muca {

std::vector<std::vector<double>> window_occupations(
    const EnergyBins& bins, const std::vector<std::vector<count_type>>& blocks, int windows) {
  std::vector<int> accessible;
  for (int k = 0; k < bins.count(); ++k)
    if (bins.accessible(k)) accessible.push_back(k);
  const int n = static_cast<int>(accessible.size());
  if (windows < 1 || windows > n)
    throw std::invalid_argument("window_occupations: need 1 .. " + std::to_string(n) + " windows");
  std::vector<int> window_of(bins.count(), -1);
  for (int i = 0; i < n; ++i)
    window_of[accessible[i]] = static_cast<int>(static_cast<long long>(i) * windows / n);
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
  const int windows = std::min(kStationarityWindows, bins.accessible_count());
  return stats::compare_thirds(window_occupations(bins, blocks, windows), threshold);
}

}  // namespace portamc::muca

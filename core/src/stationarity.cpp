#include "portamc/stationarity.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace portamc::stats {
namespace {

struct MeanAndError {
  double mean, error;
};

MeanAndError third(const std::vector<double>& x, std::size_t begin, std::size_t end) {
  const double n = static_cast<double>(end - begin);
  double mean = 0;
  for (std::size_t i = begin; i < end; ++i) mean += x[i];
  mean /= n;
  double ss = 0;
  for (std::size_t i = begin; i < end; ++i) ss += (x[i] - mean) * (x[i] - mean);
  return {mean, std::sqrt(ss / (n - 1.0) / n)};
}

}  // namespace

StationarityCheck compare_thirds(const std::vector<std::vector<double>>& blocks, double threshold) {
  const std::size_t b = blocks.size();
  if (b < 6) throw std::invalid_argument("stationarity: at least 6 blocks are needed");
  const std::size_t components = blocks.front().size();
  for (const auto& block : blocks) {
    if (block.size() != components) {
      throw std::invalid_argument("stationarity: all blocks must have the same length");
    }
  }
  StationarityCheck check;
  check.threshold = threshold;
  const std::size_t n3 = b / 3;
  std::vector<double> series(b);
  for (std::size_t c = 0; c < components; ++c) {
    for (std::size_t i = 0; i < b; ++i) series[i] = blocks[i][c];
    double z = 0;
    if (!std::all_of(series.begin(), series.end(), [&](double v) { return v == series[0]; })) {
      const MeanAndError first = third(series, 0, n3);
      const MeanAndError last = third(series, b - n3, b);
      const double error = std::sqrt(2.0) * last.error;
      const double change = last.mean - first.mean;
      // A last third without scatter that differs from the first is as far as it gets.
      z = error > 0 ? change / error : (change == 0 ? 0.0 : std::copysign(HUGE_VAL, change));
    }
    check.z.push_back(z);
    check.max_abs_z = std::max(check.max_abs_z, std::abs(z));
  }
  check.passed = check.max_abs_z <= threshold;
  std::ostringstream s;
  s << "max over " << components << " components of |z|, z = (mean of the last " << n3
    << " blocks - mean of the first " << n3
    << ") / (standard deviation of the last third's blocks * sqrt(2 / " << n3
    << ")); passes at <= " << threshold;
  check.statistic = s.str();
  return check;
}

StationarityCheck compare_thirds_by_group(
    const std::vector<std::vector<std::vector<double>>>& amounts, double threshold) {
  const std::size_t b = amounts.size();
  if (b < 6) throw std::invalid_argument("stationarity: at least 6 blocks are needed");
  const std::size_t groups = amounts.front().size();
  if (groups < 3) throw std::invalid_argument("stationarity: at least 3 groups are needed");
  const std::size_t components = amounts.front().front().size();
  for (const auto& block : amounts) {
    if (block.size() != groups) throw std::invalid_argument("stationarity: ragged groups");
    for (const auto& g : block)
      if (g.size() != components) throw std::invalid_argument("stationarity: ragged components");
  }
  const std::size_t n3 = b / 3;
  // Per group: shares of each component in a third of the blocks.
  auto shares = [&](std::size_t g, std::size_t begin, std::size_t end) {
    std::vector<double> s(components, 0.0);
    double total = 0;
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t c = 0; c < components; ++c) {
        s[c] += amounts[i][g][c];
        total += amounts[i][g][c];
      }
    if (total > 0)
      for (double& v : s) v /= total;
    return std::make_pair(s, total > 0);
  };
  std::vector<std::vector<double>> change;  // [group][component]
  for (std::size_t g = 0; g < groups; ++g) {
    const auto first = shares(g, 0, n3), last = shares(g, b - n3, b);
    if (!first.second || !last.second) continue;
    std::vector<double> d(components);
    for (std::size_t c = 0; c < components; ++c) d[c] = last.first[c] - first.first[c];
    change.push_back(std::move(d));
  }
  StationarityCheck check;
  check.threshold = threshold;
  const double n = static_cast<double>(change.size());
  for (std::size_t c = 0; c < components; ++c) {
    double mean = 0, ss = 0;
    for (const auto& d : change) mean += d[c] / n;
    for (const auto& d : change) ss += (d[c] - mean) * (d[c] - mean);
    const double error = change.size() > 1 ? std::sqrt(ss / (n - 1.0) / n) : 0.0;
    const double z = error > 0 ? mean / error : (mean == 0 ? 0.0 : std::copysign(HUGE_VAL, mean));
    check.z.push_back(z);
    check.max_abs_z = std::max(check.max_abs_z, std::abs(z));
  }
  check.passed = check.max_abs_z <= threshold;
  std::ostringstream s;
  s << "max over " << components << " components of |z|, z = mean over " << change.size()
    << " independent groups of (share in the last " << n3 << " blocks - share in the first " << n3
    << ") / its standard error over the groups; passes at <= " << threshold;
  check.statistic = s.str();
  return check;
}

}  // namespace portamc::stats

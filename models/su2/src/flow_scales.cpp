// t0 and w0 from flow curves; see the header.
#include "portamc/su2/flow_scales.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace portamc::su2 {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The first x where the piecewise linear y(x) rises through `level`; NaN if it never does.
double first_crossing(const std::vector<double>& x, const std::vector<double>& y, double level) {
  for (std::size_t k = 0; k + 1 < x.size(); ++k) {
    if (y[k] < level && y[k + 1] >= level)
      return x[k] + (level - y[k]) * (x[k + 1] - x[k]) / (y[k + 1] - y[k]);
  }
  return kNaN;
}

}  // namespace

FlowScales flow_scales(const std::vector<double>& t, const std::vector<double>& t2e,
                       double reference) {
  if (t.size() != t2e.size() || t.size() < 2)
    throw std::invalid_argument("flow scales: need at least two flow times with one value each");
  for (std::size_t k = 0; k + 1 < t.size(); ++k)
    if (!(t[k + 1] > t[k])) throw std::invalid_argument("flow scales: flow times must increase");
  FlowScales s;
  s.t0 = first_crossing(t, t2e, reference);
  std::vector<double> middle, w;
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    middle.push_back(0.5 * (t[k] + t[k + 1]));
    w.push_back(middle.back() * (t2e[k + 1] - t2e[k]) / (t[k + 1] - t[k]));
  }
  const double w0_squared = middle.size() >= 2 ? first_crossing(middle, w, reference) : kNaN;
  s.w0 = std::sqrt(w0_squared);
  return s;
}

FlowScaleEstimates estimate_flow_scales(const std::vector<double>& t,
                                        const std::vector<std::vector<double>>& configurations,
                                        double reference) {
  if (configurations.size() < 2)
    throw std::invalid_argument("flow scales: need at least two configurations for errors");
  // Sums over configurations are what the jackknife leaves one out of: E(t) at each t, plus
  // the count, so the estimator sees the mean curve.
  std::vector<std::vector<double>> blocks;
  for (const std::vector<double>& e : configurations) {
    if (e.size() != t.size())
      throw std::invalid_argument("flow scales: every configuration needs E at every flow time");
    std::vector<double> block(e);
    block.push_back(1.0);
    blocks.push_back(std::move(block));
  }
  const auto estimator = [&](const std::vector<double>& sums) {
    const double n = sums.back();
    std::vector<double> t2e(t.size());
    for (std::size_t k = 0; k < t.size(); ++k) t2e[k] = t[k] * t[k] * sums[k] / n;
    const FlowScales s = flow_scales(t, t2e, reference);
    return std::vector<double>{s.t0, s.w0};
  };
  const std::vector<stats::JackknifeEstimate> e = stats::jackknife_with_tau(blocks, estimator);
  return {e[0], e[1]};
}

}  // namespace portamc::su2

#include "portamc/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace portamc::stats {
namespace {

double mean_of(const std::vector<double>& x) {
  double sum = 0.0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

// Deviations are taken from the mean before squaring: the one-pass sum(x^2) - n*mean^2 cancels
// catastrophically when the spread is small compared with the mean (typical for bin means).
double sum_squared_deviations(const std::vector<double>& x, double mean) {
  double sum = 0.0;
  for (double v : x) sum += (v - mean) * (v - mean);
  return sum;
}

// Mean and standard error of values treated as independent samples; callers ensure size >= 2.
Estimate mean_with_standard_error(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  const double mean = mean_of(values);
  const double variance = sum_squared_deviations(values, mean) / (n - 1.0);
  return {mean, std::sqrt(variance / n)};
}

// Averaging neighbouring pairs of bin means gives the bins of twice the size (floor division
// composes, so the dropped tail is the same as binning from scratch) in O(bins) instead of O(N).
std::vector<double> merge_pairs(const std::vector<double>& means) {
  std::vector<double> merged(means.size() / 2);
  for (std::size_t b = 0; b < merged.size(); ++b) {
    merged[b] = 0.5 * (means[2 * b] + means[2 * b + 1]);
  }
  return merged;
}

// Sokal's estimator normalises by the number of pairs, N - t, rather than N; within the
// automatic window (W << N) the two differ negligibly.
double autocovariance(const std::vector<double>& deviations, std::size_t lag) {
  const std::size_t pairs = deviations.size() - lag;
  double sum = 0.0;
  for (std::size_t i = 0; i < pairs; ++i) sum += deviations[i] * deviations[i + lag];
  return sum / static_cast<double>(pairs);
}

bool all_finite(const std::vector<double>& x) {
  return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
}

// Comparing samples rather than testing variance == 0 catches constant series whose computed
// mean is off by rounding (e.g. repeated 0.1), where rho(t) would otherwise be rounding noise.
bool is_constant(const std::vector<double>& x) {
  return std::all_of(x.begin(), x.end(), [&](double v) { return v == x.front(); });
}

void check_blocks(const std::vector<std::vector<double>>& blocks) {
  if (blocks.size() < 2) {
    throw std::invalid_argument("jackknife: at least 2 blocks are required");
  }
  for (const auto& block : blocks) {
    if (block.size() != blocks.front().size()) {
      throw std::invalid_argument("jackknife: all blocks must have the same length");
    }
  }
}

std::vector<double> sum_blocks(const std::vector<std::vector<double>>& blocks) {
  std::vector<double> total(blocks.front().size(), 0.0);
  for (const auto& block : blocks) {
    for (std::size_t i = 0; i < total.size(); ++i) total[i] += block[i];
  }
  return total;
}

}  // namespace

std::vector<double> bin_means(const std::vector<double>& series, std::size_t bin_size) {
  std::vector<double> means(series.size() / bin_size);
  for (std::size_t b = 0; b < means.size(); ++b) {
    double sum = 0.0;
    for (std::size_t i = b * bin_size; i < (b + 1) * bin_size; ++i) sum += series[i];
    means[b] = sum / static_cast<double>(bin_size);
  }
  return means;
}

Estimate binned_mean(const std::vector<double>& series, std::size_t bin_size) {
  if (bin_size == 0) throw std::invalid_argument("binned_mean: bin_size must be positive");
  if (series.size() / bin_size < 2) {
    throw std::invalid_argument("binned_mean: fewer than 2 complete bins");
  }
  return mean_with_standard_error(bin_means(series, bin_size));
}

std::vector<BinningRow> binning_analysis(const std::vector<double>& series, std::size_t min_bins) {
  min_bins = std::max<std::size_t>(min_bins, 2);
  std::vector<BinningRow> rows;
  std::vector<double> means = series;
  for (std::size_t bin_size = 1; means.size() >= min_bins; bin_size *= 2) {
    rows.push_back({bin_size, means.size(), mean_with_standard_error(means).error});
    means = merge_pairs(means);
  }
  return rows;
}

Autocorrelation integrated_autocorrelation_time(const std::vector<double>& series, double c) {
  if (series.empty()) throw std::invalid_argument("autocorrelation: empty series");
  if (!(c > 0.0) || !std::isfinite(c)) {
    throw std::invalid_argument("autocorrelation: c must be positive and finite");
  }
  // A NaN would make the window condition never true and turn the search into O(N^2).
  if (!all_finite(series)) throw std::invalid_argument("autocorrelation: non-finite sample");
  const Autocorrelation uncorrelated{0.5, 0.0, 0, true};
  if (is_constant(series)) return uncorrelated;

  const double mean = mean_of(series);
  std::vector<double> deviations(series.size());
  for (std::size_t i = 0; i < series.size(); ++i) deviations[i] = series[i] - mean;
  const double c0 = autocovariance(deviations, 0);
  if (!(c0 > 0.0)) return uncorrelated;  // spread underflowed: nothing to correlate

  const std::size_t n = series.size();
  const std::size_t max_window = n / 2;
  double tau = 0.5;
  std::size_t window = 0;
  bool converged = false;
  // rho(t) is computed lazily so the cost is O(N * W) rather than O(N^2).
  while (window < max_window) {
    ++window;
    tau += autocovariance(deviations, window) / c0;
    if (static_cast<double>(window) >= c * tau) {
      // Beyond N/2 the rho(t) estimates rest on too few pairs to trust the window.
      converged = window < max_window;
      break;
    }
  }
  const double tau_error =
      std::sqrt(2.0 * (2.0 * static_cast<double>(window) + 1.0) / static_cast<double>(n)) *
      std::abs(tau);
  return {tau, tau_error, window, converged};
}

namespace {

constexpr std::size_t kMinBlocksForTau = 8;

struct LeaveOneOut {
  std::vector<double> full;                        // estimator of all blocks, per component
  std::vector<std::vector<double>> leave_one_out;  // [component][block]
};

LeaveOneOut leave_one_out_estimates(
    const std::vector<std::vector<double>>& blocks,
    const std::function<std::vector<double>(const std::vector<double>& summed)>& estimator) {
  check_blocks(blocks);
  const std::vector<double> total = sum_blocks(blocks);
  const std::vector<double> full = estimator(total);

  // Stored per component so that each one can go through jackknife_error unchanged.
  std::vector<std::vector<double>> leave_one_out(full.size(), std::vector<double>(blocks.size()));
  std::vector<double> reduced(total.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    for (std::size_t i = 0; i < total.size(); ++i) reduced[i] = total[i] - blocks[b][i];
    const std::vector<double> theta = estimator(reduced);
    if (theta.size() != full.size()) {
      throw std::invalid_argument("jackknife: estimator result length changed between calls");
    }
    for (std::size_t k = 0; k < theta.size(); ++k) leave_one_out[k][b] = theta[k];
  }

  return {full, std::move(leave_one_out)};
}

}  // namespace

std::vector<Estimate> jackknife(
    const std::vector<std::vector<double>>& blocks,
    const std::function<std::vector<double>(const std::vector<double>& summed)>& estimator) {
  const LeaveOneOut j = leave_one_out_estimates(blocks, estimator);
  std::vector<Estimate> result(j.full.size());
  for (std::size_t k = 0; k < j.full.size(); ++k) {
    result[k] = {j.full[k], jackknife_error(j.leave_one_out[k])};
  }
  return result;
}

std::vector<JackknifeEstimate> jackknife_with_tau(
    const std::vector<std::vector<double>>& blocks,
    const std::function<std::vector<double>(const std::vector<double>& summed)>& estimator) {
  const LeaveOneOut j = leave_one_out_estimates(blocks, estimator);
  const double b = static_cast<double>(blocks.size());
  std::vector<JackknifeEstimate> result(j.full.size());
  std::vector<double> pseudo(blocks.size());
  for (std::size_t k = 0; k < j.full.size(); ++k) {
    const double error = jackknife_error(j.leave_one_out[k]);
    double tau = std::numeric_limits<double>::quiet_NaN();
    // Sokal's window needs a series: from fewer blocks tau_int would be noise (even
    // negative), so it is reported as unknown.
    if (blocks.size() >= kMinBlocksForTau && std::isfinite(error) && std::isfinite(j.full[k])) {
      for (std::size_t i = 0; i < blocks.size(); ++i) {
        pseudo[i] = b * j.full[k] - (b - 1.0) * j.leave_one_out[k][i];
      }
      tau = integrated_autocorrelation_time(pseudo).tau_int;
      if (!(tau > 0)) tau = std::numeric_limits<double>::quiet_NaN();
    }
    result[k] = {j.full[k], error, tau, b / (2.0 * tau)};
  }
  return result;
}

double jackknife_error(const std::vector<double>& leave_one_out) {
  if (leave_one_out.size() < 2) {
    throw std::invalid_argument("jackknife_error: at least 2 leave-one-out estimates required");
  }
  // Explicit, because the arithmetic alone would not give NaN: one infinite estimate among
  // finite ones yields an infinite error.
  if (!all_finite(leave_one_out)) return std::numeric_limits<double>::quiet_NaN();
  const double b = static_cast<double>(leave_one_out.size());
  const double mean = mean_of(leave_one_out);
  return std::sqrt((b - 1.0) / b * sum_squared_deviations(leave_one_out, mean));
}

}  // namespace portamc::stats

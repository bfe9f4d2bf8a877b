// Error analysis for correlated Monte Carlo time series: binning, integrated autocorrelation
// times and the delete-one jackknife. Host-only; nothing here touches Kokkos.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace portamc::stats {

struct Estimate {
  double value;
  double error;
};

// Means of consecutive bins of `bin_size` samples; a trailing partial bin is dropped.
std::vector<double> bin_means(const std::vector<double>& series, std::size_t bin_size);

// Mean with the standard error computed from non-overlapping bins of `bin_size` samples.
// A trailing partial bin is dropped, for the value as well as the error, so that both describe
// the same samples. Throws std::invalid_argument if bin_size is 0 or fewer than 2 bins fit.
Estimate binned_mean(const std::vector<double>& series, std::size_t bin_size);

struct BinningRow {
  std::size_t bin_size;
  std::size_t bins;
  double error;
};

// Error of the mean for bin sizes 1, 2, 4, ... while at least `min_bins` bins remain. Each row
// equals binned_mean(series, bin_size).error. An error needs two bins, so min_bins below 2 is
// treated as 2; a series shorter than min_bins gives an empty table.
std::vector<BinningRow> binning_analysis(const std::vector<double>& series,
                                         std::size_t min_bins = 32);

struct Autocorrelation {
  double tau_int;
  double tau_error;
  std::size_t window;
  bool window_converged;
};

// Integrated autocorrelation time with the convention tau_int = 1/2 + sum_{t=1}^{W} rho(t), so
// that error(mean)^2 = 2 tau_int var / N. The window W is Sokal's automatic window: the smallest
// W with W >= c * tau_int(W). tau_error is the Madras-Sokal estimate sqrt(2(2W+1)/N) * tau_int.
// The search stops at W = N/2; if the condition is not met before that, window_converged is false
// and the result is a (biased) lower estimate. A constant series gives tau_int = 1/2, W = 0.
// Throws std::invalid_argument for an empty series, non-finite samples, or c not > 0.
Autocorrelation integrated_autocorrelation_time(const std::vector<double>& series, double c = 6.0);

// Delete-one jackknife over B additive blocks (e.g. per-block histograms, all the same length).
// estimator(summed_data) returns a vector of estimates. Returns, per component, value = estimator
// of the full sum and error = sqrt((B-1)/B * sum_b (theta_b - mean_b theta_b)^2) with
// theta_b = estimator(total - block_b). Components that are non-finite in any leave-one-out
// sample get error = NaN (value as computed). Throws std::invalid_argument for B < 2, ragged
// blocks, or an estimator whose result length changes between calls.
std::vector<Estimate> jackknife(
    const std::vector<std::vector<double>>& blocks,
    const std::function<std::vector<double>(const std::vector<double>& summed)>& estimator);

// The jackknife above, with the autocorrelation of the blocks: the delete-one pseudovalues
// p_b = B theta - (B - 1) theta_b form a series over blocks (in run order) whose mean is the
// bias-corrected estimate and whose scatter the jackknife error measures. Their integrated
// autocorrelation time says whether consecutive blocks are independent, as the error assumes
// (tau_int = 1/2); effective_blocks = B / (2 tau_int). tau is NaN where the error is, and
// with fewer than 8 blocks (too few to measure it).
struct JackknifeEstimate {
  double value;
  double error;
  double tau_int;           // in blocks
  double effective_blocks;  // B / (2 tau_int)
};
std::vector<JackknifeEstimate> jackknife_with_tau(
    const std::vector<std::vector<double>>& blocks,
    const std::function<std::vector<double>(const std::vector<double>& summed)>& estimator);

// Jackknife error from given leave-one-out estimates (same formula as above); NaN if any of them
// is non-finite. Throws std::invalid_argument for fewer than 2 estimates.
double jackknife_error(const std::vector<double>& leave_one_out);

}  // namespace portamc::stats

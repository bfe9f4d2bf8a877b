#include "portamc/cvf/autocorrelation.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/series_analysis.hpp"

namespace portamc::cvf {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// Above this many multiply-adds the direct sums take longer than the FFT on any host.
constexpr double direct_work_limit = 1 << 26;

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

// Lagged products sum_i d_i d_{i+dt} for dt = 0 .. max_lag.
std::vector<double> lagged_sums_direct(const std::vector<double>& d, std::size_t max_lag) {
  std::vector<double> sums(max_lag + 1, 0.0);
  for (std::size_t lag = 0; lag <= max_lag; ++lag) {
    double sum = 0;
    for (std::size_t i = 0; i + lag < d.size(); ++i) sum += d[i] * d[i + lag];
    sums[lag] = sum;
  }
  return sums;
}

// In-place iterative radix-2 Cooley-Tukey; a.size() is a power of two. The inverse is left
// unnormalised (the caller divides by the size).
void fft(std::vector<std::complex<double>>& a, bool inverse) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  // One twiddle table for all stages, each entry from std::polar: repeated multiplication
  // would accumulate rounding error along a stage.
  const double pi = 3.14159265358979323846;
  std::vector<std::complex<double>> twiddle(n / 2);
  for (std::size_t k = 0; k < n / 2; ++k) {
    twiddle[k] =
        std::polar(1.0, (inverse ? 2 : -2) * pi * static_cast<double>(k) / static_cast<double>(n));
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const std::size_t stride = n / len;
    for (std::size_t start = 0; start < n; start += len) {
      for (std::size_t k = 0; k < len / 2; ++k) {
        const std::complex<double> u = a[start + k];
        const std::complex<double> v = a[start + k + len / 2] * twiddle[k * stride];
        a[start + k] = u + v;
        a[start + k + len / 2] = u - v;
      }
    }
  }
}

// Wiener-Khinchin: zero padding to at least 2 N turns the circular correlation into the linear
// one, so |FFT|^2 transformed back gives the same lagged sums as the direct loop.
std::vector<double> lagged_sums_fft(const std::vector<double>& d, std::size_t max_lag) {
  std::size_t size = 1;
  while (size < 2 * d.size()) size <<= 1;
  std::vector<std::complex<double>> a(size, 0.0);
  std::copy(d.begin(), d.end(), a.begin());
  fft(a, false);
  for (auto& z : a) z = std::norm(z);
  fft(a, true);
  std::vector<double> sums(max_lag + 1);
  for (std::size_t lag = 0; lag <= max_lag; ++lag) {
    sums[lag] = a[lag].real() / static_cast<double>(size);
  }
  return sums;
}

}  // namespace

double one_over_e_time(const std::vector<double>& c) {
  const double threshold = std::exp(-1.0);
  for (std::size_t lag = 1; lag < c.size(); ++lag) {
    if (std::isnan(c[lag]) || std::isnan(c[lag - 1])) return nan;
    if (c[lag] <= threshold) {
      // c[lag - 1] > threshold >= c[lag], so the denominator is positive.
      const double fraction = (c[lag - 1] - threshold) / (c[lag - 1] - c[lag]);
      return static_cast<double>(lag - 1) + fraction;
    }
  }
  return nan;
}

AutocorrelationFunction autocorrelation_function(const std::vector<double>& series,
                                                 std::size_t max_lag, CorrelationMethod method) {
  const std::string who = "cvf::autocorrelation_function: ";
  require(!series.empty(), who + "empty series");
  require(max_lag < series.size(), who + "max_lag " + std::to_string(max_lag) +
                                       " leaves no pair in a series of " +
                                       std::to_string(series.size()) + " samples");
  for (std::size_t k = 0; k < series.size(); ++k) {
    require(std::isfinite(series[k]), who + "non-finite sample at index " + std::to_string(k));
  }

  AutocorrelationFunction out{};
  out.tau_int = stats::autocorrelation_time(series);
  out.tau_e = nan;
  out.tau_e_reached = false;
  out.c.assign(max_lag + 1, nan);

  const double n = static_cast<double>(series.size());
  double mean = 0;
  for (double x : series) mean += x;
  mean /= n;
  std::vector<double> d(series.size());
  for (std::size_t k = 0; k < series.size(); ++k) d[k] = series[k] - mean;

  // All samples equal is tested directly: the rounded mean of e.g. repeated 0.1 leaves tiny
  // deviations whose "correlation" would be rounding noise.
  const bool all_equal =
      std::all_of(series.begin(), series.end(), [&](double x) { return x == series.front(); });
  if (method == CorrelationMethod::automatic) {
    method = static_cast<double>(max_lag + 1) * n <= direct_work_limit ? CorrelationMethod::direct
                                                                       : CorrelationMethod::fft;
  }
  const std::vector<double> sums = all_equal ? std::vector<double>(max_lag + 1, 0.0)
                                   : method == CorrelationMethod::direct
                                       ? lagged_sums_direct(d, max_lag)
                                       : lagged_sums_fft(d, max_lag);
  const double variance = sums[0] / n;
  out.constant = all_equal || !(variance > 0);
  if (out.constant) return out;

  out.c[0] = 1.0;
  for (std::size_t lag = 1; lag <= max_lag; ++lag) {
    out.c[lag] = sums[lag] / (n - static_cast<double>(lag)) / variance;
  }
  out.tau_e = one_over_e_time(out.c);
  out.tau_e_reached = !std::isnan(out.tau_e);
  return out;
}

}  // namespace portamc::cvf

#include "portamc/series_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace portamc::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Above these lengths the searches work on bin means: the O(N W) autocorrelation sums stay
// affordable for series of any length, and neither answer needs finer resolution.
constexpr std::size_t kMaxDirectSamples = 65536;
constexpr std::size_t kMaxEquilibrationSamples = 4096;
constexpr std::size_t kEquilibrationCandidates = 64;  // t0 = j N / 64, j = 0..32

double variance_of(const std::vector<double>& x) {
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double s = 0;
  for (double v : x) s += (v - mean) * (v - mean);
  return s / static_cast<double>(x.size());
}

bool all_finite(const std::vector<double>& x) {
  return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

Equilibration detect_equilibration(const std::vector<double>& series, double window_c) {
  if (!all_finite(series)) throw std::invalid_argument("equilibration: non-finite sample");
  const std::size_t n = series.size();
  Equilibration best{0, static_cast<double>(n)};
  if (n < 8) return best;
  const std::size_t m = (n + kMaxEquilibrationSamples - 1) / kMaxEquilibrationSamples;
  const std::vector<double> y = m > 1 ? bin_means(series, m) : series;
  const std::size_t ny = y.size();
  best.effective_samples = -1;
  for (std::size_t j = 0; 2 * j <= kEquilibrationCandidates; ++j) {
    const std::size_t t0 = j * ny / kEquilibrationCandidates;
    if (j > 0 && t0 == (j - 1) * ny / kEquilibrationCandidates) continue;
    const std::vector<double> rest(y.begin() + static_cast<std::ptrdiff_t>(t0), y.end());
    const Autocorrelation a = integrated_autocorrelation_time(rest, window_c);
    const double n_eff = static_cast<double>(rest.size()) / (2.0 * a.tau_int);
    // Strictly greater: of equal candidates the earliest start keeps the most data.
    if (n_eff > best.effective_samples) best = {t0 * m, n_eff};
  }
  // In units of the original samples: bins of m hold m samples each.
  best.effective_samples = std::min(best.effective_samples * static_cast<double>(m),
                                    static_cast<double>(n - best.discarded));
  return best;
}

Autocorrelation autocorrelation_time(const std::vector<double>& series, double window_c) {
  if (series.size() <= kMaxDirectSamples) {
    return integrated_autocorrelation_time(series, window_c);
  }
  if (!all_finite(series)) throw std::invalid_argument("autocorrelation: non-finite sample");
  const std::size_t m = (series.size() + kMaxDirectSamples - 1) / kMaxDirectSamples;
  const std::vector<double> y = bin_means(series, m);
  const double var_x = variance_of(series);
  if (!(var_x > 0)) return {0.5, 0.0, 0, true};
  const Autocorrelation a = integrated_autocorrelation_time(y, window_c);
  // var(mean) = 2 tau_y var(y) / n_y = 2 tau_x var(x) / (m n_y).
  const double scale = static_cast<double>(m) * variance_of(y) / var_x;
  return {a.tau_int * scale, a.tau_error * scale, a.window * m, a.window_converged};
}

BinChoice choose_bins(std::size_t samples, double tau_int, const SeriesRules& rules) {
  BinChoice c;
  if (samples < 2) return c;
  const double wanted_real = std::ceil(rules.bin_tau_factor * std::max(tau_int, 0.5));
  const std::size_t wanted =
      std::isfinite(wanted_real) ? static_cast<std::size_t>(std::max(wanted_real, 1.0)) : samples;
  const std::size_t min_bins = std::max<std::size_t>(rules.min_bins, 2);
  const std::size_t longest = std::max<std::size_t>(samples / min_bins, 1);
  c.bin_size = std::min(wanted, longest);
  c.bins = samples / c.bin_size;
  c.long_enough = wanted <= longest && c.bins >= min_bins;
  return c;
}

SeriesAnalysis analyse_series_from(const std::vector<double>& series, std::size_t start,
                                   const SeriesRules& rules) {
  SeriesAnalysis r;
  r.samples = series.size();
  r.discarded = std::min(start, series.size());
  r.used = r.samples - r.discarded;
  const std::vector<double> used(series.begin() + static_cast<std::ptrdiff_t>(r.discarded),
                                 series.end());
  if (used.size() < 2 || !all_finite(used)) {
    r.mean = {kNaN, kNaN};
    r.tau = {kNaN, kNaN, 0, false};
    r.effective_samples = kNaN;
    r.warning = used.size() < 2 ? "fewer than 2 samples after equilibration"
                                : "the series has non-finite values";
    return r;
  }
  r.tau = autocorrelation_time(used, rules.window_c);
  // On a handful of samples Sokal's sum is noise and can even turn negative: then tau_int is
  // unknown, and the bins are chosen as for independent samples.
  const bool tau_known = r.tau.tau_int > 0;
  if (!tau_known) r.tau = {kNaN, kNaN, r.tau.window, false};
  r.effective_samples = tau_known ? static_cast<double>(r.used) / (2.0 * r.tau.tau_int) : kNaN;
  r.bins = choose_bins(r.used, tau_known ? r.tau.tau_int : 0.5, rules);
  r.mean = r.bins.bins >= 2 ? binned_mean(used, r.bins.bin_size) : Estimate{kNaN, kNaN};

  std::vector<std::string> reasons;
  if (!tau_known) {
    reasons.push_back("too few samples to measure tau_int");
  } else if (r.effective_samples < rules.min_effective_samples) {
    std::ostringstream s;
    s << "only " << r.effective_samples << " effective samples (fewer than "
      << rules.min_effective_samples << ")";
    reasons.push_back(s.str());
  }
  if (tau_known && !r.tau.window_converged) {
    reasons.push_back("the autocorrelation window did not converge (tau_int is a lower bound)");
  }
  if (!r.bins.long_enough) {
    std::ostringstream s;
    s << "bins shorter than " << rules.bin_tau_factor << " tau_int (the error may be too small)";
    reasons.push_back(s.str());
  }
  r.reliable = reasons.empty();
  r.warning = join_warnings(reasons);
  return r;
}

std::string join_warnings(const std::vector<std::string>& reasons) {
  std::string text;
  for (std::size_t i = 0; i < reasons.size(); ++i) text += (i ? "; " : "") + reasons[i];
  return text;
}

std::string warning_number(double x) {
  std::ostringstream s;
  s.precision(3);
  s << x;
  return s.str();
}

SeriesAnalysis analyse_series(const std::vector<double>& series, const SeriesRules& rules) {
  std::size_t start = 0;
  if (rules.detect_equilibration && all_finite(series)) {
    start = detect_equilibration(series, rules.window_c).discarded;
  }
  return analyse_series_from(series, start, rules);
}

}  // namespace portamc::stats

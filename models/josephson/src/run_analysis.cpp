#include "portamc/josephson/run_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "portamc/josephson/washboard.hpp"

namespace portamc::josephson {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> linear_grid(double lo, double hi, int points) {
  std::vector<double> grid(static_cast<std::size_t>(points));
  for (int i = 0; i < points; ++i) grid[i] = lo + (hi - lo) * i / (points - 1);
  grid.back() = hi;
  return grid;
}

}  // namespace

SampleSummary summarise(const std::vector<double>& values, std::size_t realisations,
                        std::size_t censored, int histogram_bins) {
  if (histogram_bins < 1) throw std::invalid_argument("josephson summarise: histogram_bins < 1");
  if (values.size() + censored > realisations)
    throw std::invalid_argument("josephson summarise: more samples than realisations");
  SampleSummary s;
  s.realisations = realisations;
  s.escaped = values.size();
  s.censored = censored;
  s.values = values;
  s.ecdf_x = values;
  std::sort(s.ecdf_x.begin(), s.ecdf_x.end());
  const std::size_t n = values.size();
  s.ecdf_p.resize(n);
  for (std::size_t i = 0; i < n; ++i) s.ecdf_p[i] = double(i + 1) / double(realisations);

  const double lo = n ? s.ecdf_x.front() : 0.0, hi = n ? s.ecdf_x.back() : 1.0;
  // Equal values (or none) still get bins of non-zero width around them.
  const double width = hi > lo ? hi - lo : std::max(1.0, std::fabs(lo)) * 1e-6;
  const double left = hi > lo ? lo : lo - width / 2;
  s.histogram_edges.resize(static_cast<std::size_t>(histogram_bins) + 1);
  for (int b = 0; b <= histogram_bins; ++b)
    s.histogram_edges[b] = left + width * b / histogram_bins;
  s.histogram_counts.assign(static_cast<std::size_t>(histogram_bins), 0);
  for (double x : values) {
    const auto b = static_cast<long long>((x - left) / width * histogram_bins);
    ++s.histogram_counts[static_cast<std::size_t>(std::clamp(b, 0LL, histogram_bins - 1LL))];
  }
  if (n == 0) return s;

  double sum = 0;
  for (double x : values) sum += x;
  s.mean = sum / n;
  s.median = n % 2 ? s.ecdf_x[n / 2] : 0.5 * (s.ecdf_x[n / 2 - 1] + s.ecdf_x[n / 2]);
  if (n < 2) return s;
  double m2 = 0, m4 = 0;
  for (double x : values) {
    const double d2 = (x - s.mean) * (x - s.mean);
    m2 += d2;
    m4 += d2 * d2;
  }
  const double variance = m2 / (n - 1);
  s.standard_deviation = std::sqrt(variance);
  s.mean_error = s.standard_deviation / std::sqrt(double(n));
  // var(s^2) ~ (mu4 - mu2^2 (n - 3) / (n - 1)) / n; err(s) = err(s^2) / (2 s).
  const double mu2 = m2 / n, mu4 = m4 / n;
  const double var_s2 = std::max(0.0, (mu4 - mu2 * mu2 * (double(n) - 3) / (double(n) - 1)) / n);
  s.standard_deviation_error =
      s.standard_deviation > 0 ? std::sqrt(var_s2) / (2 * s.standard_deviation) : 0.0;
  return s;
}

SampleSummary summarise_escape_times(const EnsembleResults& r, int bins) {
  return summarise(r.escape_times(), r.size(), r.count(Outcome::censored), bins);
}

SampleSummary summarise_switching_biases(const EnsembleResults& r, int bins) {
  return summarise(r.escape_biases(), r.size(), r.count(Outcome::censored), bins);
}

ExponentialCdf exponential_cdf(const EscapeTheory& theory, const SampleSummary& times, int points) {
  ExponentialCdf e;
  e.mean_time = theory.mean_time;
  e.mean_source = theory.exact_rate ? "exact" : "kramers";
  if (!(std::isfinite(e.mean_time) && e.mean_time > 0)) {
    e.status = "not available: no finite theoretical mean escape time (" + theory.status + ")";
    e.mean_time = kNaN;
    return e;
  }
  const double end = std::max(3.0 * e.mean_time, times.ecdf_x.empty() ? 0.0 : times.ecdf_x.back());
  e.t = linear_grid(0.0, end, points);
  for (double t : e.t) e.cdf.push_back(-std::expm1(-t / e.mean_time));
  return e;
}

BiasDependentRate switching_rate(const ResolvedRun& run) {
  if (!run.exact_rate) return washboard_rate(run.rate_formula, run.V0, run.beta, run.theta);
  // Rates below this change the escape exponent of the whole ramp by less than 1e-30.
  const double negligible = 1e-30 * run.nu / (1.0 - run.ramp_gamma0);
  return exact_overdamped_rate(run.V0, run.beta, run.theta, run.points.front().escape_threshold(),
                               run.ramp_gamma0, negligible);
}

SwitchingTheoryCurves switching_theory(const ResolvedRun& run, const SampleSummary& biases) {
  SwitchingTheoryCurves c;
  c.rate_name = run.theory_rate_name();
  c.kramers_formula = run.rate_formula;
  const LinearRamp ramp{run.ramp_gamma0, run.nu};
  try {
    c.kramers_moments =
        switching_moments(washboard_rate(run.rate_formula, run.V0, run.beta, run.theta), ramp);
  } catch (const std::exception& e) {
    c.kramers_status = std::string("not available: ") + e.what();
  }
  try {
    const BiasDependentRate rate = switching_rate(run);
    c.moments = switching_moments(rate, ramp);
    double lo, hi;
    if (!biases.ecdf_x.empty()) {
      lo = biases.ecdf_x.front();
      hi = biases.ecdf_x.back();
      const double pad = hi > lo ? 0.25 * (hi - lo) : 0.01;
      lo -= pad;
      hi += pad;
    } else {
      lo = c.moments.mean - 6 * c.moments.standard_deviation;
      hi = c.moments.mean + 6 * c.moments.standard_deviation;
    }
    lo = std::max(lo, run.ramp_gamma0);
    hi = std::min(hi, 1.0);
    if (!(hi > lo)) hi = std::min(1.0, lo + 0.01);
    c.gamma = linear_grid(lo, hi, run.input.theory_points);
    c.cdf = switching_cdf(rate, ramp, c.gamma);
    c.density = switching_density(rate, ramp, c.gamma);
  } catch (const std::exception& e) {
    c.gamma.clear();
    c.cdf.clear();
    c.density.clear();
    c.moments = SwitchingTheoryCurves{}.moments;
    c.status = std::string("not available: ") + e.what();
  }
  return c;
}

ArrheniusAnalysis analyse_arrhenius(const ResolvedRun& run,
                                    const std::vector<SampleSummary>& escape_times) {
  ArrheniusAnalysis a;
  std::vector<double> theta, mean, error;
  for (std::size_t k = 0; k < escape_times.size(); ++k) {
    const SampleSummary& s = escape_times[k];
    if (s.escaped >= 2 && s.mean_error > 0 && std::isfinite(s.mean_error)) {
      theta.push_back(run.points[k].theta);
      mean.push_back(s.mean);
      error.push_back(s.mean_error);
      if (s.censored > 0) ++a.censored_points;
    }
  }
  a.points_used = theta.size();
  const double gamma = run.input.gamma;
  if (gamma >= 0 && gamma < 1) a.barrier = barrier_height(run.V0, gamma);
  for (auto [form, out] : {std::pair{ArrheniusForm::plain, &a.plain},
                           std::pair{ArrheniusForm::theta_prefactor, &a.theta_prefactor}}) {
    try {
      out->fit = fit_arrhenius(theta, mean, error, form);
      if (a.censored_points > 0)
        out->status = "ok, but " + std::to_string(a.censored_points) +
                      " point(s) had censored realisations: their means are biased low";
    } catch (const std::exception& e) {
      out->status = std::string("not available: ") + e.what();
    }
  }
  return a;
}

RunAnalysis analyse_run(const ResolvedRun& run, const std::vector<PointRecord>& points) {
  if (points.size() != run.points.size())
    throw std::invalid_argument("josephson analyse_run: the run is not complete");
  RunAnalysis a;
  const int bins = run.input.histogram_bins;
  for (const PointRecord& p : points)
    a.samples.push_back(run.input.mode == RunMode::switching
                            ? summarise_switching_biases(p.results, bins)
                            : summarise_escape_times(p.results, bins));
  if (run.input.mode == RunMode::switching) {
    a.switching = switching_theory(run, a.samples.front());
    return a;
  }
  for (std::size_t k = 0; k < points.size(); ++k)
    a.exponential.push_back(exponential_cdf(run.theory[k], a.samples[k], run.input.theory_points));
  if (run.input.mode == RunMode::arrhenius) a.arrhenius = analyse_arrhenius(run, a.samples);
  return a;
}

}  // namespace portamc::josephson

#pragma once
// Statistics of a portamc-josephson run (host only): the empirical distribution of the escape
// times or switching biases of an ensemble, the theory curves to compare it with, and the
// Arrhenius fits over the ensembles of an arrhenius run.
//
// Censored realisations (no escape within max_steps) never enter the samples: they are counted,
// the ECDF is normalised by all realisations (so it ends at the escaped fraction), and means are
// over the escaped ones only, which biases them low when anything was censored (the output says
// how many were).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "portamc/josephson/arrhenius.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/switching_theory.hpp"

namespace portamc::josephson {

struct SampleSummary {
  std::size_t realisations = 0, escaped = 0, censored = 0;
  std::vector<double> values;  ///< escaped realisations only, in realisation order
  /// ECDF: the sorted values and P(X <= x) = (i + 1) / realisations at the i-th of them.
  std::vector<double> ecdf_x, ecdf_p;
  std::vector<double> histogram_edges;  ///< bins + 1 equal bins over [min, max] of the values
  std::vector<std::uint64_t> histogram_counts;
  double mean = std::numeric_limits<double>::quiet_NaN();
  double mean_error = std::numeric_limits<double>::quiet_NaN();  ///< s / sqrt(n)
  double standard_deviation = std::numeric_limits<double>::quiet_NaN();
  /// Large-sample error of s from the fourth central moment (any distribution).
  double standard_deviation_error = std::numeric_limits<double>::quiet_NaN();
  double median = std::numeric_limits<double>::quiet_NaN();
};

/// Summary of the escaped `values` of an ensemble of `realisations` with `censored` censored.
SampleSummary summarise(const std::vector<double>& values, std::size_t realisations,
                        std::size_t censored, int histogram_bins);

/// Escape times (steps h) of a finished ensemble.
SampleSummary summarise_escape_times(const EnsembleResults& results, int histogram_bins);
/// Switching biases gamma0 + nu steps h of a finished ensemble.
SampleSummary summarise_switching_biases(const EnsembleResults& results, int histogram_bins);

/// The exponential escape-time CDF 1 - exp(-t / tau) with the theory's mean tau (of the rate
/// EscapeTheory::rate_name()), on a grid from 0 to max(3 tau, the largest escape time).
struct ExponentialCdf {
  std::string status = "ok";
  std::string mean_source;  ///< "exact" or "kramers"
  double mean_time = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> t, cdf;
};
ExponentialCdf exponential_cdf(const EscapeTheory& theory, const SampleSummary& times, int points);

/// Fulton–Dunkleberger switching-bias distribution of the run's ramp with the theory's rate
/// (ResolvedRun::theory_rate_name(): the exact overdamped rate to the run's threshold,
/// exact_overdamped_rate, or the Kramers-type formula): the CDF and density on a grid over the
/// measured switching biases (widened by a quarter of their range, inside [gamma0, 1]; over
/// mean +- 6 std of the theory without data), and the moments; beside them the moments of the
/// Kramers-type formula, for comparison.
struct SwitchingTheoryCurves {
  std::string status = "ok";
  std::string rate_name;  ///< exact_rate_name or the formula's name
  RateFormula kramers_formula = RateFormula::melnikov_meshkov;
  std::vector<double> gamma, cdf, density;
  SwitchingMoments moments{std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::quiet_NaN()};
  std::string kramers_status = "ok";
  SwitchingMoments kramers_moments{std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::quiet_NaN()};
};
SwitchingTheoryCurves switching_theory(const ResolvedRun& run, const SampleSummary& biases);

/// The rate switching_theory() builds the Fulton–Dunkleberger distribution of a switching run
/// on (throws what washboard_rate or exact_overdamped_rate throw).
BiasDependentRate switching_rate(const ResolvedRun& run);

struct ArrheniusFitResult {
  std::string status = "ok";  ///< or why there is no fit
  ArrheniusFit fit;
};

/// Fits of eqs. (12) and (13) of the paper through the ensembles with at least two escapes
/// (a mean and a standard error), and the theory barrier of the bias.
struct ArrheniusAnalysis {
  std::size_t points_used = 0;      ///< in the fits
  std::size_t censored_points = 0;  ///< of those, points with censored realisations (biased)
  ArrheniusFitResult plain, theta_prefactor;
  double barrier = std::numeric_limits<double>::quiet_NaN();  ///< DeltaU(gamma) / E_C
};
ArrheniusAnalysis analyse_arrhenius(const ResolvedRun& run,
                                    const std::vector<SampleSummary>& escape_times);

/// Everything the output needs, for any mode.
struct RunAnalysis {
  /// One per ensemble: escape times (escape, arrhenius) or switching biases (switching).
  std::vector<SampleSummary> samples;
  std::vector<ExponentialCdf> exponential;  ///< escape, arrhenius: one per ensemble
  std::optional<SwitchingTheoryCurves> switching;
  std::optional<ArrheniusAnalysis> arrhenius;
};
/// Never throws for unavailable theory (reported in the statuses).
RunAnalysis analyse_run(const ResolvedRun& run, const std::vector<PointRecord>& points);

}  // namespace portamc::josephson

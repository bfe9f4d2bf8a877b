// The one statistics service for a scalar Monte Carlo time series: discard the initial
// transient by a stated rule, measure the integrated autocorrelation time with an automatic
// window, and give the mean with a binned error whose bin length follows from tau_int,
// together with the effective sample size and a warning when the series is too short for an
// honest error. Host-only; every model's apps call this for their measured series.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "portamc/statistics.hpp"

namespace portamc::stats {

/// The rules of analyse_series, with the values every app uses by default (docs/statistics.md).
struct SeriesRules {
  /// Discard the transient found by detect_equilibration (false: keep every sample).
  bool detect_equilibration = true;
  /// Sokal's window constant for tau_int (integrated_autocorrelation_time).
  double window_c = 6.0;
  /// Bin length = ceil(bin_tau_factor * tau_int): bins this long are correlated with each
  /// other by about 1/bin_tau_factor of a bin, so the binned variance is biased low by a few
  /// per cent at most.
  double bin_tau_factor = 20.0;
  /// At least this many bins, so that the error has a usable error of its own
  /// (relative error about 1/sqrt(2 (bins - 1)), 18 % at 16 bins). Shorter bins are used
  /// when the series is too short, and the result is then flagged.
  std::size_t min_bins = 16;
  /// Below this effective sample size the error is reported but flagged as not trustworthy.
  double min_effective_samples = 100.0;
};

/// Where the equilibrated part of a series starts.
struct Equilibration {
  std::size_t discarded = 0;     ///< samples removed from the front
  double effective_samples = 0;  ///< N_eff of the remainder, the quantity the rule maximises
};

/// Chodera's rule (J. Chem. Theory Comput. 12 (2016) 1799): the start t0 that maximises the
/// effective sample size (N - t0) / (2 tau_int(t0)) of the remaining samples. A transient
/// inflates tau_int (the trend reads as long-lived correlation), so cutting it off raises
/// N_eff until the remainder is stationary; cutting more only loses samples. Candidates are
/// t0 = j * N / 64 for j = 0..32 (never more than half the series); series longer than 4096
/// samples are searched on means of consecutive samples, which only coarsens t0. A series
/// shorter than 8 samples or a constant one is returned whole.
/// Throws std::invalid_argument for non-finite samples.
Equilibration detect_equilibration(const std::vector<double>& series, double window_c = 6.0);

/// tau_int (integrated_autocorrelation_time's convention) of a series of any length in
/// O(N + 65536 W): longer series are first averaged in bins of m consecutive samples, the
/// autocorrelation time of the bin means is measured, and it is converted back with the
/// exact identity var(mean) = 2 tau_x var(x) / N = 2 tau_y var(y) / (N / m).
Autocorrelation autocorrelation_time(const std::vector<double>& series, double window_c = 6.0);

/// How a series of `samples` values with autocorrelation time `tau_int` is cut into bins for a
/// binned or jackknife error. Used by analyse_series, and by models whose estimators are not
/// plain means (ratios, fluctuations) and jackknife over these bins themselves.
struct BinChoice {
  std::size_t bin_size = 0;
  std::size_t bins = 0;
  bool long_enough = false;  ///< bin_size reached bin_tau_factor * tau_int with >= min_bins bins
};
BinChoice choose_bins(std::size_t samples, double tau_int, const SeriesRules& rules = {});

struct SeriesAnalysis {
  std::size_t samples = 0;               ///< length of the series given
  std::size_t discarded = 0;             ///< initial transient removed (equilibration)
  std::size_t used = 0;                  ///< samples after the transient
  Estimate mean{0, 0};                   ///< of the used samples; binned error (bins of bin_size)
  Autocorrelation tau{0.5, 0, 0, true};  ///< of the used samples, in units of samples
  double effective_samples = 0;          ///< used / (2 tau_int)
  BinChoice bins;
  bool reliable = false;  ///< enough effective samples, converged window, long enough bins
  std::string warning;    ///< why not reliable; empty when reliable
};

/// Equilibration, tau_int, N_eff and the binned mean of one scalar series, by `rules`.
/// Never throws for short or constant series: they are reported with a warning (a series of
/// fewer than 2 samples, or one with non-finite values, has NaN mean and error; one so short
/// that Sokal's sum comes out <= 0 has NaN tau_int and N_eff, and bins as if independent).
SeriesAnalysis analyse_series(const std::vector<double>& series, const SeriesRules& rules = {});

/// Analyse `series` from sample `start` on, without searching for a transient: for models
/// whose observables share one equilibration point (the largest over their primary series).
SeriesAnalysis analyse_series_from(const std::vector<double>& series, std::size_t start,
                                   const SeriesRules& rules = {});

/// Reasons joined by "; ", the form of SeriesAnalysis::warning.
std::string join_warnings(const std::vector<std::string>& reasons);

/// x with three significant digits, as the warnings print numbers.
std::string warning_number(double x);

}  // namespace portamc::stats

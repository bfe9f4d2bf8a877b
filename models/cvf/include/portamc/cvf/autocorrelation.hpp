#pragma once
// Normalised autocorrelation function of an observable's time series and the relaxation time
// read off it (host-only), as in the paper's Eq. (4):
//   C_M(dt) = (<M(t0 + dt) M(t0)> - <M>^2) / (<M^2> - <M>^2),
// with tau_e the time at which C_M first drops to 1/e (the dashed line of its Fig. 2).
#include <cstddef>
#include <vector>

#include "portamc/statistics.hpp"

namespace portamc::cvf {

enum class CorrelationMethod {
  automatic,  ///< direct for small (max_lag + 1) * samples, FFT otherwise
  direct,     ///< O(samples * max_lag) sums
  fft,        ///< O(samples log samples) via a zero-padded radix-2 FFT
};

struct AutocorrelationFunction {
  /// C(dt) for dt = 0 .. max_lag, C(0) = 1. Estimator: deviations from the overall mean of the
  /// series; the covariance at lag dt is divided by the number of pairs, samples - dt, and the
  /// variance by samples. All NaN when the series is constant.
  std::vector<double> c;
  /// The series has zero variance (every sample equal): C is undefined, tau_e is NaN and
  /// tau_e_reached false. Not an error, because a frozen observable is a legitimate outcome
  /// (e.g. N_HB at very high temperature in a gas-like system).
  bool constant;
  /// First dt with C(dt) <= 1/e, linearly interpolated between the bracketing lags dt - 1 and dt
  /// (in samples). NaN when C stays above 1/e up to max_lag (tau_e_reached false).
  double tau_e;
  bool tau_e_reached;
  /// The statistics service's stats::autocorrelation_time of the whole series given (the same
  /// tau_int as the mean's: convention tau_int = 1/2 + sum rho with the automatic window, so
  /// exp decay with time tau gives tau_int ~ tau for tau >> 1). The run analysis passes the
  /// equilibrated part of the series only.
  stats::Autocorrelation tau_int;
};

/// C(dt) for dt = 0 .. max_lag. Throws std::invalid_argument for an empty series, max_lag not
/// below the number of samples (no pair left), or a non-finite sample.
AutocorrelationFunction autocorrelation_function(
    const std::vector<double>& series, std::size_t max_lag,
    CorrelationMethod method = CorrelationMethod::automatic);

/// The 1/e time of given C(0..max_lag), interpolated as above; NaN when C never reaches 1/e
/// (or C is NaN). Exposed so the interpolation can be applied to exact references.
double one_over_e_time(const std::vector<double>& c);

}  // namespace portamc::cvf

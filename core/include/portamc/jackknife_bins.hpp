// Bins of consecutive measurements for a jackknife of estimators that are not plain means
// (susceptibilities, response functions, fits): chosen from tau_int by the statistics
// service's rule (choose_bins) or fixed by a user's override, with the warnings a model prints
// when such a jackknife cannot be trusted. Shared by every model with such estimators.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "portamc/series_analysis.hpp"

namespace portamc::stats {

struct JackknifeBins {
  std::size_t start = 0;       ///< first measurement used (the equilibration point)
  std::size_t blocks = 0;      ///< number of bins (a trailing partial bin is dropped)
  std::size_t block_size = 0;  ///< measurements per bin
  double tau_int = 0.5;        ///< the autocorrelation time the bins were chosen for
  bool automatic = true;       ///< from choose_bins; false: a user's override
  bool long_enough = false;    ///< bins of >= 20 tau_int (choose_bins' rule) and >= 2 of them
};

/// Bins of the `used` measurements from `start` on: choose_bins(used, tau_int) when
/// `override_bins` is 0, else min(override_bins, used) bins of equal length. A tau_int that is
/// unknown (NaN) or below 1/2 is taken as 1/2.
JackknifeBins jackknife_bins(std::size_t start, std::size_t used, double tau_int,
                             std::size_t override_bins = 0);

/// Why a jackknife over `bins` of data with `effective_samples` (of its primary series) is not
/// to be trusted; empty when it is. `override_key` names the key of the override in messages.
std::vector<std::string> jackknife_bin_warnings(const JackknifeBins& bins, double effective_samples,
                                                const std::string& override_key);

}  // namespace portamc::stats

#include "portamc/jackknife_bins.hpp"

#include <algorithm>
#include <cmath>

namespace portamc::stats {

JackknifeBins jackknife_bins(std::size_t start, std::size_t used, double tau_int,
                             std::size_t override_bins) {
  const SeriesRules rules;
  JackknifeBins b;
  b.start = start;
  b.tau_int = std::isfinite(tau_int) ? std::max(tau_int, 0.5) : 0.5;
  if (override_bins == 0) {
    const BinChoice c = choose_bins(used, b.tau_int, rules);
    b.automatic = true;
    b.blocks = c.bins;
    b.block_size = c.bin_size;
    b.long_enough = c.long_enough;
  } else {
    b.automatic = false;
    b.blocks = std::min(override_bins, used);
    b.block_size = b.blocks > 0 ? used / b.blocks : 0;
    b.long_enough = b.blocks >= 2 && static_cast<double>(b.block_size) >=
                                         std::ceil(rules.bin_tau_factor * b.tau_int);
  }
  return b;
}

std::vector<std::string> jackknife_bin_warnings(const JackknifeBins& b, double effective_samples,
                                                const std::string& override_key) {
  const SeriesRules rules;
  std::vector<std::string> reasons;
  if (effective_samples < rules.min_effective_samples)
    reasons.push_back("only " + warning_number(effective_samples) +
                      " effective samples (measurements / (2 tau_int) with tau_int = " +
                      warning_number(b.tau_int) + "; fewer than " +
                      warning_number(rules.min_effective_samples) + ")");
  if (!b.long_enough)
    reasons.push_back(std::to_string(b.blocks) + " jackknife bins" +
                      (b.automatic ? "" : " (" + override_key + ")") + " of " +
                      std::to_string(b.block_size) + " measurements, shorter than " +
                      warning_number(rules.bin_tau_factor) +
                      " tau_int = " + warning_number(rules.bin_tau_factor * b.tau_int) +
                      " (the error may be too small)");
  return reasons;
}

}  // namespace portamc::stats

#pragma once
// Pearson's chi-square test against exact probabilities, with the p-value from the regularised
// upper incomplete gamma function, for the tilings' sampler tests. Fixed-seed tests demand
// p > 1e-6, so a correct sampler fails with probability below 1e-6.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "portamc/error_calibration.hpp"

namespace portamc::tilings::testing {

/// Q(s, x) = Gamma(s, x) / Gamma(s), from core.
inline double upper_gamma_q(double s, double x) {
  return stats::regularized_gamma_q(s, x);
}

struct ChiSquare {
  double statistic = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
  std::string table;  ///< observed vs expected per (merged) bin, for failure messages
};

/// counts[i] observed in bin i, probabilities[i] exact (sum 1). Bins are merged in order until
/// each expects at least min_expected, so the chi-square law applies.
inline ChiSquare chi_square(const std::vector<std::uint64_t>& counts,
                            const std::vector<double>& probabilities, double min_expected = 5) {
  double n = 0;
  for (std::uint64_t c : counts) n += static_cast<double>(c);
  std::vector<double> observed, expected;
  double o = 0, e = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    o += static_cast<double>(counts[i]);
    e += n * probabilities[i];
    if (e >= min_expected) {
      observed.push_back(o);
      expected.push_back(e);
      o = e = 0;
    }
  }
  if (e > 0 || o > 0) {
    if (expected.empty()) {
      observed.push_back(o);
      expected.push_back(e);
    } else {
      observed.back() += o;
      expected.back() += e;
    }
  }
  ChiSquare out;
  std::ostringstream table;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    out.statistic += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
    table << "bin " << i << ": observed " << observed[i] << ", expected " << expected[i] << "\n";
  }
  out.degrees_of_freedom = static_cast<int>(observed.size()) - 1;
  out.p_value = out.degrees_of_freedom > 0
                    ? upper_gamma_q(0.5 * out.degrees_of_freedom, 0.5 * out.statistic)
                    : 1.0;
  out.table = table.str();
  return out;
}

}  // namespace portamc::tilings::testing

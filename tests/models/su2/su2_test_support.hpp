#pragma once
// Shared by the SU(2) model tests: precision-dependent tolerances and small helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

namespace su2_test {

using Precisions = ::testing::Types<float, double>;

/// Relative size of rounding errors accumulated over a few products and sums in Real.
template <class Real>
constexpr double rounding() {
  return std::is_same_v<Real, float> ? 2e-5 : 1e-12;
}

/// Largest acceptable | |U|^2 - 1 | after updates written in Real.
template <class Real>
constexpr double unitarity_tolerance() {
  return std::is_same_v<Real, float> ? 1e-6 : 1e-14;
}

inline double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

/// Fraction of entries differing by more than tol. Runs that should agree "to rounding" on
/// different kernels or backends (FMA contraction and library functions may round
/// differently) match everywhere except where rounding flipped an accept/reject decision.
inline double fraction_differing(const std::vector<double>& a, const std::vector<double>& b,
                                 double tol) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::fabs(a[i] - b[i]) > tol ? 1 : 0;
  return static_cast<double>(n) / static_cast<double>(a.size());
}

/// Means and errors of one estimate over seeds, for stats::calibrate_errors.
struct Collected {
  std::vector<double> means, errors;
  void add(double mean, double error) {
    means.push_back(mean);
    errors.push_back(error);
  }
};

}  // namespace su2_test

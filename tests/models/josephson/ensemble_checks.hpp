#pragma once
// Checks of escape ensembles shared by the josephson tests: two ensembles' per-realisation
// results equal bit for bit, and the mean of a sample with its standard error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

#include "portamc/josephson/ensemble.hpp"

namespace portamc::josephson::testing {

/// Every realisation's steps, outcome, bias and final state equal; the first three that
/// differ are named.
inline void expect_identical(const EnsembleResults& a, const EnsembleResults& b,
                             const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool same = a.steps[i] == b.steps[i] && a.outcome[i] == b.outcome[i] &&
                      a.bias[i] == b.bias[i] && a.final_phi[i] == b.final_phi[i] &&
                      a.final_v[i] == b.final_v[i];
    if (!same && differ++ < 3)
      ADD_FAILURE() << what << ": realisation " << i << " steps " << a.steps[i] << " vs "
                    << b.steps[i] << ", phi " << a.final_phi[i] << " vs " << b.final_phi[i];
  }
  EXPECT_EQ(differ, 0u) << what;
}

struct MeanEstimate {
  double mean, error;
};

/// The sample mean and its standard error (independent values).
inline MeanEstimate mean_of(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  return {mean, std::sqrt(ss / (n - 1) / n)};
}

}  // namespace portamc::josephson::testing

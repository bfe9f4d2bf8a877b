#pragma once
// AR(1) test series x_t = rho x_{t-1} + sqrt(1 - rho^2) e_t with unit variance, started in the
// stationary law (so any transient is one a test plants), and its exact integrated
// autocorrelation time (1 + rho) / (2 (1 - rho)) in the convention of stats::Autocorrelation.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace portamc::testing {

inline std::vector<double> ar1_series(std::size_t n, double rho, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<double> x(n);
  double state = gauss(engine);
  for (auto& v : x) {
    v = state;
    state = rho * state + std::sqrt(1 - rho * rho) * gauss(engine);
  }
  return x;
}

inline double ar1_tau_int(double rho) {
  return (1.0 + rho) / (2.0 * (1.0 - rho));
}

}  // namespace portamc::testing

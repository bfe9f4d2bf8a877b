// Are the first-order analysis's error bars honest? The 10-state Potts model on 8 x 8, a strong
// first-order transition even at this size, with 10 seeds: the scatter of beta_eq, the latent
// heat and the interface tension around their error-weighted mean must match the jackknife
// errors over 16 walker groups. Those errors are estimates themselves, with about 15 degrees of
// freedom, so chi^2 / 9 follows roughly F(9, 15), and the pass range is its 0.1 % and 99.9 %
// quantiles, [0.97, 56.3] for chi^2 (stats::calibrate_errors with error_dof). With exact
// errors (chi^2_9, [1.15, 27.9]) beta_eq would fail on these seeds (chi^2 = 30, one seed 3
// errors off) and pass on seeds 11-60 (13.2, 7.6, 5.0, 10.1, 12.8). Errors 5 times too small
// must fail, and 6 times too large (the wide range lets a sample on the high side pass at 5).
// No exact finite-size value exists, hence the mean. About 30 s on one CPU core.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "first_order_calibration.hpp"
#include "portamc/error_calibration.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc;
using namespace portamc::muca;

TEST(MucaDoublePeakCalibration, ScatterOverSeedsMatchesErrors) {
  const Hamiltonian h = make_hamiltonian(HamiltonianKind::potts, 2, 8, 10);
  const char* names[] = {"beta_eq", "latent heat", "interface tension"};
  const int index[] = {0, 3, 5};  // in double_peak_values' order
  std::vector<std::vector<double>> value(3), error(3);
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    ProductionAnalysis a;
    ASSERT_NO_FATAL_FAILURE(
        muca_test::first_order_calibration_run<TestSpace>(h, seed, 3e-3, {1.2, 1.6}, a));
    for (int k = 0; k < 3; ++k) {
      value[k].push_back(a.double_peak.values[index[k]].value);
      error[k].push_back(a.double_peak.values[index[k]].error);
    }
  }
  constexpr double error_dof = 16 - 1;  // jackknife over 16 walker groups
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(names[k]);
    const auto c = stats::calibrate_errors(value[k], error[k], std::nullopt, 1e-3, error_dof);
    EXPECT_TRUE(c.pass) << c.summary;
    RecordProperty(std::string(names[k]), c.summary);
    for (const double factor : {0.2, 6.0}) {
      std::vector<double> scaled = error[k];
      for (double& e : scaled) e *= factor;
      EXPECT_FALSE(stats::calibrate_errors(value[k], scaled, std::nullopt, 1e-3, error_dof).pass)
          << "errors x " << factor;
    }
  }
}

}  // namespace

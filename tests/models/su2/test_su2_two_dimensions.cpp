// Two-dimensional SU(2) is exactly solvable: with the plaquettes as independent variables,
// <½ Tr U_p> = I_2(beta) / I_1(beta) (the torus correction, a power of I_3/I_1 with the
// number of plaquettes as exponent, is below 1e-40 here). The heatbath, alone and mixed with
// overrelaxation, must reproduce it within the binned statistical error, at couplings where
// the link updates use Creutz's method, Kennedy–Pendleton, or both.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "portamc/statistics.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

struct Case {
  double beta;
  int overrelaxation_sweeps;
};

double exact_plaquette(double beta) {
  return std::cyl_bessel_i(2.0, beta) / std::cyl_bessel_i(1.0, beta);
}

template <class Real>
portamc::stats::Estimate measure(const Case& c, std::uint64_t seed) {
  GaugeField<Space, Real> field(Space(), {16, 16});
  field.hot_start(seed);
  UpdateParameters p;
  p.beta = c.beta;
  p.seed = seed;
  p.overrelaxation_sweeps = c.overrelaxation_sweeps;
  Updater<Space, Real> updater(Space(), p);
  for (int i = 0; i < 200; ++i) updater.update(field);
  std::vector<double> series;
  for (int i = 0; i < 4096; ++i) {
    updater.update(field);
    series.push_back(field.plaquette().total);
  }
  EXPECT_EQ(updater.tally().failures, 0u);
  return portamc::stats::binned_mean(series, 64);  // 64 bins of 64 >> tau_int
}

template <class Real>
void check_cases() {
  // |W| <= 2 in 2D, so alpha <= 2 beta: beta = 0.5 is Creutz only, 6 mostly Kennedy–Pendleton.
  const std::vector<Case> cases = {{0.5, 0}, {2.0, 0}, {6.0, 0}, {2.0, 2}};
  std::uint64_t seed = 100;
  for (const Case& c : cases) {
    const auto est = measure<Real>(c, ++seed);
    const double exact = exact_plaquette(c.beta);
    EXPECT_NEAR(est.value, exact, 4 * est.error)
        << "beta = " << c.beta << ", n_or = " << c.overrelaxation_sweeps << ": " << est.value
        << " +- " << est.error << " vs exact " << exact;
    // the error bar is small enough to mean something
    EXPECT_LT(est.error, 2e-3);
  }
}

TEST(TwoDimensions, PlaquetteMatchesBesselRatioInDouble) {
  check_cases<double>();
}

TEST(TwoDimensions, PlaquetteMatchesBesselRatioInFloat) {
  check_cases<float>();
}

}  // namespace

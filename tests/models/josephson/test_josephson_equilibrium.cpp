// Fluctuation–dissipation: at zero bias the washboard dynamics relaxes to the Boltzmann
// density exp(-(v^2 / 2 - V0 cos phi) / theta) of the normalisation in parameters.hpp, so
//   <v^2> = theta (equipartition; underdamped only),
//   <cos phi> = I1(V0 / theta) / I0(V0 / theta), <sin phi> = 0,
// the latter also for the overdamped dynamics, whose stationary density in phi is the same.
// The ensemble integrates each realisation from rest at phi = 0 for a time T much longer than
// the relaxation times (1 / beta underdamped, beta / V0 overdamped) with Heun at a small step
// (bias ~h^2, far below the statistical error) and threshold +infinity (a hop to another well
// changes nothing: cos is periodic). The final states are independent samples, so the
// standard error is the sample standard deviation over sqrt(N).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "portamc/josephson/ensemble.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using Space = TestSpace;

/// Modified Bessel function I_n(x) by its power series (converges for every x).
double bessel_i(int n, double x) {
  double term = std::pow(x / 2, n) / std::tgamma(n + 1.0), sum = term;
  for (int k = 1; k < 200 && term > 1e-17 * sum; ++k) {
    term *= (x / 2) * (x / 2) / (k * static_cast<double>(k + n));
    sum += term;
  }
  return sum;
}

struct Estimate {
  double value, error;
};

Estimate mean_of(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double sum = 0, sum2 = 0;
  for (double v : x) {
    sum += v;
    sum2 += v * v;
  }
  const double mean = sum / n;
  return {mean, std::sqrt((sum2 / n - mean * mean) / (n - 1))};
}

template <class Real>
void expect_boltzmann(Dynamics dynamics, std::uint64_t realisations, std::uint64_t seed) {
  LangevinParameters p;
  p.dynamics = dynamics;
  p.integrator = Integrator::heun;
  p.V0 = 1;
  p.theta = 0.5;
  p.beta = 1;
  p.gamma0 = 0;
  p.h = 0.025;
  p.max_steps = 800;  // T = 20
  p.threshold = std::numeric_limits<double>::infinity();
  p.realisations = realisations;
  p.seed = seed;
  Ensemble<Space, Real> ensemble(Space(), p);
  ensemble.run();
  const EnsembleResults r = ensemble.results();
  ASSERT_EQ(r.count(Outcome::censored), realisations);
  std::vector<double> v2, c, s;
  for (std::size_t i = 0; i < r.size(); ++i) {
    v2.push_back(r.final_v[i] * r.final_v[i]);
    c.push_back(std::cos(r.final_phi[i]));
    s.push_back(std::sin(r.final_phi[i]));
  }
  const std::string what =
      std::string(to_string(dynamics)) + (std::is_same_v<Real, float> ? ", float" : ", double");
  const double x = p.V0 / p.theta;
  const Estimate cos_phi = mean_of(c), sin_phi = mean_of(s);
  EXPECT_NEAR(cos_phi.value, bessel_i(1, x) / bessel_i(0, x), 5 * cos_phi.error)
      << "<cos phi>, " << what;
  EXPECT_NEAR(sin_phi.value, 0, 5 * sin_phi.error) << "<sin phi>, " << what;
  EXPECT_LT(cos_phi.error, 0.003) << what;
  if (dynamics == Dynamics::underdamped) {
    const Estimate kinetic = mean_of(v2);
    EXPECT_NEAR(kinetic.value, p.theta, 5 * kinetic.error) << "<v^2>, " << what;
    EXPECT_LT(kinetic.error, 0.01 * p.theta) << what;
  }
}

TEST(JosephsonEquilibrium, BesselFunctionsBySeries) {
  // Abramowitz & Stegun table 9.8: e^-x I0(x), e^-x I1(x) at x = 2.
  EXPECT_NEAR(std::exp(-2.0) * bessel_i(0, 2), 0.3085083225, 1e-10);
  EXPECT_NEAR(std::exp(-2.0) * bessel_i(1, 2), 0.2152692892, 1e-10);
}

TEST(JosephsonEquilibrium, UnderdampedEquipartitionAndBoltzmannPhase) {
  expect_boltzmann<double>(Dynamics::underdamped, 1 << 16, 101);
  expect_boltzmann<float>(Dynamics::underdamped, 1 << 15, 102);
}

TEST(JosephsonEquilibrium, OverdampedBoltzmannPhase) {
  expect_boltzmann<double>(Dynamics::overdamped, 1 << 15, 103);
}

}  // namespace

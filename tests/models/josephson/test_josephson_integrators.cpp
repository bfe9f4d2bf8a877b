// Weak order of the integrators on Ornstein–Uhlenbeck processes: the harmonic force
// F = -V0 phi at gamma = 0 (forces.hpp), integrated by the ensemble to the fixed time
// T = n h (threshold +infinity, every realisation censored at the cap n, its final state
// recorded). Starting from (0, 0) the state stays Gaussian with mean 0, so its second moments
// say everything:
//   - the exact moments of each discrete scheme follow from the linear recursion
//     C_{k+1} = A C_k A^T + b b^T (underdamped: 2 x 2; overdamped: scalar) with the scheme's
//     A and b, and the ensemble must reproduce them within statistical errors (a tight test
//     of the implementation, at step sizes where the scheme is far from the continuum);
//   - against the exact continuous moments C(T) = C_inf - e^{MT} C_inf e^{M^T T},
//     C_inf = diag(theta / V0, theta), the discrete moments converge as h (Euler) and h^2
//     (Heun), and the Monte Carlo errors at step sizes where the bias dominates the
//     statistical error show the same orders.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "portamc/josephson/detail/ensemble_impl.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using Space = TestSpace;
using Matrix = std::array<std::array<double, 2>, 2>;

Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix c{};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
  return c;
}
Matrix transpose(const Matrix& a) {
  return {{{a[0][0], a[1][0]}, {a[0][1], a[1][1]}}};
}
Matrix combine(const Matrix& a, double x, const Matrix& b, double y) {
  Matrix c{};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) c[i][j] = x * a[i][j] + y * b[i][j];
  return c;
}
const Matrix identity{{{1, 0}, {0, 1}}};

/// e^{M t} by scaling and squaring of the Taylor series (2 x 2, double precision).
Matrix exponential(const Matrix& m, double t) {
  const int squarings = 12;
  const Matrix x = combine(m, t / std::ldexp(1.0, squarings), identity, 0);
  Matrix sum = identity, term = identity;
  for (int k = 1; k < 20; ++k) {
    term = combine(multiply(term, x), 1.0 / k, identity, 0);
    sum = combine(sum, 1, term, 1);
  }
  for (int i = 0; i < squarings; ++i) sum = multiply(sum, sum);
  return sum;
}

struct OU {
  double V0 = 1, beta = 0.5, theta = 1, T = 4;
  Matrix drift() const { return {{{0, 1}, {-V0, -beta}}}; }
};

/// <phi^2>, <phi v>, <v^2> (overdamped: only the first).
using Moments = std::array<double, 3>;

Moments continuous_underdamped(const OU& ou) {
  const Matrix stationary{{{ou.theta / ou.V0, 0}, {0, ou.theta}}};
  const Matrix e = exponential(ou.drift(), ou.T);
  const Matrix c = combine(stationary, 1, multiply(multiply(e, stationary), transpose(e)), -1);
  return {c[0][0], c[0][1], c[1][1]};
}

Moments discrete_underdamped(const OU& ou, int n, Integrator integrator) {
  const double h = ou.T / n;
  const double sigma = std::sqrt(2 * ou.beta * ou.theta * h);
  const Matrix hm = combine(ou.drift(), h, identity, 0);
  Matrix a = combine(identity, 1, hm, 1);
  std::array<double, 2> b{0, sigma};
  if (integrator == Integrator::heun) {
    // Predictor x + h M x + b r; corrector x + h/2 (M x + M x~) + b r.
    a = combine(a, 1, multiply(hm, hm), 0.5);
    const Matrix half = combine(identity, 1, hm, 0.5);
    b = {half[0][1] * sigma, half[1][1] * sigma};
  }
  Matrix c{};
  for (int k = 0; k < n; ++k) {
    c = multiply(multiply(a, c), transpose(a));
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) c[i][j] += b[i] * b[j];
  }
  return {c[0][0], c[0][1], c[1][1]};
}

/// Overdamped: phi' = -(V0 / beta) phi + sqrt(2 theta / beta) eta.
double continuous_overdamped(const OU& ou) {
  return ou.theta / ou.V0 * (1 - std::exp(-2 * ou.V0 / ou.beta * ou.T));
}

double discrete_overdamped(const OU& ou, int n, Integrator integrator) {
  const double h = ou.T / n, ah = ou.V0 / ou.beta * h;
  const double s2 = 2 * ou.theta * h / ou.beta;
  const double a = integrator == Integrator::euler ? 1 - ah : 1 - ah + ah * ah / 2;
  const double b2 = integrator == Integrator::euler ? s2 : (1 - ah / 2) * (1 - ah / 2) * s2;
  double m = 0;
  for (int k = 0; k < n; ++k) m = a * a * m + b2;
  return m;
}

struct Estimate {
  double value, error;
};

/// Sample means of phi^2, phi v, v^2, phi and v over the final states of an ensemble of
/// independent realisations, with their standard errors.
struct Sampled {
  std::array<Estimate, 5> m;
};

template <class Real>
Sampled sample(const OU& ou, Dynamics dynamics, Integrator integrator, int n,
               std::uint64_t realisations, std::uint64_t seed) {
  LangevinParameters p;
  p.dynamics = dynamics;
  p.integrator = integrator;
  p.V0 = ou.V0;
  p.beta = ou.beta;
  p.theta = ou.theta;
  p.h = ou.T / n;
  p.gamma0 = 0;
  p.threshold = std::numeric_limits<double>::infinity();
  p.max_steps = static_cast<std::uint64_t>(n);
  p.realisations = realisations;
  p.seed = seed;
  Ensemble<Space, Real, HarmonicForce> ensemble(Space(), p);
  ensemble.run();
  const EnsembleResults r = ensemble.results();
  EXPECT_EQ(r.count(Outcome::censored), realisations);
  std::array<double, 5> sum{}, sum2{};
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r.steps[i], p.max_steps);
    const double x = r.final_phi[i], v = r.final_v[i];
    const double values[5] = {x * x, x * v, v * v, x, v};
    for (int j = 0; j < 5; ++j) {
      sum[j] += values[j];
      sum2[j] += values[j] * values[j];
    }
  }
  Sampled s;
  const double count = static_cast<double>(r.size());
  for (int j = 0; j < 5; ++j) {
    const double mean = sum[j] / count;
    s.m[j] = {mean, std::sqrt((sum2[j] / count - mean * mean) / (count - 1))};
  }
  return s;
}

const char* moment_names[5] = {"<phi^2>", "<phi v>", "<v^2>", "<phi>", "<v>"};

template <class Real>
void expect_discrete_moments_underdamped(Integrator integrator, int n, std::uint64_t seed) {
  const OU ou;
  const Moments exact = discrete_underdamped(ou, n, integrator);
  const Sampled s = sample<Real>(ou, Dynamics::underdamped, integrator, n, 1 << 16, seed);
  const double expected[5] = {exact[0], exact[1], exact[2], 0, 0};
  for (int j = 0; j < 5; ++j)
    EXPECT_NEAR(s.m[j].value, expected[j], 5 * s.m[j].error)
        << moment_names[j] << ", " << to_string(integrator) << ", n = " << n;
}

TEST(JosephsonIntegrators, UnderdampedEnsembleMatchesDiscreteSchemeMoments) {
  // At n = 10 (h = 0.4) both schemes are far from the continuum: Euler by 20-80%, Heun's
  // <phi v> by 2% (10 standard errors), so a wrong scheme would show.
  for (int n : {10, 80}) {
    expect_discrete_moments_underdamped<double>(Integrator::euler, n, 11);
    expect_discrete_moments_underdamped<double>(Integrator::heun, n, 12);
  }
  expect_discrete_moments_underdamped<float>(Integrator::euler, 10, 13);
  expect_discrete_moments_underdamped<float>(Integrator::heun, 10, 14);
}

template <class Real>
void expect_discrete_moments_overdamped(Integrator integrator, int n, std::uint64_t seed) {
  OU ou;
  ou.beta = 1;
  ou.T = 1.5;
  const double exact = discrete_overdamped(ou, n, integrator);
  const Sampled s = sample<Real>(ou, Dynamics::overdamped, integrator, n, 1 << 16, seed);
  EXPECT_NEAR(s.m[0].value, exact, 5 * s.m[0].error)
      << "<phi^2>, " << to_string(integrator) << ", n = " << n;
  EXPECT_NEAR(s.m[3].value, 0, 5 * s.m[3].error) << "<phi>";
  EXPECT_EQ(s.m[2].value, 0) << "overdamped v stays 0";
}

TEST(JosephsonIntegrators, OverdampedEnsembleMatchesDiscreteSchemeMoments) {
  for (int n : {3, 24}) {
    expect_discrete_moments_overdamped<double>(Integrator::euler, n, 21);
    expect_discrete_moments_overdamped<double>(Integrator::heun, n, 22);
  }
  expect_discrete_moments_overdamped<float>(Integrator::euler, 3, 23);
  expect_discrete_moments_overdamped<float>(Integrator::heun, 3, 24);
}

double order(double coarse_error, double fine_error) {
  return std::log2(std::abs(coarse_error / fine_error));
}

/// The weak error of the exact discrete moments at T: order 1 (Euler) and 2 (Heun).
TEST(JosephsonIntegrators, WeakOrderOfExactDiscreteMoments) {
  const OU ou;
  const Moments exact = continuous_underdamped(ou);
  for (Integrator integrator : {Integrator::euler, Integrator::heun}) {
    const double expected = integrator == Integrator::euler ? 1 : 2;
    const Moments coarse = discrete_underdamped(ou, 160, integrator);
    const Moments fine = discrete_underdamped(ou, 320, integrator);
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(order(coarse[j] - exact[j], fine[j] - exact[j]), expected, 0.1)
          << "underdamped " << to_string(integrator) << " " << moment_names[j];
  }
  OU over;
  over.beta = 1;
  over.T = 1.5;
  const double m = continuous_overdamped(over);
  for (Integrator integrator : {Integrator::euler, Integrator::heun}) {
    const double expected = integrator == Integrator::euler ? 1 : 2;
    EXPECT_NEAR(order(discrete_overdamped(over, 96, integrator) - m,
                      discrete_overdamped(over, 192, integrator) - m),
                expected, 0.05)
        << "overdamped " << to_string(integrator);
  }
}

/// The Monte Carlo error against the continuum at h and h/2, where it is far above the
/// statistical error, shrinks by the scheme's order: the measured order agrees with the
/// exact discrete one within 5 of its standard errors and is near the nominal order.
void expect_monte_carlo_order(Dynamics dynamics, Integrator integrator, int n, int moment,
                              std::uint64_t realisations) {
  OU ou;
  if (dynamics == Dynamics::overdamped) {
    ou.beta = 1;
    ou.T = 1.5;
  }
  const double nominal = integrator == Integrator::euler ? 1 : 2;
  double continuum = 0, discrete[2] = {0, 0};
  Estimate measured[2];
  for (int i = 0; i < 2; ++i) {
    const int steps = n << i;
    const Sampled s = sample<double>(ou, dynamics, integrator, steps, realisations, 31 + i);
    measured[i] = s.m[moment];
    if (dynamics == Dynamics::underdamped) {
      continuum = continuous_underdamped(ou)[moment];
      discrete[i] = discrete_underdamped(ou, steps, integrator)[moment];
    } else {
      continuum = continuous_overdamped(ou);
      discrete[i] = discrete_overdamped(ou, steps, integrator);
    }
  }
  const double e0 = measured[0].value - continuum, e1 = measured[1].value - continuum;
  ASSERT_GT(std::abs(e1), 10 * measured[1].error) << "the bias must dominate the noise";
  const double p = order(e0, e1);
  const double p_error = std::hypot(measured[0].error / e0, measured[1].error / e1) / std::log(2.0);
  const std::string what =
      std::string(to_string(dynamics)) + " " + to_string(integrator) + " " + moment_names[moment];
  EXPECT_NEAR(p, order(discrete[0] - continuum, discrete[1] - continuum), 5 * p_error) << what;
  EXPECT_NEAR(p, nominal, 0.4) << what;
  EXPECT_LT(p_error, 0.12) << what;
}

TEST(JosephsonIntegrators, WeakOrderFromMonteCarlo) {
  // Step sizes where the error is 20-100 standard errors, still close to asymptotic.
  expect_monte_carlo_order(Dynamics::underdamped, Integrator::euler, 40, 2, 1 << 17);
  expect_monte_carlo_order(Dynamics::underdamped, Integrator::heun, 5, 1, 1 << 20);
  expect_monte_carlo_order(Dynamics::overdamped, Integrator::euler, 6, 0, 1 << 17);
  expect_monte_carlo_order(Dynamics::overdamped, Integrator::heun, 3, 0, 1 << 20);
}

}  // namespace

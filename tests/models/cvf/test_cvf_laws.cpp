// Exact laws sampled by full MC steps at fixed v_iso: independent bonds when J_sigma = 0
// (N_HB binomial) and independent molecules when J_eff = 0 (N_sigma per molecule), for both
// Metropolis kernels (per_cell and packed).
// The chains run on TestSpace, i.e. on every backend of the build. On a GPU these thousands of
// steps of a few hundred molecules are launch-latency bound (seconds, not minutes); the kernels
// are bitwise the same on every space anyway (test_cvf_backends.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "portamc/cvf/exact.hpp"
#include "portamc/cvf/simulation.hpp"
#include "portamc/statistics.hpp"
#include "test_cvf_support.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;

namespace {
cvf::SimulationSettings fixed_volume(int L, std::uint64_t seed, cvf::MetropolisKernel kernel) {
  cvf::SimulationSettings s;
  s.L = L;
  s.seed = seed;
  s.metropolis_kernel = kernel;
  s.initial_v_iso = 1.3;  // liquid: HBs count
  s.volume.enabled = false;
  return s;
}

/// Both Metropolis kernels (their chains differ for one seed; both must sample the laws).
class CvfLaws : public ::testing::TestWithParam<cvf::MetropolisKernel> {};
}  // namespace

INSTANTIATE_TEST_SUITE_P(Kernels, CvfLaws,
                         ::testing::Values(cvf::MetropolisKernel::per_cell,
                                           cvf::MetropolisKernel::packed),
                         [](const auto& info) { return std::string(cvf::to_string(info.param)); });

TEST_P(CvfLaws, BinomialBondsWithoutCooperativity) {
  cvf::ModelParameters m;
  m.J_sigma = 0;
  const double p_reduced = 0.5;  // J_eff = 2 - 0.5 * 0.6 = 1.7
  for (double t : {3.0, 1.0, 0.4}) {
    const cvf::ReducedStatePoint point{t, p_reduced};
    const double q = cvf::exact::independent_bond_probability(1.7 / t);
    const double n = 2 * 64, mean = n * q, variance = n * q * (1 - q);
    cvf::Simulation<TestSpace> sim(TestSpace(), m, point, fixed_volume(4, 31, GetParam()));
    for (int s = 0; s < 500; ++s) sim.step();
    std::vector<double> bonds, squares;
    const int steps = 40000;
    for (int s = 0; s < steps; ++s) {
      sim.step();
      const double b = static_cast<double>(sim.state().counts().hb);
      bonds.push_back(b);
      squares.push_back((b - mean) * (b - mean));  // its mean is the variance
    }
    const auto b = portamc::stats::binned_mean(bonds, 400);
    const auto v = portamc::stats::binned_mean(squares, 400);
    EXPECT_NEAR(b.value, mean, 5 * b.error) << "t " << t << " p_bond " << q;
    EXPECT_NEAR(v.value, variance, 5 * v.error) << "t " << t << " p_bond " << q;
  }
}

TEST_P(CvfLaws, IsolatedMoleculesWithoutBonds) {
  cvf::ModelParameters m;
  m.J = 0;
  m.v_hb = 0;
  for (double x : {0.4, 1.0}) {  // J_sigma / t
    m.J_sigma = x;
    const auto law = cvf::exact::isolated_molecule(x);
    std::vector<std::uint64_t> counts(16, 0);
    // J_eff = 0: molecules are independent, so every snapshot of L^3 = 1728 molecules is a
    // set of independent samples; replicas with distinct seeds make the snapshots independent.
    for (std::uint64_t replica = 0; replica < 4; ++replica) {
      cvf::Simulation<TestSpace> sim(TestSpace(), m, cvf::ReducedStatePoint{1.0, 0.2},
                                     fixed_volume(12, 50 + replica, GetParam()));
      for (int s = 0; s < 150; ++s) sim.step();
      const auto sigma = sim.checkpoint().sigma;
      const std::int64_t N = sim.state().geometry().cells();
      for (std::int64_t cell = 0; cell < N; ++cell) {
        int pairs = 0;
        for (int a = 0; a < 6; ++a)
          for (int b = a + 1; b < 6; ++b) pairs += sigma[a * N + cell] == sigma[b * N + cell];
        ++counts[pairs];
      }
    }
    const auto chi = cvf::testing::chi_square(
        counts, std::vector<double>(law.probability.begin(), law.probability.end()));
    EXPECT_GT(chi.p_value, 1e-6) << "x " << x << "\n" << chi.table;
  }
}

// The Metropolis sigma kernel and its helpers: index arithmetic, arm orders, acceptance tables,
// and bit-for-bit agreement with a plain C++ reference on TestSpace (every backend of the
// build). Identical states on every backend: test_cvf_backends.cpp; the J_sigma = 0 /
// J_eff = 0 exact laws: test_cvf_laws.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "portamc/cvf/detail/metropolis.hpp"
#include "portamc/cvf/exact.hpp"
#include "portamc/cvf/simulation.hpp"
#include "portamc/statistics.hpp"
#include "test_cvf_support.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;
namespace rng = portamc::rng;
using cvf::testing::HostConfiguration;

TEST(CvfFastIndex, MatchesGeometry) {
  for (int L : {4, 8, 12}) {
    const cvf::Geometry g(L);
    const cvf::FastCoordinates fast(g);
    for (std::int64_t cell = 0; cell < g.cells(); ++cell) {
      const auto a = g.coordinates(cell), b = fast.cell(cell);
      ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << "L " << L << " cell " << cell;
    }
    for (std::int64_t cube = 0; cube < g.cubes(); ++cube) {
      const auto a = g.cube_corner(cube), b = fast.cube_corner(cube);
      ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << "L " << L << " cube " << cube;
    }
  }
  // Large indices, where the double quotient is close to an integer.
  const cvf::FastQuotient q(2154);
  for (std::int64_t n : {std::int64_t{2154} * 2154 * 2154 - 1, std::int64_t{9999999999},
                         std::int64_t{2154} * 4642000, std::int64_t{2154} * 4642000 - 1}) {
    std::int64_t r;
    const std::int64_t quotient = q.divide(n, r);
    EXPECT_EQ(quotient, n / 2154);
    EXPECT_EQ(r, n % 2154);
  }
}

TEST(CvfFastIndex, PackedMatchingsAndPopcount) {
  for (int s = 0; s < cvf::cube_states; ++s)
    EXPECT_EQ(cvf::forbidden_mask(s), cvf::forbidden_edges(s));
  for (std::uint32_t m = 0; m < 4096; ++m) {
    int n = 0;
    for (int b = 0; b < 12; ++b) n += (m >> b) & 1;
    ASSERT_EQ(cvf::popcount12(m), n) << m;
  }
  const cvf::Geometry g(8);
  std::vector<std::uint8_t> cube(g.cubes());
  for (std::size_t k = 0; k < cube.size(); ++k)
    cube[k] = static_cast<std::uint8_t>((k * 7 + 3) % 9);
  const auto view = cvf::testing::host_cubes(cube);
  for (std::int64_t cell = 0; cell < g.cells(); ++cell)
    for (int arm = 0; arm < cvf::arms; ++arm) {
      const auto c = g.coordinates(cell);
      ASSERT_EQ(cvf::edge_allowed(g, view, c, arm), g.allowed(view, c, arm));
    }
}

TEST(CvfArmOrder, UniformPermutations) {
  std::vector<std::uint64_t> counts(720, 0);
  const int draws = 72000;
  for (int s = 0; s < draws; ++s) {
    const auto order = cvf::arm_order(42, s);
    ASSERT_EQ(std::set<int>(order.begin(), order.end()).size(), 6u);
    // Rank of the permutation (Lehmer code, first position most significant).
    int rank = 0;
    for (int k = 0; k < 6; ++k) {
      int smaller = 0;
      for (int m = k + 1; m < 6; ++m) smaller += order[m] < order[k];
      rank = rank * (6 - k) + smaller;
    }
    ++counts[rank];
  }
  const auto chi = cvf::testing::chi_square(counts, std::vector<double>(720, 1.0 / 720));
  EXPECT_GT(chi.p_value, 1e-6) << chi.table;
}

TEST(CvfAcceptance, Thresholds) {
  EXPECT_EQ(cvf::acceptance_threshold(0.0), cvf::always_accept);
  EXPECT_EQ(cvf::acceptance_threshold(3.0), cvf::always_accept);
  EXPECT_EQ(cvf::acceptance_threshold(std::log(0.5)), std::uint64_t{1} << 31);
  EXPECT_EQ(cvf::acceptance_threshold(-1000.0), 0u);
  const auto table = cvf::sigma_acceptance(2.0, 0.5, 0.8);
  for (int hb = -1; hb <= 1; ++hb)
    for (int s = -5; s <= 5; ++s) {
      const double p = std::min(1.0, std::exp((2.0 * hb + 0.5 * s) / 0.8));
      EXPECT_NEAR(static_cast<double>(table(hb, s)) / 4294967296.0, p, 1e-9);
    }
  const auto eta = cvf::eta_acceptance(-1.0, 0.5);
  for (int hb = -4; hb <= 4; ++hb)
    EXPECT_NEAR(static_cast<double>(eta(hb)) / 4294967296.0, std::min(1.0, std::exp(-hb / 0.5)),
                1e-9);
  EXPECT_THROW(cvf::sigma_acceptance(1, 1, 0), std::invalid_argument);
}

namespace {

// Runs `steps` MC steps (eta, then a Metropolis sweep) on the device and in the reference,
// comparing configurations and counters after each.
void compare_with_reference(int L, std::uint64_t seed, double j_eff, double j_sigma, double t,
                            int steps) {
  cvf::State<TestSpace> state(TestSpace(), L, 1.5, cvf::InitialState::random, seed);
  const cvf::Geometry& g = state.geometry();
  HostConfiguration host{cvf::testing::to_host(state.sigma()),
                         cvf::testing::to_host(state.cube_state())};
  const auto sigma_table = cvf::sigma_acceptance(j_eff, j_sigma, t);
  const auto eta_table = cvf::eta_acceptance(j_eff, t);
  const HostConfiguration initial = host;
  for (int s = 0; s < steps; ++s) {
    cvf::eta_update(state, eta_table, seed);
    cvf::metropolis_sweep(state, sigma_table, seed);
    cvf::testing::reference_eta_update(g, host, seed, s, j_eff, t);
    const auto order = cvf::arm_order(seed, s);
    for (int k = 0; k < 6; ++k)
      cvf::testing::reference_metropolis_pass(g, host, order[k], seed, 6 * s + k, j_eff, j_sigma,
                                              t);
    state.advance_step();
    ASSERT_EQ(cvf::testing::to_host(state.cube_state()), host.cube) << "step " << s;
    ASSERT_EQ(cvf::testing::to_host(state.sigma()), host.sigma) << "step " << s;
    const auto counts = state.counts();
    const auto reference = cvf::testing::reference_counts(g, host);
    ASSERT_EQ(counts.hb, reference.first) << "step " << s;
    ASSERT_EQ(counts.sigma, reference.second) << "step " << s;
  }
  // Both kernels did move something, so the comparison means something.
  EXPECT_NE(host.sigma, initial.sigma);
  EXPECT_NE(host.cube, initial.cube);
}

}  // namespace

TEST(CvfMetropolis, MatchesHostReferenceBitForBit) {
  compare_with_reference(8, 7, 2.0, 0.32, 0.9, 6);   // moderate couplings
  compare_with_reference(4, 11, 6.0, 1.5, 0.5, 6);   // strong: few acceptances
  compare_with_reference(8, 13, -0.5, 0.0, 2.0, 4);  // J_eff < 0 (high pressure)
}

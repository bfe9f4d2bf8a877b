// The cube (eta) update on TestSpace (every backend of the build): the four-bond rule after
// every move, uniform cube states at J_eff = 0, and, with sigma frozen, the Boltzmann law of
// each cube's state.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/cvf/detail/eta_update.hpp"
#include "test_cvf_support.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;

namespace {
// Every molecule keeps exactly four allowed bonds (two cubes, each forbidding one edge of it).
void expect_four_bonds(const cvf::Geometry& g, const std::vector<std::uint8_t>& cube) {
  for (std::int64_t cell = 0; cell < g.cells(); ++cell) {
    int allowed = 0;
    for (int arm = 0; arm < cvf::arms; ++arm)
      allowed += cvf::testing::reference_allowed(g, cube, g.coordinates(cell), arm);
    ASSERT_EQ(allowed, 4) << "cell " << cell;
  }
}
}  // namespace

TEST(CvfEta, UniformAtZeroCouplingAndFourBonds) {
  cvf::State<TestSpace> state(TestSpace(), 24, 1.5, cvf::InitialState::random, 17);
  const auto table = cvf::eta_acceptance(0.0, 1.0);
  const auto before = cvf::testing::to_host(state.cube_state());
  cvf::eta_update(state, table, 17);
  const auto after = cvf::testing::to_host(state.cube_state());
  std::vector<std::uint64_t> counts(9, 0);
  for (std::size_t k = 0; k < after.size(); ++k) {
    ASSERT_NE(after[k], before[k]);  // J_eff = 0 accepts every proposal
    ++counts[after[k]];
  }
  const auto chi = cvf::testing::chi_square(counts, std::vector<double>(9, 1.0 / 9));
  EXPECT_GT(chi.p_value, 1e-6) << chi.table;
  for (int s = 0; s < 5; ++s) {
    state.advance_step();
    cvf::eta_update(state, cvf::eta_acceptance(1.5, 0.7), 17);
    expect_four_bonds(state.geometry(), cvf::testing::to_host(state.cube_state()));
  }
  const auto counted = state.counts(), exact = state.recount_exact();
  EXPECT_EQ(counted.hb, exact.hb);
}

TEST(CvfEta, BoltzmannLawWithFrozenSigma) {
  // sigma(arm) = (0, 0, 1, 1, 2, 3) in every cell: x and y edges bond, z edges do not, so a
  // cube state with k forbidden z edges has N_HB = 4 + k: P(s) ~ exp(J_eff (4 + k_s) / t).
  const int L = 16;
  const double x = 0.6;  // J_eff / t
  const cvf::Geometry g(L);
  std::vector<double> probability(9);
  double z = 0;
  for (int s = 0; s < 9; ++s) {
    const int k = cvf::popcount12(cvf::forbidden_edges(s) & 0xF00u);
    probability[s] = std::exp(x * (4 + k));
    z += probability[s];
  }
  for (double& p : probability) p /= z;
  std::vector<std::uint8_t> sigma(g.variables());
  const int pattern[6] = {0, 0, 1, 1, 2, 3};
  for (int arm = 0; arm < 6; ++arm)
    for (std::int64_t cell = 0; cell < g.cells(); ++cell)
      sigma[arm * g.cells() + cell] = pattern[arm];
  // Cubes are independent given sigma: one snapshot per replica gives N/4 independent samples.
  std::vector<std::uint64_t> counts(9, 0);
  for (std::uint64_t replica = 0; replica < 8; ++replica) {
    cvf::State<TestSpace> state(TestSpace(), L, 1.5, cvf::InitialState::ordered, 100 + replica);
    state.set_configuration(sigma, std::vector<std::uint8_t>(g.cubes(), 0));
    const auto table = cvf::eta_acceptance(x, 1.0);
    for (int s = 0; s < 60; ++s) {
      cvf::eta_update(state, table, 100 + replica);
      state.advance_step();
    }
    for (std::uint8_t c : cvf::testing::to_host(state.cube_state())) ++counts[c];
    const auto counted = state.counts(), exact = state.recount_exact();
    ASSERT_EQ(counted.hb, exact.hb);
  }
  const auto chi = cvf::testing::chi_square(counts, probability);
  EXPECT_GT(chi.p_value, 1e-6) << chi.table;
}

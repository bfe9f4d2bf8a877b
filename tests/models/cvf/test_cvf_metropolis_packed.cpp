// The packed Metropolis pass (four cells per thread, one Philox block per two cells) on
// TestSpace (every backend of the build): bit for bit against a plain C++ reference of its
// random-number scheme (counters included), counters against full recounts, bad arguments and
// its word-level helpers. The exact laws (test_cvf_laws.cpp) and the agreement of every backend
// with Serial (test_cvf_backends.cpp) run for both kernels there.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "portamc/cvf/detail/metropolis_packed.hpp"
#include "portamc/cvf/simulation.hpp"
#include "test_cvf_support.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;
namespace rng = portamc::rng;
using cvf::testing::HostConfiguration;

namespace {

/// The packed scheme, sequentially and cell by cell (no groups, no words, no SWAR): cell c
/// takes words 2 (c % 2) (proposal) and 2 (c % 2) + 1 (acceptance) of the block of its pair
/// c / 2.
void reference_packed_pass(const cvf::Geometry& g, HostConfiguration& h, int arm,
                           std::uint64_t seed, std::uint64_t draw_step,
                           const cvf::SigmaAcceptance& table) {
  const std::int64_t N = g.cells();
  for (std::int64_t cell = 0; cell < N; ++cell) {
    const cvf::Coordinates c = g.coordinates(cell);
    const int old = h.sigma[arm * N + cell];
    const rng::Block w = rng::draw(seed, rng::purpose_cvf_sigma, cell / 2, draw_step);
    const int k = 2 * static_cast<int>(cell % 2);
    int proposal = static_cast<int>((static_cast<std::uint64_t>(w[k]) * 5) >> 32);
    if (proposal >= old) ++proposal;
    int d_sigma = 0;
    for (int a = 0; a < cvf::arms; ++a) {
      if (a == arm) continue;
      const int other = h.sigma[a * N + cell];
      d_sigma += (other == proposal) - (other == old);
    }
    const int partner = h.sigma[cvf::opposite_arm(arm) * N + g.neighbour(c, arm)];
    const int d_hb = cvf::testing::reference_allowed(g, h.cube, c, arm)
                         ? (proposal == partner) - (old == partner)
                         : 0;
    if (w[k + 1] < table(d_hb, d_sigma))
      h.sigma[arm * N + cell] = static_cast<std::uint8_t>(proposal);
  }
}

HostConfiguration host_copy(const cvf::State<TestSpace>& state) {
  return {cvf::testing::to_host(state.sigma()), cvf::testing::to_host(state.cube_state())};
}

void expect_counts_match(const cvf::State<TestSpace>& state, const HostConfiguration& host,
                         const std::string& where) {
  const auto counts = state.counts();
  const auto reference = cvf::testing::reference_counts(state.geometry(), host);
  ASSERT_EQ(counts.hb, reference.first) << where;
  ASSERT_EQ(counts.sigma, reference.second) << where;
}

// Single passes of every arm, in an order that visits each arm twice, with arbitrary draw steps.
void compare_passes(int L, std::uint64_t seed, double j_eff, double j_sigma, double t) {
  cvf::State<TestSpace> state(TestSpace(), L, 1.5, cvf::InitialState::random, seed);
  HostConfiguration host = host_copy(state);
  const HostConfiguration initial = host;
  const auto table = cvf::sigma_acceptance(j_eff, j_sigma, t);
  const int arms_order[12] = {0, 3, 5, 1, 2, 4, 4, 1, 0, 5, 3, 2};
  for (int k = 0; k < 12; ++k) {
    const int arm = arms_order[k];
    const std::uint64_t draw_step = 1000 * seed + 7 * k;
    cvf::metropolis_pass_packed(TestSpace(), state.geometry(), state.sigma(), state.cube_state(),
                                arm, seed, draw_step, table, state.delta_slot(0));
    state.fold_deltas(0, 1);
    reference_packed_pass(state.geometry(), host, arm, seed, draw_step, table);
    const std::string where = "L " + std::to_string(L) + " seed " + std::to_string(seed) +
                              " pass " + std::to_string(k) + " arm " + std::to_string(arm);
    ASSERT_EQ(cvf::testing::to_host(state.sigma()), host.sigma) << where;
    expect_counts_match(state, host, where);
  }
  EXPECT_NE(host.sigma, initial.sigma);
}

// Full MC steps (eta update, packed sweep) against the references of both.
void compare_sweeps(int L, std::uint64_t seed, double j_eff, double j_sigma, double t, int steps) {
  cvf::State<TestSpace> state(TestSpace(), L, 1.5, cvf::InitialState::random, seed);
  HostConfiguration host = host_copy(state);
  const auto sigma_table = cvf::sigma_acceptance(j_eff, j_sigma, t);
  const auto eta_table = cvf::eta_acceptance(j_eff, t);
  for (int s = 0; s < steps; ++s) {
    cvf::eta_update(state, eta_table, seed);
    cvf::metropolis_sweep(state, sigma_table, seed, cvf::MetropolisKernel::packed);
    cvf::testing::reference_eta_update(state.geometry(), host, seed, s, j_eff, t);
    const auto order = cvf::arm_order(seed, s);
    for (int k = 0; k < cvf::arms; ++k)
      reference_packed_pass(state.geometry(), host, order[k], seed, 6 * s + k, sigma_table);
    state.advance_step();
    const std::string where = "L " + std::to_string(L) + " step " + std::to_string(s);
    ASSERT_EQ(cvf::testing::to_host(state.cube_state()), host.cube) << where;
    ASSERT_EQ(cvf::testing::to_host(state.sigma()), host.sigma) << where;
    expect_counts_match(state, host, where);
  }
}

cvf::SimulationSettings packed_settings(int L, std::uint64_t seed, bool volume_moves) {
  cvf::SimulationSettings s;
  s.L = L;
  s.seed = seed;
  s.initial_v_iso = 1.3;  // liquid: HBs count
  s.volume.enabled = volume_moves;
  s.volume.delta = 0.02;
  s.metropolis_kernel = cvf::MetropolisKernel::packed;
  return s;
}

}  // namespace

TEST(CvfMetropolisPacked, WordHelpers) {
  namespace p = cvf::packed;
  for (std::uint32_t a = 0; a < 8; ++a)
    for (std::uint32_t b = 0; b < 8; ++b)
      for (int byte = 0; byte < 4; ++byte) {
        // Other bytes hold values that differ on both sides, so no carry leaks in.
        const std::uint32_t wa = (a << (8 * byte)) | (0x07070707u & ~(0xFFu << (8 * byte)));
        const std::uint32_t wb = (b << (8 * byte)) | (0x03030303u & ~(0xFFu << (8 * byte)));
        ASSERT_EQ(p::equal_bytes(wa, wb), std::uint32_t{a == b} << (8 * byte)) << a << " " << b;
      }
  EXPECT_EQ(p::byte_sum(0x05040302u), 14);
  // The proposal is never the old state and reaches both ends of the range.
  for (std::uint32_t old = 0; old < 6; ++old) {
    std::uint32_t lowest = 6, highest = 0;
    for (std::uint32_t word : {0u, 858993459u, 858993460u, 2147483648u, 4294967295u}) {
      const std::uint32_t q = p::propose(word, old);
      EXPECT_NE(q, old);
      lowest = std::min(lowest, q);
      highest = std::max(highest, q);
    }
    EXPECT_EQ(lowest, old == 0 ? 1u : 0u);
    EXPECT_EQ(highest, old == 5 ? 4u : 5u);
  }
  EXPECT_EQ(cvf::metropolis_kernel_from_string("packed"), cvf::MetropolisKernel::packed);
  EXPECT_EQ(cvf::metropolis_kernel_from_string("per_cell"), cvf::MetropolisKernel::per_cell);
  EXPECT_STREQ(cvf::to_string(cvf::MetropolisKernel::packed), "packed");
  EXPECT_THROW(cvf::metropolis_kernel_from_string("packet"), std::invalid_argument);
}

TEST(CvfMetropolisPacked, PassesMatchHostReferenceBitForBit) {
  compare_passes(4, 3, 2.0, 0.32, 0.9);    // L = 4: a group is a whole row (x seam in every word)
  compare_passes(8, 17, 6.0, 1.5, 0.5);    // strong couplings: few acceptances
  compare_passes(12, 29, -0.5, 0.0, 2.0);  // J_eff < 0, J_sigma = 0
  compare_passes(12, 31, 1.0, 0.5, 1.2);
}

TEST(CvfMetropolisPacked, SweepsMatchHostReferenceBitForBit) {
  compare_sweeps(4, 5, 6.0, 1.5, 0.5, 6);
  compare_sweeps(8, 7, 2.0, 0.32, 0.9, 5);
  compare_sweeps(12, 13, -0.5, 0.2, 2.0, 3);
}

TEST(CvfMetropolisPacked, CountersEqualRecount) {
  // Volume moves switch between the two acceptance tables (J_eff on and off).
  cvf::ModelParameters m;
  cvf::Simulation<TestSpace> sim(TestSpace(), m, cvf::ReducedStatePoint{0.6, 0.05},
                                 packed_settings(16, 77, true));
  const auto initial = sim.checkpoint().sigma;
  for (int s = 0; s < 30; ++s) {
    sim.step();
    const auto kept = sim.state().counts(), exact = sim.state().recount_exact();
    ASSERT_EQ(kept.hb, exact.hb) << "step " << s;
    ASSERT_EQ(kept.sigma, exact.sigma) << "step " << s;
  }
  EXPECT_NE(sim.checkpoint().sigma, initial);
}

TEST(CvfMetropolisPacked, RejectsMisalignedSigma) {
  const cvf::Geometry g(4);
  Kokkos::View<std::uint8_t*, TestSpace> bytes("bytes", g.variables() + 1),
      sigma("sigma", g.variables());
  Kokkos::View<std::uint8_t*, TestSpace> cubes("cubes", g.cubes());
  Kokkos::View<cvf::BondCounts, TestSpace> delta("delta");
  const auto shifted =
      Kokkos::subview(bytes, std::make_pair<std::int64_t, std::int64_t>(1, g.variables() + 1));
  const auto table = cvf::sigma_acceptance(1.0, 0.5, 1.0);
  EXPECT_THROW(cvf::metropolis_pass_packed(TestSpace(), g, shifted, cubes, 0, 1, 0, table, delta),
               std::invalid_argument);
  Kokkos::View<std::uint8_t*, TestSpace> more_cubes("more_cubes", g.cubes() + 1);
  const auto shifted_cubes =
      Kokkos::subview(more_cubes, std::make_pair<std::int64_t, std::int64_t>(1, g.cubes() + 1));
  EXPECT_THROW(
      cvf::metropolis_pass_packed(TestSpace(), g, sigma, shifted_cubes, 0, 1, 0, table, delta),
      std::invalid_argument);
  EXPECT_THROW(cvf::metropolis_pass_packed(TestSpace(), g, sigma, cubes, 6, 1, 0, table, delta),
               std::invalid_argument);
}

// Counter-based RNG: Random123's published Philox4x32-10 known answers, the
// (seed, purpose, entity, step) layout, conversions, and identical numbers on every backend of
// the build (one test over all of them: portamc::for_each_space).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/rng.hpp"

namespace portamc_test {

// Fills `out` with draws for entities 0..n-1 at `step` on ExecutionSpace.
template <class ExecutionSpace>
std::vector<std::uint32_t> draws_on(const ExecutionSpace& space, std::uint64_t seed,
                                    std::uint64_t step, int n) {
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space> out(
      "draws", n, 4);
  Kokkos::parallel_for(
      "test_rng_draws", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n),
      KOKKOS_LAMBDA(const int e) {
        const auto b = portamc::rng::draw(seed, portamc::rng::purpose_test, e, step);
        for (int k = 0; k < 4; ++k) out(e, k) = b[k];
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<std::uint32_t>(host.data(), host.data() + 4 * n);
}

}  // namespace portamc_test

namespace {

namespace rng = portamc::rng;

TEST(Rng, Philox4x32_10KnownAnswers) {
  // Random123's kat_vectors for philox4x32 with 10 rounds: counter, key -> output.
  struct Kat {
    rng::Block ctr;
    std::uint32_t k0, k1;
    rng::Block expected;
  };
  const Kat kats[] = {
      {{{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
      {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
       0xffffffff,
       0xffffffff,
       {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
      {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
       0xa4093822,
       0x299f31d0,
       {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
  };
  for (const auto& kat : kats) {
    const auto out = rng::philox4x32_10(kat.ctr, kat.k0, kat.k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], kat.expected[i]) << "word " << i;
  }
}

TEST(Rng, CounterLayoutMatchesDocumentation) {
  const std::uint64_t seed = 0x0123456789abcdefULL, entity = 0xfedcba9876543210ULL;
  const std::uint64_t step = 0x00abcdef12345678ULL;
  const auto direct =
      rng::philox4x32_10({{0x12345678u, 0x00abcdefu | (7u << 24), 0x76543210u, 0xfedcba98u}},
                         0x89abcdefu, 0x01234567u);
  const auto via_draw = rng::draw(seed, 7, entity, step);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(via_draw[i], direct[i]);
}

TEST(Rng, DistinctInputsGiveDistinctStreams) {
  const auto a = rng::draw(1, 1, 0, 0), b = rng::draw(1, 2, 0, 0), c = rng::draw(1, 1, 1, 0),
             d = rng::draw(1, 1, 0, 1), e = rng::draw(2, 1, 0, 0);
  for (const auto& other : {b, c, d, e}) EXPECT_NE(a[0], other[0]);
}

TEST(Rng, ConversionsHitTheirEndpointsExactly) {
  EXPECT_EQ(rng::uniform_float(0), 0.0f);
  EXPECT_LT(rng::uniform_float(0xffffffffu), 1.0f);
  EXPECT_GT(rng::uniform_float_open0(0), 0.0f);
  EXPECT_EQ(rng::uniform_float_open0(0xffffffffu), 1.0f);
  EXPECT_EQ(rng::uniform_double(0, 0), 0.0);
  EXPECT_LT(rng::uniform_double(0xffffffffu, 0xffffffffu), 1.0);
  EXPECT_EQ(rng::uniform_double_open0(0xffffffffu, 0xffffffffu), 1.0);
  EXPECT_EQ(rng::uniform_double(0x80000000u, 0), 0.5);
}

TEST(Rng, BoundedIntegersAreInRangeAndUniform) {
  EXPECT_EQ(rng::bounded(0, 0, 7), 0u);
  EXPECT_EQ(rng::bounded(0xffffffffu, 0xffffffffu, 7), 6u);
  EXPECT_EQ(rng::bounded(0x80000000u, 0, 10), 5u);
  // Chi-square over 10 bins from 100000 draws; 99.9% quantile for 9 dof is 27.9.
  const int n = 100000, k = 10;
  std::vector<int> counts(k, 0);
  for (int i = 0; i < n; ++i) {
    const auto b = rng::draw(42, rng::purpose_test, 0, i);
    ++counts[rng::bounded(b[0], b[1], k)];
  }
  double chi2 = 0;
  for (int c : counts) chi2 += (c - n / double(k)) * (c - n / double(k)) / (n / double(k));
  EXPECT_LT(chi2, 27.9);
}

TEST(Rng, NormalPairsHaveUnitMomentsAndNoCorrelation) {
  const int n = 200000;
  double s1 = 0, s2 = 0, s11 = 0, s22 = 0, s12 = 0;
  for (int i = 0; i < n; ++i) {
    const auto p = rng::normal_pair(rng::draw(9, rng::purpose_test, 3, i));
    s1 += p.first;
    s2 += p.second;
    s11 += p.first * p.first;
    s22 += p.second * p.second;
    s12 += p.first * p.second;
  }
  // Standard errors: mean 1/sqrt(n) = 0.0022, second moment sqrt(2/n) = 0.0032; 5 sigma.
  EXPECT_NEAR(s1 / n, 0.0, 0.0112);
  EXPECT_NEAR(s2 / n, 0.0, 0.0112);
  EXPECT_NEAR(s11 / n, 1.0, 0.016);
  EXPECT_NEAR(s22 / n, 1.0, 0.016);
  EXPECT_NEAR(s12 / n, 0.0, 0.0112);
}

TEST(Rng, SameNumbersOnEveryBackend) {
  portamc::for_each_space([](auto space) {
    const auto drawn = portamc_test::draws_on(space, 77, 123456789, 4096);
    ASSERT_EQ(drawn.size(), 4u * 4096);
    // Every word equals the host-side pure function's, so every backend equals every other.
    int differ = 0;
    for (int e = 0; e < 4096; ++e) {
      const auto b = rng::draw(77, rng::purpose_test, e, 123456789);
      for (int k = 0; k < 4; ++k)
        if (drawn[4 * e + k] != b[k] && differ++ < 3)
          ADD_FAILURE() << decltype(space)::name() << ": entity " << e << " word " << k;
    }
    EXPECT_EQ(differ, 0) << decltype(space)::name();
  });
}

/// rng::philox4x32_10 on an execution space (PTX multiplies on CUDA) against the host's
/// (Random123), for counters and keys from a scrambled sequence and the all-zero and all-one
/// extremes.
template <class Space>
struct PhiloxBlocks {
  Kokkos::View<std::uint32_t* [6], typename Space::memory_space> in;
  Kokkos::View<std::uint32_t* [4], typename Space::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const portamc::rng::Block b = portamc::rng::philox4x32_10(
        portamc::rng::Block{{in(i, 0), in(i, 1), in(i, 2), in(i, 3)}}, in(i, 4), in(i, 5));
    for (int j = 0; j < 4; ++j) out(i, j) = b[j];
  }
};

TEST(Rng, EveryBackendsPhiloxEqualsHostForExtremeInputs) {
  portamc::for_each_space([](auto space) {
    using Space = decltype(space);
    const int n = 4096;
    Kokkos::View<std::uint32_t* [6], typename Space::memory_space> in("in", n);
    Kokkos::View<std::uint32_t* [4], typename Space::memory_space> out("out", n);
    auto h_in = Kokkos::create_mirror_view(in);
    std::uint64_t x = 0x243F6A8885A308D3ull;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 6; ++j) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;  // a 64-bit LCG, top bits
        h_in(i, j) = i == 0 ? 0u : i == 1 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(x >> 32);
      }
    Kokkos::deep_copy(in, h_in);
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(space, 0, n), PhiloxBlocks<Space>{in, out});
    const auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int differ = 0;
    for (int i = 0; i < n; ++i) {
      const portamc::rng::Block e = portamc::rng::philox4x32_10(
          portamc::rng::Block{{h_in(i, 0), h_in(i, 1), h_in(i, 2), h_in(i, 3)}}, h_in(i, 4),
          h_in(i, 5));
      for (int j = 0; j < 4; ++j)
        if (h_out(i, j) != e[j] && differ++ < 3)
          ADD_FAILURE() << Space::name() << ": block " << i << " word " << j;
    }
    EXPECT_EQ(differ, 0) << Space::name();
    // Random123's known answer for counter 0, key 0.
    EXPECT_EQ(h_out(0, 0), 0x6627e8d5u);
    EXPECT_EQ(h_out(0, 3), 0x9b00dbd8u);
  });
}

}  // namespace

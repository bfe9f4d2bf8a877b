// FastDivisor: quotient and remainder equal n / d and n % d for every 32-bit n and d,
// checked at the edges (0, 1, powers of two and their neighbours, 2^32 - 1) and on
// pseudo-random pairs, on the host and inside a kernel on every backend of the build (TestSpace).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "portamc/fast_division.hpp"
#include "test_space.hpp"

namespace portamc_test {

std::vector<std::uint32_t> edge_values() {
  std::vector<std::uint32_t> v{0u,          1u,          2u,      3u,          5u,
                               7u,          24u,         48u,     0x7FFFFFFFu, 0xFFFFFFFFu,
                               0xFFFFFFFEu, 0x80000001u, 1000003u};
  for (int k = 1; k < 32; ++k) {
    const std::uint32_t p = std::uint32_t{1} << k;
    v.insert(v.end(), {p - 1, p, p + 1});
  }
  return v;
}

// xorshift: a reproducible stream of 32-bit values spread over the whole range
std::uint32_t next(std::uint32_t& state) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

TEST(FastDivision, MatchesIntegerDivisionOnTheHost) {
  const auto edges = edge_values();
  std::uint32_t state = 2463534242u;
  long long checked = 0;
  for (std::uint32_t d : edges) {
    if (d == 0) continue;
    const portamc::FastDivisor divisor(d);
    std::vector<std::uint32_t> numerators = edges;
    for (int i = 0; i < 2000; ++i) numerators.push_back(next(state));
    for (std::uint32_t n : numerators) {
      std::uint32_t r = 0;
      ASSERT_EQ(divisor.divide(n, r), n / d) << n << " / " << d;
      ASSERT_EQ(r, n % d) << n << " % " << d;
      ++checked;
    }
  }
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t d = next(state) >> (next(state) % 32) | 1u;
    const std::uint32_t n = next(state);
    ASSERT_EQ(portamc::FastDivisor(d).quotient(n), n / d) << n << " / " << d;
  }
  EXPECT_GT(checked, 100000);
}

// Numerators spread over the 32-bit range, both ends included; mismatches counted on
// TestSpace. A free function: nvcc refuses device lambdas inside TEST bodies.
long long device_mismatches(std::uint32_t d) {
  const portamc::FastDivisor divisor(d);
  long long wrong = 0;
  Kokkos::parallel_reduce(
      "test_fast_division",
      Kokkos::RangePolicy<TestSpace, Kokkos::IndexType<std::int64_t>>(TestSpace(), 0, 1 << 20),
      KOKKOS_LAMBDA(const std::int64_t i, long long& acc) {
        const std::uint32_t n = static_cast<std::uint32_t>(i) * 4099u + (i & 1 ? 0xFFFFF000u : 0u);
        std::uint32_t r = 0;
        const std::uint32_t q = divisor.divide(n, r);
        if (q != n / d || r != n % d) ++acc;
      },
      wrong);
  return wrong;
}

TEST(FastDivision, MatchesIntegerDivisionInAKernel) {
  for (std::uint32_t d : {1u, 2u, 3u, 12u, 24u, 48u, 1000003u, 0xFFFFFFFFu})
    EXPECT_EQ(device_mismatches(d), 0) << "divisor " << d;
}

TEST(FastDivision, RejectsZero) {
  EXPECT_THROW(portamc::FastDivisor(0), std::invalid_argument);
}

}  // namespace portamc_test

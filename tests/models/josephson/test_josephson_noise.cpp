// The Gaussian noise of the Langevin ensembles (noise.hpp): finite for every word, standard
// normal moments and bin probabilities over a large sample in float and double, float and
// double normals from the same words agree, and step k is keyed to word k % 4 of Philox
// block k / 4. (The elementary functions inside are tested in test_josephson_elementary.)
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "portamc/fast_math.hpp"
#include "portamc/josephson/detail/noise.hpp"
#include "portamc/rng.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using Space = TestSpace;

constexpr double pi = 3.141592653589793238462643383279502884;

/// Normals of given blocks of words, computed on the test's backend (TestSpace).
template <class Real>
struct NormalsOfWords {
  Kokkos::View<std::uint32_t* [4], Space::memory_space> words;
  Kokkos::View<Real* [4], Space::memory_space> normals;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const portamc::rng::Block w{{words(i, 0), words(i, 1), words(i, 2), words(i, 3)}};
    const NormalBlock<Real> n = normals_from_words<Real>(w);
    for (int j = 0; j < 4; ++j) normals(i, j) = n[j];
  }
};

template <class Real>
std::vector<std::vector<double>> normals_of(const std::vector<std::vector<std::uint32_t>>& blocks) {
  const int n = static_cast<int>(blocks.size());
  Kokkos::View<std::uint32_t* [4], Space::memory_space> words("words", n);
  Kokkos::View<Real* [4], Space::memory_space> normals("normals", n);
  auto w = Kokkos::create_mirror_view(words);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) w(i, j) = blocks[i][j];
  Kokkos::deep_copy(words, w);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(Space(), 0, n),
                       NormalsOfWords<Real>{words, normals});
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), normals);
  std::vector<std::vector<double>> out(n, std::vector<double>(4));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) out[i][j] = h(i, j);
  return out;
}

/// The chunked loop's lean Box–Muller (flush-to-zero log and sqrt on CUDA) gives the same
/// normals bit for bit, for the extreme words (u = 2^-32 and u = 1) and scrambled ones.
struct SumInts {
  Kokkos::View<int*, Space::memory_space> v;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& sum) const { sum += v(i); }
};

struct LeanAndPlainNormals {
  Kokkos::View<std::uint32_t* [4], Space::memory_space> words;
  Kokkos::View<int*, Space::memory_space> differ;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const portamc::rng::Block w{{words(i, 0), words(i, 1), words(i, 2), words(i, 3)}};
    const NormalBlock<float> lean = normals_from_words<float, true>(w);
    const NormalBlock<float> plain = normals_from_words<float, false>(w);
    int d = 0;
    for (int j = 0; j < 4; ++j)
      d += bit_cast<std::uint32_t>(lean[j]) != bit_cast<std::uint32_t>(plain[j]);
    differ(i) = d;
  }
};

TEST(JosephsonNoise, LeanBoxMullerIsBitwiseTheSame) {
  const int n = 1 << 16;
  Kokkos::View<std::uint32_t* [4], Space::memory_space> words("words", n);
  Kokkos::View<int*, Space::memory_space> differ("differ", n);
  auto h = Kokkos::create_mirror_view(words);
  const std::uint32_t special[] = {0u,          1u,          2u,          0xFFFFFFFFu, 0xFFFFFFFEu,
                                   0xFFFFFF7Fu, 0xFFFFFF80u, 0x7FFFFFFFu, 0x80000000u};
  std::uint64_t x = 0x13198A2E03707344ull;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      h(i, j) =
          i < 9 * 9 ? special[j % 2 == 0 ? i % 9 : i / 9] : static_cast<std::uint32_t>(x >> 32);
    }
  Kokkos::deep_copy(words, h);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(Space(), 0, n),
                       LeanAndPlainNormals{words, differ});
  int total = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Space>(Space(), 0, n), SumInts{differ}, total);
  EXPECT_EQ(total, 0);
}

template <class Real>
void expect_finite_for_extreme_words() {
  const std::uint32_t max = 0xFFFFFFFFu;
  const std::vector<std::uint32_t> special{
      0u,          1u,          2u,          0x7FFFFFFFu, 0x80000000u, max,         max - 1,
      0x20000000u, 0x1FFFFFFFu, 0x40000000u, 0x60000000u, 0xC0000000u, 0xE0000000u, 0x00FFFFFFu};
  std::vector<std::vector<std::uint32_t>> blocks;
  for (std::uint32_t a : special)
    for (std::uint32_t b : special) blocks.push_back({a, b, b, a});
  const auto normals = normals_of<Real>(blocks);
  // The largest radius: u = 2^-32, sqrt(-2 ln 2^-32) = sqrt(64 ln 2).
  const double cap = std::sqrt(64 * std::log(2.0));
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    for (int j = 0; j < 4; ++j) {
      const double x = normals[i][j];
      EXPECT_TRUE(std::isfinite(x)) << "words " << blocks[i][0] << ", " << blocks[i][1];
      EXPECT_LE(std::abs(x), cap * (1 + 1e-6));
    }
    // Radius word 0xFFFFFFFF: u = 1, radius 0; radius word 0: the cap.
    const double r01 = std::hypot(normals[i][0], normals[i][1]);
    if (blocks[i][0] == max) EXPECT_EQ(r01, 0.0);
    if (blocks[i][0] == 0u) EXPECT_NEAR(r01, cap, 1e-5 * cap);
  }
}

TEST(JosephsonNoise, FiniteAndBoundedForExtremeWordsFloat) {
  expect_finite_for_extreme_words<float>();
}
TEST(JosephsonNoise, FiniteAndBoundedForExtremeWordsDouble) {
  expect_finite_for_extreme_words<double>();
}

/// Moments and bin counts of n_blocks * 4 normals, by a reduction on the test's backend.
struct Tally {
  double sum[4] = {0, 0, 0, 0};               // x, x^2, x^3, x^4
  double bins[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // (-inf,-3) [-3,-2) ... [2,3) [3,inf)
  KOKKOS_INLINE_FUNCTION Tally& operator+=(const Tally& o) {
    for (int i = 0; i < 4; ++i) sum[i] += o.sum[i];
    for (int i = 0; i < 8; ++i) bins[i] += o.bins[i];
    return *this;
  }
};

}  // namespace

namespace Kokkos {
template <>
struct reduction_identity<Tally> {
  KOKKOS_FORCEINLINE_FUNCTION static Tally sum() { return Tally(); }
};
}  // namespace Kokkos

namespace {

template <class Real>
struct MomentKernel {
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Tally& t) const {
    const NormalBlock<Real> n = noise_block<Real>(seed, static_cast<std::uint64_t>(i) / 64,
                                                  static_cast<std::uint64_t>(i) % 64);
    for (int j = 0; j < 4; ++j) {
      const double x = n[j];
      const double x2 = x * x;
      t.sum[0] += x;
      t.sum[1] += x2;
      t.sum[2] += x2 * x;
      t.sum[3] += x2 * x2;
      const int bin = x < -3   ? 0
                      : x < -2 ? 1
                      : x < -1 ? 2
                      : x < 0  ? 3
                      : x < 1  ? 4
                      : x < 2  ? 5
                      : x < 3  ? 6
                               : 7;
      t.bins[bin] += 1;
    }
  }
};

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

template <class Real>
void expect_standard_normal() {
  const std::int64_t blocks = std::int64_t{1} << 20;
  Tally t;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Space>(Space(), 0, blocks),
                          MomentKernel<Real>{20240601}, Kokkos::Sum<Tally>(t));
  const double n = 4.0 * static_cast<double>(blocks);
  // Standard errors of the sample moments of N(0, 1): Var x^m = E x^2m - (E x^m)^2.
  const double m[4] = {t.sum[0] / n, t.sum[1] / n, t.sum[2] / n, t.sum[3] / n};
  const double expected[4] = {0, 1, 0, 3};
  const double variance[4] = {1, 3 - 1, 15, 105 - 9};
  const char* names[4] = {"mean", "second moment", "third moment", "fourth moment"};
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(m[i], expected[i], 5 * std::sqrt(variance[i] / n)) << names[i];
  const double edges[9] = {-INFINITY, -3, -2, -1, 0, 1, 2, 3, INFINITY};
  for (int b = 0; b < 8; ++b) {
    const double p = normal_cdf(edges[b + 1]) - normal_cdf(edges[b]);
    EXPECT_NEAR(t.bins[b] / n, p, 5 * std::sqrt(p * (1 - p) / n))
        << "bin [" << edges[b] << ", " << edges[b + 1] << ")";
  }
}

TEST(JosephsonNoise, StandardNormalMomentsAndBinsFloat) {
  expect_standard_normal<float>();
}
TEST(JosephsonNoise, StandardNormalMomentsAndBinsDouble) {
  expect_standard_normal<double>();
}

/// Float and double normals come from the same words: their squared radii agree to float
/// rounding of u (absolute 2^-23 near u = 1, where float resolves u to 2^-24) and their
/// angles to float rounding (on CUDA, to the special-function unit's few roundings).
TEST(JosephsonNoise, FloatAndDoubleNormalsAgreeToFloatPrecision) {
  std::vector<std::vector<std::uint32_t>> blocks;
  for (std::uint64_t b = 0; b < 4096; ++b) {
    const auto w = portamc::rng::draw(7, portamc::rng::purpose_josephson_noise, 3, b);
    blocks.push_back({w[0], w[1], w[2], w[3]});
  }
  const auto f = normals_of<float>(blocks);
  const auto d = normals_of<double>(blocks);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    for (int j = 0; j < 4; j += 2) {
      const double rf2 = f[i][j] * f[i][j] + f[i][j + 1] * f[i][j + 1];
      const double rd2 = d[i][j] * d[i][j] + d[i][j + 1] * d[i][j + 1];
      const double slack = portamc::fastmath::hardware_approximations<Space> ? 4 : 1;
      EXPECT_NEAR(rf2, rd2, slack * (2.5e-7 + 5e-7 * rd2)) << "block " << i << ", pair " << j / 2;
      if (rd2 > 1e-4) {
        const double turn = std::remainder(
            std::atan2(f[i][j + 1], f[i][j]) - std::atan2(d[i][j + 1], d[i][j]), 2 * pi);
        EXPECT_NEAR(turn, 0.0, 1e-6) << "block " << i << ", pair " << j / 2;
      }
    }
  }
}

/// Step k uses word k % 4 of block k / 4 of its own entity; neighbouring entities and blocks
/// give different normals.
TEST(JosephsonNoise, StepKeyedToBlockAndWord) {
  const std::uint64_t seed = 99, entity = 12;
  for (std::uint64_t k = 0; k < 64; ++k) {
    const auto block = normals_from_words<double>(
        portamc::rng::draw(seed, portamc::rng::purpose_josephson_noise, entity, k / 4));
    EXPECT_EQ(noise_at_step<double>(seed, entity, k), block[k % 4]);
    EXPECT_NE(noise_at_step<double>(seed, entity, k), noise_at_step<double>(seed, entity + 1, k));
    EXPECT_NE(noise_at_step<double>(seed, entity, k), noise_at_step<double>(seed, entity, k + 4));
  }
}

}  // namespace

#pragma once
// Gaussian noise of the Langevin ensembles: one standard normal per integration step.
//
// Keying (rng.hpp): step k of realisation i uses word k % 4 of the Philox block
//   draw(seed, purpose_josephson_noise, entity = first_realisation + i, step = k / 4),
// the four words turned into four normals by two Box–Muller pairs, words (0, 1) and (2, 3).
// A trajectory is therefore a function of (seed, entity) alone, never of the thread or slot
// that integrates it, the launch it falls in or the backend (up to the compilers' contraction
// of multiply-adds into fused ones).
//
// Box–Muller from words (a, b): u = (a + 1) 2^-32 in (0, 1], radius sqrt(-2 ln u), angle
// 2 pi b 2^-32, its cos and sin from the bits of b (elementary.hpp). u never reaches 0, so ln u
// is finite; its smallest value 2^-32 caps |normal| at sqrt(2 * 32 ln 2) = 6.66, i.e. the
// Gaussian tail beyond 6.66 sigma (probability 3e-11 per normal) is cut off, which no escape
// statistic of this model can resolve. All the arithmetic is in the working precision Real:
// a float kernel does no double work for noise.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "portamc/fast_math.hpp"
#include "portamc/josephson/detail/elementary.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"

namespace portamc::josephson {

/// Steps served by one Philox block.
inline constexpr int normals_per_block = 4;

template <class Real>
using NormalBlock = Kokkos::Array<Real, normals_per_block>;

/// Two independent standard normals from two 32-bit words (see the header comment).
///
/// Lean (the chunked loop's): on CUDA in float, the log and sqrt are the flush-to-zero forms
/// of fastmath::log and fastmath::sqrt (the same MUFU.LG2 and MUFU.SQRT, and the same ln 2
/// product with the factor -2 folded in, which is exact): their inputs u >= 2^-32 and
/// -2 ln u are never subnormal, so the results are the same bit for bit, without the
/// subnormal scaling around each instruction (6 instructions per pair). Elsewhere Lean
/// changes nothing.
template <class Real, bool Lean = false>
KOKKOS_INLINE_FUNCTION void box_muller(std::uint32_t radius_word, std::uint32_t angle_word,
                                       Real& first, Real& second) {
  constexpr Real two_pow_minus_32 = Real(2.3283064365386962890625e-10);
  // (a + 1) 2^-32 without 64-bit integers: exact in double; in float it rounds to 24 bits
  // (never above 1: 1 + 2^-32 rounds to 1) and stays exact for the small a of the tail.
  // In double the word's value comes from its bits in the mantissa of 2^52 (exact, like the
  // conversion, without the conversion instruction's slow pipeline).
  Real word_value;
  if constexpr (std::is_same_v<Real, double>)
    word_value =
        bit_cast<double>(std::uint64_t{0x4330000000000000} | radius_word) - 4503599627370496.0;
  else
    word_value = static_cast<Real>(radius_word);
  const Real u = word_value * two_pow_minus_32 + two_pow_minus_32;
  Real radius;
  if constexpr (Lean && std::is_same_v<Real, float> && fastmath::on_special_function_unit) {
    // fastmath::log is log2 u * float(ln 2); times -2 is exact, so fold it in.
    const float minus_two_ln_u = fastmath::log2_normal(u) * (-2.0f * 0.693147180559945309417f);
    radius = fastmath::sqrt_normal(minus_two_ln_u);
  } else {
    radius = fastmath::sqrt(Real(-2) * log_unit(u));  // the library's off the GPU
  }
  Real c, s;
  sincos_turn<Real>(angle_word, c, s);
  first = radius * c;
  second = radius * s;
}

/// The four normals of one Philox block: words (0, 1) and (2, 3) as Box–Muller pairs.
template <class Real, bool Lean = false>
KOKKOS_INLINE_FUNCTION NormalBlock<Real> normals_from_words(const rng::Block& words) {
  NormalBlock<Real> n;
  box_muller<Real, Lean>(words[0], words[1], n[0], n[1]);
  box_muller<Real, Lean>(words[2], words[3], n[2], n[3]);
  return n;
}

/// The normals of steps 4 block .. 4 block + 3 of the realisation with RNG entity `entity`.
template <class Real>
KOKKOS_INLINE_FUNCTION NormalBlock<Real> noise_block(std::uint64_t seed, std::uint64_t entity,
                                                     std::uint64_t block) {
  return normals_from_words<Real>(rng::draw(seed, rng::purpose_josephson_noise, entity, block));
}

/// The normal of step k alone (k = 0 is the first step); for tests and host-side checks.
template <class Real>
KOKKOS_INLINE_FUNCTION Real noise_at_step(std::uint64_t seed, std::uint64_t entity,
                                          std::uint64_t k) {
  return noise_block<Real>(seed, entity, k / normals_per_block)[k % normals_per_block];
}

}  // namespace portamc::josephson

#pragma once
// The project's one random-number convention (DESIGN.md): a draw is a pure function
// of (seed, purpose, entity, step) through Philox4x32-10, so results do not depend on
// thread count, backend, launch order or domain decomposition, and a checkpoint only
// needs step counters.
//
// Bit layout of one Philox call:
//   key     = seed (64 bits)
//   counter = { step bits 0..31, step bits 32..55 | purpose << 24, entity bits 0..31, entity
//   bits 32..63 }
// so steps run up to 2^56 and there are 256 purposes; distinct (purpose, entity, step)
// never share a counter.
#include <Random123/philox.h>
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/kokkos_compat.hpp"

namespace portamc::rng {

using Block = Kokkos::Array<std::uint32_t, 4>;

/// Purposes used across portamc. Models may use any value below 256; list them here
/// so two subsystems never draw from one stream by accident.
enum Purpose : std::uint32_t {
  purpose_initial_state = 1,
  purpose_site_choice = 2,
  purpose_acceptance = 3,
  purpose_su2_heatbath = 4,          ///< SU(2) heatbath: entity = link, step = sweep/retry
  purpose_su2_overrelaxation = 5,    ///< reserved (overrelaxation is deterministic today)
  purpose_gauge_transformation = 6,  ///< random gauge transformations (tests, checks)
  purpose_josephson_noise = 7,       ///< Langevin noise: entity = realisation, step = block
  purpose_tiling_class = 8,          ///< tilings/six-vertex: colour class of a step (entity 0)
  purpose_tiling_update = 9,         ///< tilings/six-vertex: a site's move (entity = site, step)
  purpose_tiling_shuffle = 10,       ///< Aztec domino shuffling: entity = block, step = order
  purpose_cvf_volume = 11,           ///< CVF volume move: entity 0, step = MC step
  purpose_cvf_eta = 12,              ///< CVF cube (eta) update: entity = cube, step = MC step
  purpose_cvf_sigma = 13,            ///< CVF Metropolis: entity = cell, step = 6 MC step + pass
  purpose_cvf_arm_order = 14,        ///< CVF Metropolis arm order: entity 0, step = MC step
  purpose_cvf_bonds = 15,            ///< CVF Swendsen-Wang bonds: entity = cell, step = MC step
  purpose_cvf_cluster = 16,          ///< CVF Swendsen-Wang shift: entity = cluster label, step
  purpose_tiling_bits = 17,          ///< bit-sliced domino chain: entity = tile task, step
  purpose_test = 255,
};

inline constexpr std::uint64_t max_step = (std::uint64_t{1} << 56) - 1;

/// The raw Philox4x32-10 bijection on (counter, key), for known-answer tests.
///
/// On CUDA devices the rounds are written out with one PTX mul.wide.u32 per product: Random123's
/// portable form (a 64-bit product split by a shift) compiles to an extra integer add after
/// every multiply there, ~20 instructions of ~150 per block, in kernels that are bound by
/// instruction issue. Same bits (test_rng compares the device with Random123 on the host).
KOKKOS_FORCEINLINE_FUNCTION Block philox4x32_10(const Block& counter, std::uint32_t key0,
                                                std::uint32_t key1) {
#if defined(__CUDA_ARCH__)
  std::uint32_t c0 = counter[0], c1 = counter[1], c2 = counter[2], c3 = counter[3];
  PORTAMC_UNROLL
  for (int round = 0; round < 10; ++round) {
    std::uint32_t lo0, hi0, lo1, hi1;
    asm("{\n\t.reg .u64 p;\n\tmul.wide.u32 p, %2, %3;\n\tmov.b64 {%0, %1}, p;\n\t}"
        : "=r"(lo0), "=r"(hi0)
        : "r"(c0), "r"(0xD2511F53u));
    asm("{\n\t.reg .u64 p;\n\tmul.wide.u32 p, %2, %3;\n\tmov.b64 {%0, %1}, p;\n\t}"
        : "=r"(lo1), "=r"(hi1)
        : "r"(c2), "r"(0xCD9E8D57u));
    c0 = hi1 ^ c1 ^ key0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ key1;
    c3 = lo0;
    key0 += 0x9E3779B9u;  // Weyl sequence of the key schedule
    key1 += 0xBB67AE85u;
  }
  return Block{{c0, c1, c2, c3}};
#else
  r123::Philox4x32 philox;
  r123::Philox4x32::ctr_type c = {{counter[0], counter[1], counter[2], counter[3]}};
  r123::Philox4x32::key_type k = {{key0, key1}};
  const r123::Philox4x32::ctr_type r = philox(c, k);
  return Block{{r[0], r[1], r[2], r[3]}};
#endif
}

/// Four independent 32-bit words for (seed, purpose, entity, step).
KOKKOS_FORCEINLINE_FUNCTION Block draw(std::uint64_t seed, std::uint32_t purpose,
                                       std::uint64_t entity, std::uint64_t step) {
  const Block counter{{static_cast<std::uint32_t>(step),
                       static_cast<std::uint32_t>((step >> 32) & 0xFFFFFFu) | (purpose << 24),
                       static_cast<std::uint32_t>(entity),
                       static_cast<std::uint32_t>(entity >> 32)}};
  return philox4x32_10(counter, static_cast<std::uint32_t>(seed),
                       static_cast<std::uint32_t>(seed >> 32));
}

/// A seeded stream family; cheap to copy into kernels.
struct CounterRng {
  std::uint64_t seed = 0;
  KOKKOS_INLINE_FUNCTION Block operator()(std::uint32_t purpose, std::uint64_t entity,
                                          std::uint64_t step) const {
    return draw(seed, purpose, entity, step);
  }
};

// Integer -> real conversions are exact fixed-point maps from the top bits, so the
// same words give bitwise the same reals on every backend.

/// float in [0, 1): top 24 bits.
KOKKOS_INLINE_FUNCTION float uniform_float(std::uint32_t x) {
  return static_cast<float>(x >> 8) * (1.0f / 16777216.0f);
}
/// float in (0, 1]: never 0, safe for log.
KOKKOS_INLINE_FUNCTION float uniform_float_open0(std::uint32_t x) {
  return static_cast<float>((x >> 8) + 1u) * (1.0f / 16777216.0f);
}
/// double in [0, 1) from 53 bits of two words.
KOKKOS_INLINE_FUNCTION double uniform_double(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t bits = ((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11;
  return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}
/// double in (0, 1]: never 0, safe for log.
KOKKOS_INLINE_FUNCTION double uniform_double_open0(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t bits = ((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11;
  return static_cast<double>(bits + 1) * (1.0 / 9007199254740992.0);
}

/// Integer in [0, n) from 64 random bits as floor(bits * n / 2^64): bias at most n / 2^64,
/// no rejection loop (which would break the one-draw-per-step convention).
KOKKOS_INLINE_FUNCTION std::uint32_t bounded(std::uint32_t hi, std::uint32_t lo, std::uint32_t n) {
  // High 64 bits of the 96-bit product (hi:lo) * n, computed in 64-bit pieces.
  const std::uint64_t low_product = static_cast<std::uint64_t>(lo) * n;
  const std::uint64_t high_product = static_cast<std::uint64_t>(hi) * n + (low_product >> 32);
  return static_cast<std::uint32_t>(high_product >> 32);
}

struct NormalPair {
  double first, second;
};

/// Two independent standard normals by Box–Muller from four words.
KOKKOS_INLINE_FUNCTION NormalPair normal_pair(const Block& b) {
  const double u1 = uniform_double_open0(b[0], b[1]);
  const double u2 = uniform_double(b[2], b[3]);
  const double radius = kmath::sqrt(-2.0 * kmath::log(u1));
  const double angle = 6.283185307179586476925286766559 * u2;
  return {radius * kmath::cos(angle), radius * kmath::sin(angle)};
}

}  // namespace portamc::rng

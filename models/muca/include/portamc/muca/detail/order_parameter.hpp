#pragma once
// The order parameter of every walker, measured at fixed intervals of the production and summed
// per (walker group, energy bin) as exact integers (issue #26): the Binder cumulant and the
// susceptibility are then reweighted from microcanonical moments, with jackknife errors over
// the same walker groups as ln g.
//
// What is measured is an integer d per walker, with the order parameter m = offset + scale d:
//   majority      (Ising, Potts): d = n_max - ceil(N / S), n_max the sites of the most common
//                 of the S states; m = (S n_max / N - 1) / (S - 1), so m = |M| / N for Ising.
//   magnetisation (Blume-Capel): d = |sum_i s_i|; m = d / N.
// For each (group, bin) the sums of d^0 .. d^4 are kept. d < 2^24 (the engine's sites), so
// d^4 < 2^96: each sum is held as four 32-bit limbs in 64-bit counters, added limb by limb
// with atomics. A limb of a block's sums stays below 2^64 for < 2^32 measurements per slot,
// the host propagates the carries (normalise_limbs), and rank sums stay exact. Integer sums
// make the measurements bitwise the same on every backend and rank count.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "portamc/muca/hamiltonian.hpp"

namespace portamc::muca {

enum class OrderParameterKind { majority, magnetisation };

/// Counters per (group, bin): the measurement count, then the four limbs of sum d^k for
/// k = 1..4 (limb j of power k at 1 + 4 (k - 1) + j).
inline constexpr int kOrderSlots = 17;

/// How an engine's packed site states give d, and how d maps to m (host and device).
struct OrderParameterSpec {
  OrderParameterKind kind = OrderParameterKind::majority;
  int sites = 0;
  int states = 2;
  int bits = 1;                 ///< per packed site
  int per_word = 32;            ///< sites per 32-bit word
  int baseline = 0;             ///< ceil(N / S) for majority, 0 for magnetisation
  std::uint32_t full_lows = 0;  ///< the low bit of every field of a full word
  std::uint32_t last_lows = 0;  ///< the same for the fields in use in the last word
  double offset = 0;            ///< m = offset + scale d
  double scale = 0;
};

/// The spec of model h in the engines' packing (state_bits bits per site).
OrderParameterSpec order_parameter_spec(const Hamiltonian& h);

/// The value d0 + d1 2^32 + d2 2^64 + d3 2^96 of four (unnormalised) limbs.
double limbs_value(const std::uint64_t* limbs);
/// Carries of every 4-limb sum of `sums` (slots of kOrderSlots) moved up, so each lower limb is
/// below 2^32 again.
void normalise_limbs(std::vector<std::uint64_t>& sums);

namespace detail {

struct Wide {
  std::uint64_t lo = 0, hi = 0;
};

// a b as 128 bits, from 32-bit halves (no 128-bit type on every backend).
KOKKOS_INLINE_FUNCTION Wide multiply_wide(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t low = 0xffffffffULL;
  const std::uint64_t a0 = a & low, a1 = a >> 32, b0 = b & low, b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const std::uint64_t middle = (p00 >> 32) + (p01 & low) + (p10 & low);
  Wide w;
  w.lo = (p00 & low) | (middle << 32);
  w.hi = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  return w;
}

// Set bits of a word (portable: Kokkos 3.4 has no popcount).
KOKKOS_INLINE_FUNCTION int bit_count(std::uint32_t v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return static_cast<int>((((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

// Adds a 128-bit value to four limb counters, one atomic per non-zero limb.
KOKKOS_INLINE_FUNCTION void add_limbs(std::uint64_t* limbs, Wide v) {
  constexpr std::uint64_t low = 0xffffffffULL;
  const std::uint64_t part[4] = {v.lo & low, v.lo >> 32, v.hi & low, v.hi >> 32};
  for (int j = 0; j < 4; ++j)
    if (part[j] != 0) Kokkos::atomic_add(&limbs[j], part[j]);
}

}  // namespace detail

/// Measures every walker: adds 1 and d^1 .. d^4 to sums(group * nbins + bin, .). Walker w's
/// lattice is spins(., w) (both engines' global layout), its bin bins(w).
template <class SpinView, class BinView, class SumView>
struct MeasureOrderParameter {
  SpinView spins;
  BinView bins;
  SumView sums;
  OrderParameterSpec spec;
  std::uint64_t first_walker = 0, total_walkers = 1;
  int groups = 1, nbins = 0, words = 0;

  // d of walker w, a word at a time: `lows` marks the low bit of every field in use, so a
  // field's value, or its equality with a state, is read for all fields of a word with a few
  // bit operations and counted with bit_count. Per-site loops with a counter array indexed by
  // the state ran slower than the sweep itself on a GPU (the array lives in local memory).
  KOKKOS_INLINE_FUNCTION std::uint64_t measure(const std::int64_t w) const {
    const int last = words - 1;
    if (spec.bits == 1) {
      int up = 0;
      for (int k = 0; k < words; ++k)
        up += detail::bit_count(spins(k, w) & (k == last ? spec.last_lows : spec.full_lows));
      const int largest = up > spec.sites - up ? up : spec.sites - up;
      return static_cast<std::uint64_t>(largest - spec.baseline);
    }
    if (spec.kind == OrderParameterKind::magnetisation) {
      // Blume-Capel, two bits per site: state a = bit0 + 2 bit1 <-> s = a - 1.
      std::int64_t m = 0;
      for (int k = 0; k < words; ++k) {
        const std::uint32_t lows = k == last ? spec.last_lows : spec.full_lows;
        const std::uint32_t word = spins(k, w);
        m += detail::bit_count(word & lows) + 2 * detail::bit_count(word & (lows << 1)) -
             detail::bit_count(lows);
      }
      return static_cast<std::uint64_t>(m < 0 ? -m : m);
    }
    // Potts: sites per state, in registers (the loop over the 16 possible states unrolls).
    int count[16] = {};
    for (int k = 0; k < words; ++k) {
      const std::uint32_t lows = k == last ? spec.last_lows : spec.full_lows;
      const int used = detail::bit_count(lows);
      const std::uint32_t word = spins(k, w);
      for (int a = 0; a < 16; ++a) {
        if (a >= spec.states) break;
        const std::uint32_t x = word ^ (static_cast<std::uint32_t>(a) * lows);
        std::uint32_t differs = x;
        for (int j = 1; j < spec.bits; ++j) differs |= x >> j;
        count[a] += used - detail::bit_count(differs & lows);
      }
    }
    int largest = 0;
    for (int a = 0; a < 16; ++a)
      if (a < spec.states && count[a] > largest) largest = count[a];
    return static_cast<std::uint64_t>(largest - spec.baseline);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t w) const {
    const std::uint64_t d = measure(w);
    const int group = groups == 1
                          ? 0
                          : static_cast<int>((first_walker + static_cast<std::uint64_t>(w)) *
                                             static_cast<std::uint64_t>(groups) / total_walkers);
    std::uint64_t* const slot = &sums(static_cast<std::size_t>(group) * nbins + bins(w), 0);
    Kokkos::atomic_add(&slot[0], std::uint64_t{1});
    const std::uint64_t d2 = d * d;  // < 2^48
    detail::add_limbs(slot + 1, detail::Wide{d, 0});
    detail::add_limbs(slot + 5, detail::Wide{d2, 0});
    detail::add_limbs(slot + 9, detail::multiply_wide(d2, d));
    detail::add_limbs(slot + 13, detail::multiply_wide(d2, d2));
  }
};

/// A production's measurements: every `interval` attempts of the step counter (so at the same
/// steps whatever the blocks and resumes), each walker's d into `sums` ((groups x bins) rows
/// of kOrderSlots counters). Passed to an engine's sample_by_group.
template <class ExecutionSpace>
struct OrderParameterRecorder {
  using memory_space = typename ExecutionSpace::memory_space;
  using sum_view = Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, memory_space>;
  std::uint64_t interval = 0;
  OrderParameterSpec spec;
  sum_view sums;

  /// Attempts to run before the next measurement, from step `step`.
  std::uint64_t attempts_to_next(std::uint64_t step) const { return interval - step % interval; }

  template <class SpinView, class BinView>
  void measure(const ExecutionSpace& space, const SpinView& spins, const BinView& bins,
               std::uint64_t first_walker, std::uint64_t total_walkers, int groups,
               int nbins) const {
    using Kernel = MeasureOrderParameter<SpinView, BinView, sum_view>;
    Kernel kernel{spins,  bins,         sums,
                  spec,   first_walker, total_walkers,
                  groups, nbins,        static_cast<int>(spins.extent(0))};
    Kokkos::parallel_for(
        "portamc::muca::order_parameter",
        Kokkos::RangePolicy<ExecutionSpace>(space, 0, static_cast<std::int64_t>(spins.extent(1))),
        kernel);
  }
};

}  // namespace portamc::muca

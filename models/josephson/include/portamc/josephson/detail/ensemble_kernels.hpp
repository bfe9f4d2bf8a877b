#pragma once
// Device kernels of Ensemble (ensemble.hpp). Public functors, not lambdas in member
// functions, so that nvcc compiles their device code.
//
// The advance kernel runs one thread per slot. A slot holds one realisation's state
// (index, phi, v, step k) in registers while it integrates, one loop iteration per 4-step
// noise block: one Philox call gives the block's four normals, the bias is updated per block,
// and phi is compared with the threshold after every step. Global memory is touched when the
// launch starts and ends (the slot state) and when a realisation ends (its result); no atomics
// or reductions per step. A slot whose realisation ends takes the next unstarted one from a
// device counter within the same iteration (refill), so the threads of a warp keep running
// the same loop iterations; a slot with nothing left goes idle (realisation -1).
//
// The float step is bound by instruction issue on GPUs, so the chunked loop
// (AdvanceLoop::chunked) keeps the per-block work small: 32-bit loop state within runs of
// whole blocks, Philox with one PTX multiply per product and Box–Muller without subnormal
// handling on CUDA (noise.hpp). Per 4-step block of float Euler on sm_90 (cuobjdump -sass,
// path of a block with no escape) that is 186 instructions against 256 for the reference
// loop (AdvanceLoop::reference, the straightforward form, kept to compare with), at the
// price of 46 registers instead of 39 (1280 instead of 1536 resident threads per H200
// multiprocessor); in double 581 against 638. The pipelined loop (the default) is the
// chunked one with each whole block's four steps free of branches and the next block's
// noise computed alongside them, so that the scheduler can fill the steps' dependent chain
// (phi -> sin phi -> v -> phi) with independent work; it takes more registers (double Euler
// 92 against 80) and runs 2-8 % faster on an H200 (docs/performance.md). All loops give the
// same results bit for bit (test_josephson_ensemble, on every backend).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "portamc/josephson/detail/noise.hpp"
#include "portamc/josephson/ensemble_results.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"

namespace portamc::josephson {

// Device counters as std::uint64_t: Kokkos 4's CUDA atomics add natively only on fixed-width
// types; on unsigned long long they loop on compare-and-swap, and with every finishing thread
// of the GPU incrementing the same two counters that loop cost the refill schedule 3-5x.
using count_type = std::uint64_t;

/// The state of the slots (structure of arrays, indexed by slot).
template <class Real, class MemorySpace>
struct SlotViews {
  Kokkos::View<std::int64_t*, MemorySpace> realisation;  ///< -1: idle
  Kokkos::View<Real*, MemorySpace> phi, v;
  Kokkos::View<std::uint64_t*, MemorySpace> step;

  SlotViews() = default;
  SlotViews(const std::string& label, std::int64_t n)
      : realisation(label + "_realisation", n),
        phi(label + "_phi", n),
        v(label + "_v", n),
        step(label + "_step", n) {}
};

/// Per-realisation results (indexed by realisation), zero-initialised: Outcome::pending.
template <class Real, class MemorySpace>
struct ResultViews {
  Kokkos::View<std::uint64_t*, MemorySpace> steps;
  Kokkos::View<std::uint8_t*, MemorySpace> outcome;
  Kokkos::View<double*, MemorySpace> bias;
  Kokkos::View<Real*, MemorySpace> final_phi, final_v;

  ResultViews() = default;
  explicit ResultViews(std::int64_t n)
      : steps("josephson::result_steps", n),
        outcome("josephson::result_outcome", n),
        bias("josephson::result_bias", n),
        final_phi("josephson::result_phi", n),
        final_v("josephson::result_v", n) {}
};

/// Constants of the advance kernel that do not depend on the stepper.
template <class Real>
struct AdvanceConstants {
  std::uint64_t seed = 0;
  std::uint64_t first_realisation = 0;
  std::int64_t realisations = 0;
  std::uint64_t max_steps = 0;
  std::uint64_t steps_per_slot = 0;  ///< this launch's budget per slot
  Real phi0 = 0;                     ///< start phase
  Real threshold = 0;
  Real drive = 0;  ///< V0 gamma0 in Real (constant bias)
  // Ramp: the drive V0 gamma(t_k) is evaluated in double at the first step of every block
  // and stepped in Real within it (drive + j drive_step); see AdvanceKernel::drive_at.
  double V0 = 0, gamma0 = 0, nu = 0, h = 0;
  Real drive_step = 0;  ///< V0 nu h
  bool refill = true;
  bool probe = false;  ///< count the first wave of threads (ResidencyProbe)
};

/// Counters of a residency probe: a launch of the advance kernel over more slots than the
/// device runs at once, on dummy trajectories that neither escape nor end, so that every
/// thread does the same work. Threads that start before any thread has finished are the first
/// wave: the number of slots the device keeps resident for this very kernel (its register
/// use decides the occupancy), measured portably with two atomics per thread.
template <class MemorySpace>
struct ResidencyProbe {
  Kokkos::View<count_type, MemorySpace> first_wave;
  Kokkos::View<count_type, MemorySpace> finished;
};

/// The loop of the advance kernel. All give the same trajectories bit for bit; reference is
/// the straightforward loop with 64-bit bookkeeping in every block, kept to compare with
/// (tests, bench_josephson --loop); pipelined is the chunked loop with the next block's
/// noise computed while the current block steps (AdvanceKernel::advance_chunked).
enum class AdvanceLoop { chunked, reference, pipelined };

const char* to_string(AdvanceLoop loop);

/// A run of whole noise blocks in the chunked loop: the Philox counter of its next block
/// (rng::draw's layout: word 0 is bits 0..31 of the block index) and the blocks left.
struct Chunk {
  rng::Block counter;
  std::uint32_t left;
};

/// The block index of a chunk's next block.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t chunk_block(const Chunk& chunk) {
  return (static_cast<std::uint64_t>(chunk.counter[1] & 0xFFFFFFu) << 32) | chunk.counter[0];
}

/// One launch: every slot integrates up to steps_per_slot steps (see the header comment).
/// Ramp selects the time-dependent bias at compile time, so constant-bias kernels do no
/// per-block bias work at all. Loop selects the loop (AdvanceLoop). Noise is the precision in
/// which the normals are computed: Real, or float for a double trajectory
/// (EnsembleOptions::float_noise).
template <class Real, class MemorySpace, class Stepper, bool Ramp,
          AdvanceLoop Loop = AdvanceLoop::chunked, class Noise = Real>
struct AdvanceKernel {
  SlotViews<Real, MemorySpace> slots;
  ResultViews<Real, MemorySpace> results;
  Kokkos::View<count_type, MemorySpace> next_realisation;
  Kokkos::View<count_type, MemorySpace> finished;
  Stepper stepper;
  AdvanceConstants<Real> c;
  ResidencyProbe<MemorySpace> probe;

  /// The drive at the first step of a block. In float, stepping by j drive_step within the
  /// block adds at most one rounding of V0 gamma (relative 6e-8, the same size as rounding
  /// the double value itself) and keeps double arithmetic to one multiply-add per 4 steps.
  KOKKOS_INLINE_FUNCTION Real drive_at(std::uint64_t k) const {
    if constexpr (Ramp) {
      return static_cast<Real>(c.V0 * (c.gamma0 + c.nu * (static_cast<double>(k) * c.h)));
    } else {
      (void)k;
      return c.drive;
    }
  }

  /// Step j of a block whose first step has the drive drive0; true if phi then exceeds the
  /// threshold.
  KOKKOS_FORCEINLINE_FUNCTION bool step_escapes(int j, Real drive0, const NormalBlock<Noise>& noise,
                                                Real& phi, Real& v) const {
    const Real xi = static_cast<Real>(noise[j]);
    if constexpr (Ramp) {
      stepper.step(phi, v, drive0 + static_cast<Real>(j) * c.drive_step,
                   drive0 + static_cast<Real>(j + 1) * c.drive_step, xi);
    } else {
      stepper.step(phi, v, drive0, drive0, xi);
    }
    return phi > c.threshold;
  }

  /// Steps [first, last) of a noise block: returns the index after the last step taken,
  /// escaped telling whether phi crossed the threshold there. Whole blocks (all but the first
  /// and last of a launch) take the unguarded path.
  KOKKOS_INLINE_FUNCTION int integrate_block(std::uint64_t entity, std::uint64_t block, int first,
                                             int last, Real& phi, Real& v, bool& escaped) const {
    const NormalBlock<Noise> noise = noise_block<Noise>(c.seed, entity, block);
    const Real drive0 = drive_at(block * normals_per_block);
    escaped = false;
    if (first == 0 && last == normals_per_block) {
      PORTAMC_UNROLL
      for (int j = 0; j < normals_per_block; ++j) {
        if (step_escapes(j, drive0, noise, phi, v)) {
          escaped = true;
          return j + 1;
        }
      }
    } else {
      PORTAMC_UNROLL
      for (int j = 0; j < normals_per_block; ++j) {
        if (j >= first && j < last && step_escapes(j, drive0, noise, phi, v)) {
          escaped = true;
          return j + 1;
        }
      }
    }
    return last;
  }

  KOKKOS_INLINE_FUNCTION void record(std::int64_t r, bool escaped, Real phi, Real v,
                                     std::uint64_t k) const {
    results.steps(r) = k;
    results.outcome(r) = static_cast<std::uint8_t>(escaped ? Outcome::escaped : Outcome::censored);
    results.bias(r) = c.gamma0 + c.nu * (static_cast<double>(k) * c.h);
    results.final_phi(r) = phi;
    results.final_v(r) = v;
    Kokkos::atomic_add(&finished(), count_type(1));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot) const {
    if (c.probe && Kokkos::atomic_fetch_add(&probe.finished(), count_type(0)) == 0)
      Kokkos::atomic_add(&probe.first_wave(), count_type(1));
    if constexpr (Loop == AdvanceLoop::reference)
      advance_slot(slot);
    else
      advance_chunked(slot);
    if (c.probe) Kokkos::atomic_add(&probe.finished(), count_type(1));
  }

  /// One noise block, or the part of it in [k, min(k + budget, max_steps)), with 64-bit
  /// bookkeeping: advances k and spends budget; true if the realisation ended there (escaped
  /// set if by escape, else it reached max_steps). The whole of the reference loop's
  /// iteration; the chunked loop uses it for blocks at the edges of its chunks.
  KOKKOS_INLINE_FUNCTION bool edge_block(std::int64_t r, Real& phi, Real& v, std::uint64_t& k,
                                         std::uint64_t& budget, bool& escaped) const {
    const std::uint64_t block = k / normals_per_block;
    const int first = static_cast<int>(k - block * normals_per_block);
    std::uint64_t steps = static_cast<std::uint64_t>(normals_per_block - first);
    if (budget < steps) steps = budget;
    if (c.max_steps - k < steps) steps = c.max_steps - k;
    const int end = integrate_block(c.first_realisation + static_cast<std::uint64_t>(r), block,
                                    first, first + static_cast<int>(steps), phi, v, escaped);
    budget -= static_cast<std::uint64_t>(end - first);
    k = block * normals_per_block + static_cast<std::uint64_t>(end);
    return escaped || k == c.max_steps;
  }

  /// Records the realisation that ended and returns the slot's next one (-1: none), whose
  /// trajectory starts from rest at step 0.
  KOKKOS_INLINE_FUNCTION std::int64_t end_and_refill(std::int64_t r, bool escaped, Real& phi,
                                                     Real& v, std::uint64_t& k) const {
    record(r, escaped, phi, v, k);
    std::int64_t next = c.refill ? static_cast<std::int64_t>(
                                       Kokkos::atomic_fetch_add(&next_realisation(), count_type(1)))
                                 : -1;
    if (next >= c.realisations) next = -1;
    phi = c.phi0;
    v = 0;
    k = 0;
    return next;
  }

  /// The reference loop (AdvanceLoop::reference): one loop iteration per noise block with
  /// 64-bit step bookkeeping in every iteration, and a realisation that ends is replaced
  /// within the iteration: the threads of a warp run the same iterations and stay converged
  /// (a thread leaving an inner loop early would wait at its exit for the slowest one of its
  /// warp). Step k draws word k % 4 of block k / 4 wherever launches begin and end, so
  /// trajectories do not depend on steps_per_slot.
  ///
  /// The loop is left only through its condition. A `break` inside the refill branch would
  /// make the loop's exit the first point every path of that branch passes through, and the
  /// GPU compiler reconverges a warp there: a thread that refilled would then run all later
  /// iterations apart from the rest of its warp, and the warp would split a little further at
  /// every refill (measured: refill 3x slower than one realisation per thread on an H200).
  /// Without it, the branch rejoins at the end of the body, every iteration.
  KOKKOS_INLINE_FUNCTION void advance_slot(const std::int64_t slot) const {
    std::int64_t r = slots.realisation(slot);
    Real phi = slots.phi(slot);
    Real v = slots.v(slot);
    std::uint64_t k = slots.step(slot);
    std::uint64_t budget = c.steps_per_slot;
    while (r >= 0 && budget > 0) {
      bool escaped;
      if (edge_block(r, phi, v, k, budget, escaped)) r = end_and_refill(r, escaped, phi, v, k);
    }
    slots.realisation(slot) = r;
    slots.phi(slot) = phi;
    slots.v(slot) = v;
    slots.step(slot) = k;
  }

  /// Whole noise blocks a realisation at step k may run with 32-bit bookkeeping: blocks that
  /// neither reach max_steps nor use the last step of the budget (those are edge blocks, so
  /// that a chunk never ends a realisation or the launch except by escape), and whose
  /// counter word 0 (block bits 0..31) does not wrap. Moves k and budget to the chunk's end
  /// and sets the chunk's Philox counter (rng::draw's layout for block k / 4).
  KOKKOS_INLINE_FUNCTION void plan_chunk(std::uint64_t& k, std::uint64_t& budget,
                                         Chunk& chunk) const {
    chunk.left = 0;
    const std::uint64_t block = k / normals_per_block;
    const auto word0 = static_cast<std::uint32_t>(block);
    chunk.counter[0] = word0;
    chunk.counter[1] = static_cast<std::uint32_t>((block >> 32) & 0xFFFFFFu) |
                       (std::uint32_t{rng::purpose_josephson_noise} << 24);
    if (budget == 0 || k % normals_per_block != 0) return;
    std::uint64_t room = budget - 1;  // plain comparisons: Kokkos 3.4 has no Kokkos::min
    if (c.max_steps - k - 1 < room) room = c.max_steps - k - 1;
    std::uint64_t blocks = room / normals_per_block;
    if (blocks > 0xFFFFFFFFu - word0) blocks = 0xFFFFFFFFu - word0;
    chunk.left = static_cast<std::uint32_t>(blocks);
    k += blocks * normals_per_block;
    budget -= blocks * normals_per_block;
  }

  /// The realisation's RNG entity in counter words 2 and 3 (rng::draw's layout), which is
  /// where the chunked loop keeps the realisation index: one copy in registers, not two.
  KOKKOS_FORCEINLINE_FUNCTION void set_realisation(Chunk& chunk, std::int64_t r) const {
    const std::uint64_t entity = c.first_realisation + static_cast<std::uint64_t>(r);
    chunk.counter[2] = static_cast<std::uint32_t>(entity);
    chunk.counter[3] = static_cast<std::uint32_t>(entity >> 32);
  }
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t realisation(const Chunk& chunk) const {
    return static_cast<std::int64_t>(
        ((static_cast<std::uint64_t>(chunk.counter[3]) << 32) | chunk.counter[2]) -
        c.first_realisation);
  }

  /// The four steps of a whole block without a branch: every step is computed, and a step
  /// after the escape leaves phi and v as they were (a select), so phi and v are those of the
  /// escape step, bit for bit as in the branching loop. Returns the index of the escape step,
  /// or normals_per_block if none. With no branch inside, the block is one basic block in
  /// which the compiler can interleave the steps' dependent chain with independent work (the
  /// next block's noise, AdvanceLoop::pipelined).
  KOKKOS_FORCEINLINE_FUNCTION int whole_block_unbranched(Real drive0,
                                                         const NormalBlock<Noise>& noise, Real& phi,
                                                         Real& v) const {
    int escape = normals_per_block;
    PORTAMC_UNROLL
    for (int j = 0; j < normals_per_block; ++j) {
      Real p = phi, w = v;
      const Real xi = static_cast<Real>(noise[j]);
      if constexpr (Ramp) {
        stepper.step(p, w, drive0 + static_cast<Real>(j) * c.drive_step,
                     drive0 + static_cast<Real>(j + 1) * c.drive_step, xi);
      } else {
        stepper.step(p, w, drive0, drive0, xi);
      }
      const bool live = escape == normals_per_block;
      phi = live ? p : phi;
      v = live ? w : v;
      escape = (live && p > c.threshold) ? j : escape;
    }
    return escape;
  }

  /// The chunked loop (AdvanceLoop::chunked, the default): the same trajectories, bit for
  /// bit, as advance_slot, with less bookkeeping per block. A realisation runs in chunks of
  /// whole blocks (plan_chunk) whose loop state is two 32-bit words: the blocks left and the
  /// Philox counter's word 0, which is the block index itself. k and the budget are moved to
  /// the chunk's end when it is planned and corrected only if the realisation escapes within
  /// it; the blocks at a chunk's edges (a launch starting or ending inside a block, the last
  /// step of the budget, the block that reaches max_steps) go through edge_block. As in
  /// advance_slot, every iteration is one block, a realisation that ends is replaced within
  /// the iteration, and the loop is left only through its condition, so warps stay converged.
  /// The realisation index lives in the counter's entity words (set_realisation), and idle
  /// slots are marked by a flag, so no register holds it twice.
  KOKKOS_INLINE_FUNCTION void advance_chunked(const std::int64_t slot) const {
    const std::int64_t first = slots.realisation(slot);
    Real phi = slots.phi(slot);
    Real v = slots.v(slot);
    std::uint64_t k = slots.step(slot);       // the step after the current chunk
    std::uint64_t budget = c.steps_per_slot;  // steps not given to a chunk yet
    const auto key0 = static_cast<std::uint32_t>(c.seed);
    const auto key1 = static_cast<std::uint32_t>(c.seed >> 32);
    Chunk chunk;
    chunk.left = 0;
    set_realisation(chunk, first);
    bool idle = first < 0;
    bool active = !idle && budget > 0;
    // Pipelined: `noise` holds the current block's normals when `ready`, computed in the
    // previous iteration next to its steps (wasted once per chunk: at its last block the next
    // one is an edge block, which draws its own).
    NormalBlock<Noise> noise{};
    bool ready = false;
    while (active) {
      bool escaped = false, ended;
      if (chunk.left != 0) {
        Real drive0 = c.drive;
        if constexpr (Ramp) drive0 = drive_at(chunk_block(chunk) * normals_per_block);
        int j = 0;
        if constexpr (Loop == AdvanceLoop::pipelined) {
          if (!ready)
            noise = normals_from_words<Noise, true>(rng::philox4x32_10(chunk.counter, key0, key1));
          rng::Block following = chunk.counter;
          ++following[0];
          const NormalBlock<Noise> next =
              normals_from_words<Noise, true>(rng::philox4x32_10(following, key0, key1));
          j = whole_block_unbranched(drive0, noise, phi, v);
          escaped = j < normals_per_block;
          noise = next;
          ready = !escaped && chunk.left > 1;
        } else {
          const NormalBlock<Noise> current =
              normals_from_words<Noise, true>(rng::philox4x32_10(chunk.counter, key0, key1));
          PORTAMC_UNROLL
          for (; j < normals_per_block; ++j)
            if (step_escapes(j, drive0, current, phi, v)) {
              escaped = true;
              break;
            }
        }
        --chunk.left;
        if (escaped) {
          // Give back the steps of the chunk not taken; k is the step after the escape.
          k = chunk_block(chunk) * normals_per_block + static_cast<std::uint64_t>(j + 1);
          budget += std::uint64_t{chunk.left} * normals_per_block +
                    static_cast<std::uint64_t>(normals_per_block - 1 - j);
          chunk.left = 0;
        }
        ++chunk.counter[0];
        ended = escaped;
      } else {
        ended = edge_block(realisation(chunk), phi, v, k, budget, escaped);
        if (!ended) {
          plan_chunk(k, budget, chunk);
          active = budget > 0;  // a planned chunk always leaves a step of the budget
        }
      }
      if (ended) {
        const std::int64_t next = end_and_refill(realisation(chunk), escaped, phi, v, k);
        idle = next < 0;
        set_realisation(chunk, next);
        plan_chunk(k, budget, chunk);
        active = !idle && budget > 0;
      }
    }
    slots.realisation(slot) = idle ? -1 : realisation(chunk);
    slots.phi(slot) = phi;
    slots.v(slot) = v;
    slots.step(slot) = k;
  }
};

/// Initial assignment: slot s runs realisation s (all of them with one_per_thread), from rest
/// at the well bottom; slots beyond the realisations are idle.
template <class Real, class MemorySpace>
struct InitialiseSlots {
  SlotViews<Real, MemorySpace> slots;
  std::int64_t realisations = 0;
  Real phi0 = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s) const {
    slots.realisation(s) = s < realisations ? s : -1;
    slots.phi(s) = phi0;
    slots.v(s) = 0;
    slots.step(s) = 0;
  }
};

/// Packs the busy slots of [0, n) to the front of `to` (a scan over busy flags; MarkIdle then
/// clears the rest). Results do not change: a realisation continues from its state wherever
/// it sits.
template <class Real, class MemorySpace>
struct CompactSlots {
  SlotViews<Real, MemorySpace> from, to;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s, std::int64_t& position,
                                         const bool final) const {
    if (from.realisation(s) < 0) return;
    if (final) {
      to.realisation(position) = from.realisation(s);
      to.phi(position) = from.phi(s);
      to.v(position) = from.v(s);
      to.step(position) = from.step(s);
    }
    ++position;
  }
};

template <class Real, class MemorySpace>
struct MarkIdle {
  SlotViews<Real, MemorySpace> slots;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s) const { slots.realisation(s) = -1; }
};

/// Steps of the finished realisations.
template <class Real, class MemorySpace>
struct FinishedSteps {
  ResultViews<Real, MemorySpace> results;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r, count_type& sum) const {
    if (results.outcome(r) != static_cast<std::uint8_t>(Outcome::pending)) sum += results.steps(r);
  }
};

/// Steps of the realisations in flight.
template <class Real, class MemorySpace>
struct InFlightSteps {
  SlotViews<Real, MemorySpace> slots;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t s, count_type& sum) const {
    if (slots.realisation(s) >= 0) sum += slots.step(s);
  }
};

}  // namespace portamc::josephson

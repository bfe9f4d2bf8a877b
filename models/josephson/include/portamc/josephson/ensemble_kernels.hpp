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
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "portamc/josephson/ensemble_results.hpp"
#include "portamc/josephson/noise.hpp"
#include "portamc/kokkos_compat.hpp"

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

/// One launch: every slot integrates up to steps_per_slot steps (see the header comment).
/// Ramp selects the time-dependent bias at compile time, so constant-bias kernels do no
/// per-block bias work at all.
template <class Real, class MemorySpace, class Stepper, bool Ramp>
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
  KOKKOS_FORCEINLINE_FUNCTION bool step_escapes(int j, Real drive0, const NormalBlock<Real>& noise,
                                                Real& phi, Real& v) const {
    if constexpr (Ramp) {
      stepper.step(phi, v, drive0 + static_cast<Real>(j) * c.drive_step,
                   drive0 + static_cast<Real>(j + 1) * c.drive_step, noise[j]);
    } else {
      stepper.step(phi, v, drive0, drive0, noise[j]);
    }
    return phi > c.threshold;
  }

  /// Steps [first, last) of a noise block: returns the index after the last step taken,
  /// escaped telling whether phi crossed the threshold there. Whole blocks (all but the first
  /// and last of a launch) take the unguarded path.
  KOKKOS_INLINE_FUNCTION int integrate_block(std::uint64_t entity, std::uint64_t block, int first,
                                             int last, Real& phi, Real& v, bool& escaped) const {
    const NormalBlock<Real> noise = noise_block<Real>(c.seed, entity, block);
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
    advance_slot(slot);
    if (c.probe) Kokkos::atomic_add(&probe.finished(), count_type(1));
  }

  /// One loop iteration per noise block, and a realisation that ends is replaced within the
  /// iteration: the threads of a warp run the same iterations and stay converged (a thread
  /// leaving an inner loop early would wait at its exit for the slowest one of its warp).
  /// Step k draws word k % 4 of block k / 4 wherever launches begin and end, so trajectories
  /// do not depend on steps_per_slot.
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
      const std::uint64_t block = k / normals_per_block;
      const int first = static_cast<int>(k - block * normals_per_block);
      std::uint64_t steps = static_cast<std::uint64_t>(normals_per_block - first);
      if (budget < steps) steps = budget;
      if (c.max_steps - k < steps) steps = c.max_steps - k;
      bool escaped;
      const int end = integrate_block(c.first_realisation + static_cast<std::uint64_t>(r), block,
                                      first, first + static_cast<int>(steps), phi, v, escaped);
      budget -= static_cast<std::uint64_t>(end - first);
      k = block * normals_per_block + static_cast<std::uint64_t>(end);
      if (escaped || k == c.max_steps) {
        record(r, escaped, phi, v, k);
        r = c.refill ? static_cast<std::int64_t>(
                           Kokkos::atomic_fetch_add(&next_realisation(), count_type(1)))
                     : -1;
        if (r >= c.realisations) r = -1;
        phi = c.phi0;
        v = 0;
        k = 0;
      }
    }
    slots.realisation(slot) = r;
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

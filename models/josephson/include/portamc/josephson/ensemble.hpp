#pragma once
// An ensemble of Langevin realisations with early termination: first-passage (escape) times
// at constant bias, switching biases under a ramp, or the state at a fixed time (threshold
// = +infinity, every realisation censored at max_steps).
//
// Work distribution. A fixed number of slots (concurrent trajectories) live on the device.
// advance(n) is one kernel launch in which every slot integrates up to n steps; a slot whose
// realisation escapes or reaches the cap writes its result and, with Schedule::refill, takes
// the next unstarted realisation from a device counter within the same launch, so no thread
// waits for the slowest trajectory of its warp (the paper's dynamic assignment).
// Schedule::one_per_thread gives every realisation its own slot and never refills: the static
// assignment to compare with. Between launches the host can report progress, check signals
// and write checkpoints; run() loops advance() until every realisation is finished.
//
// The tail of a run: once no unstarted realisation is left, refill ensembles pack the busy
// slots to the front before a launch when fewer than compact_below of the launched ones are
// busy, so that warps stay full of live trajectories instead of mostly idle lanes, and run()
// shortens its launches to a quarter so that packing follows the shrinking set closely. (A
// scheduling model of the benchmark's 2^20 realisations on an H200, exponential escape times
// capped as there, puts the useful fraction of the device's time at about 0.9 this way, 0.7
// without packing and 0.45 for one realisation per thread.)
//
// Reproducibility: a realisation's trajectory depends only on (seed, first_realisation + its
// index) (noise.hpp), so the results are bitwise independent of the schedule, the slot count,
// the launch lengths, the thread count and checkpoint/restore, and agree across backends up
// to the compilers' contraction of multiply-adds.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/backends.hpp"
#include "portamc/josephson/detail/ensemble_kernels.hpp"
#include "portamc/josephson/ensemble_results.hpp"
#include "portamc/josephson/forces.hpp"
#include "portamc/josephson/parameters.hpp"

namespace portamc::josephson {

enum class Schedule { refill, one_per_thread };

const char* to_string(Schedule schedule);

struct EnsembleOptions {
  Schedule schedule = Schedule::refill;
  /// refill: concurrent trajectories; 0: as many as the device keeps resident for this
  /// kernel, measured at construction by a short probe launch (ResidencyProbe in
  /// ensemble_kernels.hpp), so that every launch is one full wave of threads.
  /// one_per_thread: ignored (one slot per realisation).
  std::int64_t slots = 0;
  /// Steps per slot in each launch of run() (>= 1). Small enough that a launch takes a
  /// fraction of a second on a GPU, large enough that launch overheads do not show.
  std::uint64_t steps_per_launch = std::uint64_t{1} << 16;
  /// refill: pack the busy slots once fewer than this fraction of the launched slots are busy
  /// and nothing is left to refill them; 0 never packs. In [0, 1].
  double compact_below = 0.75;
  /// The advance kernel's loop (ensemble_kernels.hpp); all give the same results bit for
  /// bit. pipelined is the fastest measured (H200, refill, scattered workload: float Euler
  /// 470 -> 503, double 137 -> 140, double Heun 103 -> 111 x 10^9 steps/s against chunked).
  AdvanceLoop loop = AdvanceLoop::pipelined;
  /// Double trajectories only: compute the normals in float (the float kernel's Box–Muller,
  /// converted exactly to double) while phi, v and the bias stay in double. The normals come
  /// from 32-bit words either way; in float they carry a relative rounding of ~6e-8, far
  /// below any statistic an ensemble resolves, and the FP64 log, sqrt and sin/cos of the
  /// transform, about 40 % of a double step's FP64 work, disappear. Off by default: the
  /// trajectories are then a different (equally valid) chain for the same seed. No effect
  /// on float ensembles.
  bool float_noise = false;

  /// Throws std::invalid_argument naming the offending option.
  void validate() const;
};

/// The most threads the execution space can run at once: on a GPU the resident threads of
/// all multiprocessors at full occupancy, on a CPU the thread count. A kernel's register use
/// may allow fewer; the ensemble measures its own (EnsembleOptions::slots).
template <class ExecutionSpace>
std::int64_t concurrency_of(const ExecutionSpace& space) {
  return space.concurrency() > 0 ? static_cast<std::int64_t>(space.concurrency()) : 1;
}

/// The ensemble on execution space `ExecutionSpace` (any backend of the build,
/// portamc/backends.hpp): every kernel runs on the instance it was made with, and its views
/// live in that space's memory.
template <class ExecutionSpace, class Real = double,
          template <class> class ForcePolicy = WashboardForce>
class Ensemble {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using real_type = Real;

  /// Validates parameters and options (std::invalid_argument) and places every realisation
  /// it can in a slot, at rest at the well bottom (step 0), on `space`.
  Ensemble(const ExecutionSpace& space, const LangevinParameters& params,
           const EnsembleOptions& options = {});

  /// The execution-space instance every kernel of this ensemble runs on.
  const ExecutionSpace& space() const { return space_; }

  const LangevinParameters& parameters() const { return params_; }
  const EnsembleOptions& options() const { return options_; }
  std::int64_t slot_count() const { return slot_count_; }
  /// Slots launched by the next advance() (fewer than slot_count() after packing).
  std::int64_t active_slots() const { return active_slots_; }

  /// One launch in which every slot integrates up to steps_per_slot (>= 1) steps, refilling
  /// as it goes. Waits for the launch, so the counters below are current.
  void advance(std::uint64_t steps_per_slot);
  /// advance(options().steps_per_launch) until done(); once every realisation has started,
  /// launches of a quarter of that (at least 1 step).
  void run();

  std::uint64_t realisations() const { return params_.realisations; }
  /// Realisations finished (escaped or censored).
  std::uint64_t finished() const { return finished_; }
  bool done() const { return finished_ == params_.realisations; }
  /// Steps integrated so far, summed over the realisations (finished and in flight); idle
  /// slots count nothing. A reduction on the device.
  std::uint64_t steps_integrated() const;

  /// Launches the residency probe (ResidencyProbe in ensemble_kernels.hpp) and returns how
  /// many threads of this ensemble's kernel the device ran at once: the default slot count
  /// on a GPU. Leaves the ensemble's state alone. For diagnostics and tests.
  std::int64_t probe_residency();

  /// Per-realisation results so far (copies from the device).
  EnsembleResults results() const;
  /// The full state: slots, counter and results so far.
  EnsembleCheckpoint checkpoint() const;
  /// Continues from a checkpoint of an ensemble with the same parameters, schedule and slot
  /// count; the run then proceeds bit for bit as if never interrupted. Throws
  /// std::invalid_argument for a checkpoint that does not fit.
  void restore(const EnsembleCheckpoint& state);

 private:
  AdvanceConstants<Real> constants(std::uint64_t steps_per_slot) const;
  void launch(const SlotViews<Real, memory_space>& slots, std::int64_t count,
              const AdvanceConstants<Real>& c, const ResidencyProbe<memory_space>& probe);
  std::int64_t measure_resident_slots();
  void refresh_counters();
  void compact_if_due();

  LangevinParameters params_;
  EnsembleOptions options_;
  ExecutionSpace space_;
  std::int64_t slot_count_ = 0;
  std::int64_t active_slots_ = 0;
  SlotViews<Real, memory_space> slots_, spare_slots_;
  ResultViews<Real, memory_space> results_;
  Kokkos::View<count_type, memory_space> next_realisation_;
  Kokkos::View<count_type, memory_space> finished_count_;
  std::uint64_t next_ = 0;      // host copy of next_realisation_ after the last launch
  std::uint64_t finished_ = 0;  // host copy of finished_count_
};

// The washboard in float and double, instantiated once per backend of the build
// (src/ensemble_float.cpp, src/ensemble_double.cpp).
#define PORTAMC_JOSEPHSON_EXTERN_(Space)                        \
  extern template class Ensemble<Space, float, WashboardForce>; \
  extern template class Ensemble<Space, double, WashboardForce>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_JOSEPHSON_EXTERN_)
#undef PORTAMC_JOSEPHSON_EXTERN_

}  // namespace portamc::josephson

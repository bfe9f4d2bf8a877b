#pragma once
// Monte Carlo updates of a GaugeField with the Wilson action S = beta sum_p (1 - ½ Tr U_p):
// heatbath and overrelaxation sweeps, each a sequence of checkerboard passes
// (mu = 0..D-1, parity even then odd), and the schedule "n_hb heatbath + n_or
// overrelaxation sweeps" of one update().
//
// Reproducibility: the heatbath draws for link l in heatbath sweep n are a pure function of
// (seed, l, n) (heatbath_sampling.hpp), overrelaxation draws nothing. The state of a run is
// the configuration plus heatbath_sweeps_done(); results do not depend on the backend or
// thread count beyond rounding.
//
// Reunitarisation: update kernels write normalised links (the normalisation is folded into
// the staple division, see update_kernels.hpp), so links stay unitary to rounding without a
// separate pass; reunitarise_every > 0 adds a full pass after every that many update()s.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/backends.hpp"
#include "portamc/histogram.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/detail/heatbath_sampling.hpp"
#include "portamc/su2/detail/reductions.hpp"
#include "portamc/su2/gauge_field.hpp"

namespace portamc::su2 {

/// How a heatbath pass schedules its retries; both give the same links bit for bit.
enum class HeatbathKernelVariant : int {
  /// One thread per link, retrying in place (update_kernels.hpp). On GPUs a warp waits for
  /// its slowest link's retries.
  per_link = 0,
  /// Links rejected at their first proposal are queued in team scratch and retried
  /// together by the first threads of the team (queued_heatbath_kernel.hpp).
  retry_queue = 1,
};

struct UpdateParameters {
  double beta = 2.3;  ///< > 0
  std::uint64_t seed = 1;
  int heatbath_sweeps = 1;        ///< n_hb per update(), >= 0
  int overrelaxation_sweeps = 0;  ///< n_or per update(), >= 0
  HeatbathMethod method = HeatbathMethod::automatic;
  /// automatic method: Kennedy–Pendleton for alpha = beta |W| >= this, Creutz below.
  double kp_threshold = acceptance_crossover_alpha;
  /// a0 proposals per link before it is left unchanged (1 .. max_heatbath_attempts).
  int max_attempts = 64;
  int reunitarise_every = 0;  ///< full reunitarisation pass every n update()s; 0 = never
  /// Tally proposals and methods per link with a reduction (diagnostics; about halves the
  /// heatbath's GPU throughput). Links and failures are counted either way.
  bool count_attempts = false;
  /// Heatbath kernel; count_attempts always uses the per_link one (diagnostics only).
  HeatbathKernelVariant heatbath_variant = HeatbathKernelVariant::per_link;

  /// Throws std::invalid_argument naming the offending parameter.
  void validate() const;
};

/// One update of the schedule, shared by Updater and DistributedUpdater: params.heatbath_sweeps
/// heatbath sweeps, params.overrelaxation_sweeps overrelaxation sweeps, then a reunitarisation
/// of the field when the update count `updates` (incremented here) reaches a multiple of
/// params.reunitarise_every.
template <class SweepUpdater, class Field>
void run_update_schedule(SweepUpdater& updater, Field& field, const UpdateParameters& params,
                         std::uint64_t& updates) {
  for (int i = 0; i < params.heatbath_sweeps; ++i) updater.heatbath_sweep(field);
  for (int i = 0; i < params.overrelaxation_sweeps; ++i) updater.overrelaxation_sweep(field);
  ++updates;
  if (params.reunitarise_every > 0 &&
      updates % static_cast<std::uint64_t>(params.reunitarise_every) == 0)
    field.reunitarise();
}

template <class ExecutionSpace, class Real = double>
class Updater {
 public:
  using field_type = GaugeField<ExecutionSpace, Real>;

  /// Validates the parameters (std::invalid_argument). The sweeps run on `space`: give it the
  /// instance of the fields it updates (field.space()), or one ordered with it by the caller.
  Updater(const ExecutionSpace& space, const UpdateParameters& params);

  const UpdateParameters& parameters() const { return params_; }
  const ExecutionSpace& space() const { return space_; }

  // Sweeps are enqueued on space() without waiting for them: the heatbath counters
  // stay on the device until tally() is asked for, so kernels run back to back.

  /// One heatbath sweep over all links.
  void heatbath_sweep(field_type& field);
  /// One overrelaxation sweep over all links.
  void overrelaxation_sweep(field_type& field);
  /// n_hb heatbath sweeps, then n_or overrelaxation sweeps, then reunitarisation if due.
  void update(field_type& field);

  /// Heatbath sweeps done so far: the RNG step counter. Set it to continue a saved run.
  std::uint64_t heatbath_sweeps_done() const { return heatbath_sweeps_; }
  void set_heatbath_sweeps_done(std::uint64_t sweeps);
  std::uint64_t updates_done() const { return updates_; }

  /// Sum of the heatbath tallies since construction or reset_tally() (waits for the device).
  HeatbathTally tally() const;
  void reset_tally();

 private:
  using memory_space = typename ExecutionSpace::memory_space;
  using tally_view = Kokkos::View<HeatbathTally, memory_space>;

  ExecutionSpace space_;
  UpdateParameters params_;
  std::uint64_t heatbath_sweeps_ = 0;
  std::uint64_t updates_ = 0;
  std::uint64_t links_updated_ = 0;  // since reset_tally()
  Kokkos::View<count_type, memory_space> failures_;
  // count_attempts: one reduction target per checkerboard pass of a sweep, summed into
  // counted_ by a one-thread kernel after the sweep: no host round trip between passes.
  Kokkos::Array<tally_view, 2 * Geometry::max_dimensions> pass_tallies_;
  tally_view counted_;
};

/// Adds the pass tallies of one heatbath sweep to the running total (one thread).
template <class MemorySpace>
struct TallyAccumulator {
  Kokkos::Array<Kokkos::View<HeatbathTally, MemorySpace>, 2 * Geometry::max_dimensions> passes;
  Kokkos::View<HeatbathTally, MemorySpace> total;
  int count = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    HeatbathTally sum = total();
    for (int i = 0; i < count; ++i) sum += passes[i]();
    total() = sum;
  }
};

#define PORTAMC_SU2_UPDATER_(Space)            \
  extern template class Updater<Space, float>; \
  extern template class Updater<Space, double>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_UPDATER_)
#undef PORTAMC_SU2_UPDATER_

}  // namespace portamc::su2

#pragma once
// Definitions of Ensemble's members. src/ensemble_*.cpp instantiate them for the washboard
// in float and double; code that needs another force policy (tests: HarmonicForce) includes
// this header to instantiate its own.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "portamc/device_info.hpp"
#include "portamc/josephson/detail/integrators.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "portamc/kokkos_compat.hpp"

namespace portamc::josephson {

/// Launch policy of the advance kernel. A static schedule on host backends: every busy slot
/// has the same budget, so one slot per thread and launch is balanced, where a dynamic
/// schedule could hand a thread that starts early a second slot and double the launch time.
///
/// On GPUs the register count of the advance kernel sets how many slots are resident (float
/// ~40 registers: 1536 threads per H200 multiprocessor, double: 640). Compiling with
/// PORTAMC_JOSEPHSON_MIN_BLOCKS_FLOAT / _DOUBLE = B asks the compiler for B blocks of 128
/// threads per multiprocessor (fewer registers, possibly spills): a tuning knob for
/// benchmarks, 0 (the default) leaves the compiler's choice.
#ifndef PORTAMC_JOSEPHSON_MIN_BLOCKS_FLOAT
#define PORTAMC_JOSEPHSON_MIN_BLOCKS_FLOAT 0
#endif
#ifndef PORTAMC_JOSEPHSON_MIN_BLOCKS_DOUBLE
#define PORTAMC_JOSEPHSON_MIN_BLOCKS_DOUBLE 0
#endif
template <class Real>
inline constexpr unsigned advance_min_blocks =
    std::is_same_v<Real, float> ? PORTAMC_JOSEPHSON_MIN_BLOCKS_FLOAT
                                : PORTAMC_JOSEPHSON_MIN_BLOCKS_DOUBLE;

/// A type as a value, to pass one through a generic lambda.
template <class T>
struct type_tag {
  using type = T;
};

template <class ExecutionSpace, class Real>
using AdvancePolicy =
    std::conditional_t<advance_min_blocks<Real> == 0,
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>,
                                           Kokkos::Schedule<Kokkos::Static>>,
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>,
                                           Kokkos::Schedule<Kokkos::Static>,
                                           Kokkos::LaunchBounds<128, advance_min_blocks<Real>>>>;

template <class ExecutionSpace>
using PlainPolicy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;

namespace detail {

[[noreturn]] inline void bad_checkpoint(const std::string& what) {
  throw std::invalid_argument("josephson ensemble restore: " + what);
}

inline void require_size(const char* name, std::size_t size, std::size_t expected) {
  if (size != expected) {
    std::ostringstream s;
    s << name << " has " << size << " entries, expected " << expected;
    bad_checkpoint(s.str());
  }
}

template <class Real>
Real exact_real(const char* name, std::size_t i, double x) {
  const Real r = static_cast<Real>(x);
  if (!(static_cast<double>(r) == x)) {
    std::ostringstream s;
    s.precision(17);
    s << name << "[" << i << "] = " << x << " is not a value of the ensemble's "
      << (std::is_same_v<Real, float> ? "float" : "double")
      << " state (a checkpoint of another precision?)";
    bad_checkpoint(s.str());
  }
  return r;
}

}  // namespace detail

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
Ensemble<ExecutionSpace, Real, ForcePolicy>::Ensemble(const ExecutionSpace& space,
                                                      const LangevinParameters& params,
                                                      const EnsembleOptions& options)
    : params_(params), options_(options), space_(space) {
  params_.validate();
  options_.validate();
  const auto n = static_cast<std::int64_t>(params_.realisations);
  if (options_.schedule == Schedule::one_per_thread) {
    slot_count_ = n;
  } else {
    const std::int64_t wanted = options_.slots > 0 ? options_.slots : measure_resident_slots();
    slot_count_ = std::min(wanted, n);
  }
  if constexpr (is_device_space_v<ExecutionSpace>) {
    const bool spare = options_.schedule == Schedule::refill && options_.compact_below > 0;
    const std::size_t slot_bytes = 2 * sizeof(std::int64_t) + 2 * sizeof(Real);
    const std::size_t result_bytes = sizeof(std::uint64_t) + 1 + sizeof(double) + 2 * sizeof(Real);
    require_memory<ExecutionSpace>(
        static_cast<std::size_t>(slot_count_) * slot_bytes * (spare ? 2 : 1) +
            static_cast<std::size_t>(n) * result_bytes,
        "josephson ensemble of " + std::to_string(n) + " realisations");
  }
  slots_ = SlotViews<Real, memory_space>("josephson::slots", slot_count_);
  if (options_.schedule == Schedule::refill && options_.compact_below > 0)
    spare_slots_ = SlotViews<Real, memory_space>("josephson::spare_slots", slot_count_);
  results_ = ResultViews<Real, memory_space>(n);
  next_realisation_ = Kokkos::View<count_type, memory_space>("josephson::next_realisation");
  finished_count_ = Kokkos::View<count_type, memory_space>("josephson::finished");
  Kokkos::parallel_for(
      "josephson::initialise_slots", PlainPolicy<ExecutionSpace>(space_, 0, slot_count_),
      InitialiseSlots<Real, memory_space>{slots_, n, static_cast<Real>(params_.start_phase())});
  next_ = static_cast<std::uint64_t>(slot_count_);
  Kokkos::deep_copy(space_, next_realisation_, static_cast<count_type>(next_));
  space_.fence();
  active_slots_ = slot_count_;
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
void Ensemble<ExecutionSpace, Real, ForcePolicy>::refresh_counters() {
  count_type next = 0, finished = 0;
  Kokkos::deep_copy(space_, next, next_realisation_);
  Kokkos::deep_copy(space_, finished, finished_count_);
  space_.fence();
  next_ = next;
  finished_ = finished;
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
void Ensemble<ExecutionSpace, Real, ForcePolicy>::compact_if_due() {
  if (options_.schedule != Schedule::refill || options_.compact_below <= 0) return;
  if (next_ < params_.realisations) return;  // slots still refill themselves
  const auto busy = static_cast<std::int64_t>(params_.realisations - finished_);
  if (busy == 0 ||
      static_cast<double>(busy) >= options_.compact_below * static_cast<double>(active_slots_))
    return;
  std::int64_t packed = 0;
  Kokkos::parallel_scan("josephson::compact_slots",
                        PlainPolicy<ExecutionSpace>(space_, 0, active_slots_),
                        CompactSlots<Real, memory_space>{slots_, spare_slots_}, packed);
  Kokkos::parallel_for("josephson::mark_idle",
                       PlainPolicy<ExecutionSpace>(space_, packed, slot_count_),
                       MarkIdle<Real, memory_space>{spare_slots_});
  space_.fence();
  if (packed != busy) throw std::logic_error("josephson ensemble: busy slot count mismatch");
  std::swap(slots_, spare_slots_);
  active_slots_ = packed;
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
AdvanceConstants<Real> Ensemble<ExecutionSpace, Real, ForcePolicy>::constants(
    std::uint64_t steps_per_slot) const {
  AdvanceConstants<Real> c;
  c.seed = params_.seed;
  c.first_realisation = params_.first_realisation;
  c.realisations = static_cast<std::int64_t>(params_.realisations);
  c.max_steps = params_.max_steps;
  c.steps_per_slot = steps_per_slot;
  c.phi0 = static_cast<Real>(params_.start_phase());
  c.threshold = static_cast<Real>(params_.escape_threshold());
  c.drive = static_cast<Real>(params_.V0 * params_.gamma0);
  c.V0 = params_.V0;
  c.gamma0 = params_.gamma0;
  c.nu = params_.nu;
  c.h = params_.h;
  c.drive_step = static_cast<Real>(params_.V0 * params_.nu * params_.h);
  c.refill = options_.schedule == Schedule::refill;
  return c;
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
void Ensemble<ExecutionSpace, Real, ForcePolicy>::launch(
    const SlotViews<Real, memory_space>& slots, std::int64_t count, const AdvanceConstants<Real>& c,
    const ResidencyProbe<memory_space>& probe) {
  const AdvancePolicy<ExecutionSpace, Real> policy(space_, 0, count);
  with_stepper<Real, ForcePolicy>(params_, [&](const auto stepper) {
    using Stepper = std::decay_t<decltype(stepper)>;
    auto run_with_noise = [&](auto ramp, auto loop, auto noise) {
      Kokkos::parallel_for(
          ramp ? "josephson::advance_ramp" : "josephson::advance", policy,
          AdvanceKernel<Real, memory_space, Stepper, decltype(ramp)::value, decltype(loop)::value,
                        typename decltype(noise)::type>{slots, results_, next_realisation_,
                                                        finished_count_, stepper, c, probe});
    };
    // Float normals for a double trajectory only where asked (float trajectories have them).
    auto run = [&](auto ramp, auto loop) {
      if constexpr (std::is_same_v<Real, double>) {
        if (options_.float_noise) {
          run_with_noise(ramp, loop, type_tag<float>{});
          return;
        }
      }
      run_with_noise(ramp, loop, type_tag<Real>{});
    };
    auto with_ramp = [&](auto loop) {
      if (params_.nu > 0)
        run(std::true_type{}, loop);
      else
        run(std::false_type{}, loop);
    };
    switch (options_.loop) {
      case AdvanceLoop::chunked:
        with_ramp(std::integral_constant<AdvanceLoop, AdvanceLoop::chunked>{});
        break;
      case AdvanceLoop::pipelined:
        with_ramp(std::integral_constant<AdvanceLoop, AdvanceLoop::pipelined>{});
        break;
      default:
        with_ramp(std::integral_constant<AdvanceLoop, AdvanceLoop::reference>{});
        break;
    }
  });
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
std::int64_t Ensemble<ExecutionSpace, Real, ForcePolicy>::measure_resident_slots() {
  // A CPU runs all its threads at once; only a GPU's occupancy depends on the kernel.
  if constexpr (is_device_space_v<ExecutionSpace>) {
    return probe_residency();
  } else {
    return concurrency_of(space_);
  }
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
std::int64_t Ensemble<ExecutionSpace, Real, ForcePolicy>::probe_residency() {
  // Twice the most the device could hold, each thread on a dummy trajectory that cannot end
  // (no threshold, no cap) for a fixed number of steps: long against the time the device
  // needs to dispatch its first wave, short in absolute terms (milliseconds on a GPU).
  constexpr std::uint64_t probe_steps = 1024;
  const std::int64_t count = 2 * concurrency_of(space_);
  SlotViews<Real, memory_space> dummy("josephson::probe_slots", count);
  Kokkos::parallel_for(
      "josephson::initialise_probe", PlainPolicy<ExecutionSpace>(space_, 0, count),
      InitialiseSlots<Real, memory_space>{dummy, count, static_cast<Real>(params_.start_phase())});
  AdvanceConstants<Real> c = constants(probe_steps);
  c.max_steps = max_step_cap;
  c.threshold = std::numeric_limits<Real>::infinity();
  c.refill = false;
  c.probe = true;
  const ResidencyProbe<memory_space> probe{
      Kokkos::View<count_type, memory_space>("josephson::probe_first_wave"),
      Kokkos::View<count_type, memory_space>("josephson::probe_finished")};
  launch(dummy, count, c, probe);
  count_type first_wave = 0;
  Kokkos::deep_copy(space_, first_wave, probe.first_wave);
  space_.fence();
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(first_wave));
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
void Ensemble<ExecutionSpace, Real, ForcePolicy>::advance(std::uint64_t steps_per_slot) {
  if (steps_per_slot < 1)
    throw std::invalid_argument("josephson ensemble: advance(steps_per_slot = 0): expected >= 1");
  if (done()) return;
  compact_if_due();
  launch(slots_, active_slots_, constants(steps_per_slot), ResidencyProbe<memory_space>{});
  refresh_counters();
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
void Ensemble<ExecutionSpace, Real, ForcePolicy>::run() {
  const std::uint64_t tail_steps = std::max<std::uint64_t>(1, options_.steps_per_launch / 4);
  while (!done()) advance(next_ < params_.realisations ? options_.steps_per_launch : tail_steps);
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
std::uint64_t Ensemble<ExecutionSpace, Real, ForcePolicy>::steps_integrated() const {
  count_type finished = 0, in_flight = 0;
  Kokkos::parallel_reduce(
      "josephson::finished_steps",
      PlainPolicy<ExecutionSpace>(space_, 0, static_cast<std::int64_t>(params_.realisations)),
      FinishedSteps<Real, memory_space>{results_}, finished);
  Kokkos::parallel_reduce("josephson::in_flight_steps",
                          PlainPolicy<ExecutionSpace>(space_, 0, active_slots_),
                          InFlightSteps<Real, memory_space>{slots_}, in_flight);
  space_.fence();
  return finished + in_flight;
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
EnsembleResults Ensemble<ExecutionSpace, Real, ForcePolicy>::results() const {
  const auto steps = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), results_.steps);
  const auto outcome = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), results_.outcome);
  const auto bias = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), results_.bias);
  const auto phi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), results_.final_phi);
  const auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), results_.final_v);
  const auto n = static_cast<std::size_t>(params_.realisations);
  EnsembleResults out;
  out.h = params_.h;
  out.steps.assign(steps.data(), steps.data() + n);
  out.outcome.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.outcome[i] = static_cast<Outcome>(outcome(i));
  out.bias.assign(bias.data(), bias.data() + n);
  out.final_phi.assign(phi.data(), phi.data() + n);
  out.final_v.assign(v.data(), v.data() + n);
  return out;
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
EnsembleCheckpoint Ensemble<ExecutionSpace, Real, ForcePolicy>::checkpoint() const {
  const auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), slots_.realisation);
  const auto phi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), slots_.phi);
  const auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), slots_.v);
  const auto k = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), slots_.step);
  const auto n = static_cast<std::size_t>(slot_count_);
  EnsembleCheckpoint out;
  out.slot_realisation.assign(r.data(), r.data() + n);
  out.slot_phi.assign(n, 0.0);
  out.slot_v.assign(n, 0.0);
  out.slot_step.assign(n, 0);
  for (std::size_t s = 0; s < n; ++s) {
    if (r(s) < 0) continue;  // an idle slot's state is left over from its last realisation
    out.slot_phi[s] = phi(s);
    out.slot_v[s] = v(s);
    out.slot_step[s] = k(s);
  }
  out.active_slots = active_slots_;
  out.next_realisation = next_;
  out.results = results();
  return out;
}

template <class ExecutionSpace, class Real, template <class> class ForcePolicy>
void Ensemble<ExecutionSpace, Real, ForcePolicy>::restore(const EnsembleCheckpoint& state) {
  using detail::bad_checkpoint;
  const auto slots = static_cast<std::size_t>(slot_count_);
  const auto n = static_cast<std::size_t>(params_.realisations);
  detail::require_size("slot_realisation", state.slot_realisation.size(), slots);
  detail::require_size("slot_phi", state.slot_phi.size(), slots);
  detail::require_size("slot_v", state.slot_v.size(), slots);
  detail::require_size("slot_step", state.slot_step.size(), slots);
  const EnsembleResults& res = state.results;
  detail::require_size("results.steps", res.steps.size(), n);
  detail::require_size("results.outcome", res.outcome.size(), n);
  detail::require_size("results.bias", res.bias.size(), n);
  detail::require_size("results.final_phi", res.final_phi.size(), n);
  detail::require_size("results.final_v", res.final_v.size(), n);
  if (state.active_slots < 0 || state.active_slots > slot_count_)
    bad_checkpoint("active_slots = " + std::to_string(state.active_slots) + " is not in [0, " +
                   std::to_string(slot_count_) + "]");
  if (state.next_realisation < std::min<std::uint64_t>(slots, n))
    bad_checkpoint("next_realisation = " + std::to_string(state.next_realisation) +
                   " is below the realisations the slots start with");

  auto r = Kokkos::create_mirror_view(Kokkos::HostSpace(), slots_.realisation);
  auto phi = Kokkos::create_mirror_view(Kokkos::HostSpace(), slots_.phi);
  auto v = Kokkos::create_mirror_view(Kokkos::HostSpace(), slots_.v);
  auto k = Kokkos::create_mirror_view(Kokkos::HostSpace(), slots_.step);
  for (std::size_t s = 0; s < slots; ++s) {
    const std::int64_t rs = state.slot_realisation[s];
    if (rs < -1 || rs >= static_cast<std::int64_t>(n))
      bad_checkpoint("slot_realisation[" + std::to_string(s) + "] = " + std::to_string(rs) +
                     " is not -1 (idle) or a realisation index below " + std::to_string(n));
    if (rs >= 0 && static_cast<std::uint64_t>(rs) >= state.next_realisation)
      bad_checkpoint("slot_realisation[" + std::to_string(s) + "] = " + std::to_string(rs) +
                     " was not started according to next_realisation = " +
                     std::to_string(state.next_realisation));
    if (rs >= 0 && static_cast<std::int64_t>(s) >= state.active_slots)
      bad_checkpoint("slot " + std::to_string(s) + " holds a realisation beyond active_slots");
    if (rs >= 0 && state.slot_step[s] >= params_.max_steps)
      bad_checkpoint("slot_step[" + std::to_string(s) +
                     "] = " + std::to_string(state.slot_step[s]) +
                     " is not below max_steps = " + std::to_string(params_.max_steps));
    r(s) = rs;
    phi(s) = rs < 0 ? Real(0) : detail::exact_real<Real>("slot_phi", s, state.slot_phi[s]);
    v(s) = rs < 0 ? Real(0) : detail::exact_real<Real>("slot_v", s, state.slot_v[s]);
    k(s) = rs < 0 ? 0 : state.slot_step[s];
  }
  auto steps = Kokkos::create_mirror_view(Kokkos::HostSpace(), results_.steps);
  auto outcome = Kokkos::create_mirror_view(Kokkos::HostSpace(), results_.outcome);
  auto bias = Kokkos::create_mirror_view(Kokkos::HostSpace(), results_.bias);
  auto final_phi = Kokkos::create_mirror_view(Kokkos::HostSpace(), results_.final_phi);
  auto final_v = Kokkos::create_mirror_view(Kokkos::HostSpace(), results_.final_v);
  count_type finished = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto o = static_cast<std::uint8_t>(res.outcome[i]);
    if (o > static_cast<std::uint8_t>(Outcome::censored))
      bad_checkpoint("results.outcome[" + std::to_string(i) + "] = " + std::to_string(o) +
                     " is not an Outcome");
    finished += o != static_cast<std::uint8_t>(Outcome::pending);
    steps(i) = res.steps[i];
    outcome(i) = o;
    bias(i) = res.bias[i];
    final_phi(i) = detail::exact_real<Real>("results.final_phi", i, res.final_phi[i]);
    final_v(i) = detail::exact_real<Real>("results.final_v", i, res.final_v[i]);
  }
  Kokkos::deep_copy(space_, slots_.realisation, r);
  Kokkos::deep_copy(space_, slots_.phi, phi);
  Kokkos::deep_copy(space_, slots_.v, v);
  Kokkos::deep_copy(space_, slots_.step, k);
  Kokkos::deep_copy(space_, results_.steps, steps);
  Kokkos::deep_copy(space_, results_.outcome, outcome);
  Kokkos::deep_copy(space_, results_.bias, bias);
  Kokkos::deep_copy(space_, results_.final_phi, final_phi);
  Kokkos::deep_copy(space_, results_.final_v, final_v);
  Kokkos::deep_copy(space_, next_realisation_, static_cast<count_type>(state.next_realisation));
  Kokkos::deep_copy(space_, finished_count_, finished);
  space_.fence();
  active_slots_ = state.active_slots;
  next_ = state.next_realisation;
  finished_ = finished;
}

}  // namespace portamc::josephson

#pragma once
// Definitions of Updater's members; included once by updater.cpp, which instantiates the
// class for float and double on every execution space of the build.
#include <stdexcept>
#include <string>

#include "portamc/rng.hpp"
#include "portamc/su2/detail/queued_heatbath_kernel.hpp"
#include "portamc/su2/detail/update_kernels.hpp"
#include "portamc/su2/updater.hpp"

namespace portamc::su2 {

template <class ExecutionSpace, class Real>
Updater<ExecutionSpace, Real>::Updater(const ExecutionSpace& space, const UpdateParameters& params)
    : space_(space), params_(params) {
  params_.validate();
  failures_ = Kokkos::View<count_type, memory_space>("su2::heatbath_failures");
  if (params_.count_attempts) {
    for (int i = 0; i < 2 * Geometry::max_dimensions; ++i)
      pass_tallies_[i] = tally_view("su2::pass_tally");
    counted_ = tally_view("su2::heatbath_tally");
  }
}

template <class ExecutionSpace, class Real>
HeatbathTally Updater<ExecutionSpace, Real>::tally() const {
  HeatbathTally t;
  if (params_.count_attempts) Kokkos::deep_copy(t, counted_);
  count_type failures = 0;
  Kokkos::deep_copy(failures, failures_);
  t.links = links_updated_;
  t.failures = failures;
  return t;
}

template <class ExecutionSpace, class Real>
void Updater<ExecutionSpace, Real>::reset_tally() {
  links_updated_ = 0;
  Kokkos::deep_copy(failures_, count_type(0));
  if (params_.count_attempts) Kokkos::deep_copy(counted_, HeatbathTally{});
}

template <class ExecutionSpace, class Real>
void Updater<ExecutionSpace, Real>::set_heatbath_sweeps_done(std::uint64_t sweeps) {
  if (sweeps > rng::max_step / calls_per_link_update)
    throw std::invalid_argument("su2 update: heatbath sweep counter " + std::to_string(sweeps) +
                                " exceeds the RNG step range");
  heatbath_sweeps_ = sweeps;
}

template <class ExecutionSpace, class Real>
void Updater<ExecutionSpace, Real>::heatbath_sweep(field_type& field) {
  if (heatbath_sweeps_ >= rng::max_step / calls_per_link_update)
    throw std::runtime_error("su2 update: the heatbath sweep counter reached the RNG step range");
  const Geometry& g = field.geometry();
  dispatch_dimensions(g.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    HeatbathKernel<ExecutionSpace, Real, D> kernel;
    kernel.links = field.links();
    kernel.staple_links = field.links();
    kernel.failures = failures_;
    kernel.geometry = g;
    kernel.beta = static_cast<Real>(params_.beta);
    kernel.kp_threshold = static_cast<Real>(params_.kp_threshold);
    kernel.method = params_.method;
    kernel.max_attempts = params_.max_attempts;
    kernel.seed = params_.seed;
    kernel.step_base = heatbath_sweeps_ * calls_per_link_update;
    if (params_.heatbath_variant == HeatbathKernelVariant::retry_queue && !params_.count_attempts) {
      queued_heatbath_passes(space_, kernel);
      return;
    }
    const UpdatePolicy<ExecutionSpace> policy(space_, 0, g.half_volume());
    for (int mu = 0; mu < D; ++mu) {
      for (int parity = 0; parity < 2; ++parity) {
        kernel.mu = mu;
        kernel.parity = parity;
        if (params_.count_attempts) {
          Kokkos::parallel_reduce(
              "su2::heatbath_counting", policy,
              CountingHeatbathKernel<ExecutionSpace, Real, D>{kernel},
              Kokkos::Sum<HeatbathTally, memory_space>(pass_tallies_[2 * mu + parity]));
        } else {
          dispatch_direction<D>(mu, [&](auto m) {
            Kokkos::parallel_for("su2::heatbath", policy,
                                 FixedDirection<decltype(kernel), decltype(m)::value>{kernel});
          });
        }
      }
    }
  });
  if (params_.count_attempts)
    Kokkos::parallel_for(
        "su2::heatbath_tally", Kokkos::RangePolicy<ExecutionSpace>(space_, 0, 1),
        TallyAccumulator<memory_space>{pass_tallies_, counted_, 2 * g.dimensions()});
  links_updated_ += static_cast<std::uint64_t>(g.link_count());
  ++heatbath_sweeps_;
}

template <class ExecutionSpace, class Real>
void Updater<ExecutionSpace, Real>::overrelaxation_sweep(field_type& field) {
  const Geometry& g = field.geometry();
  dispatch_dimensions(g.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    OverrelaxationKernel<ExecutionSpace, Real, D> kernel;
    kernel.links = field.links();
    kernel.staple_links = field.links();
    kernel.geometry = g;
    const UpdatePolicy<ExecutionSpace> policy(space_, 0, g.half_volume());
    for (int mu = 0; mu < D; ++mu) {
      for (int parity = 0; parity < 2; ++parity) {
        kernel.mu = mu;
        kernel.parity = parity;
        dispatch_direction<D>(mu, [&](auto m) {
          Kokkos::parallel_for("su2::overrelaxation", policy,
                               FixedDirection<decltype(kernel), decltype(m)::value>{kernel});
        });
      }
    }
  });
}

template <class ExecutionSpace, class Real>
void Updater<ExecutionSpace, Real>::update(field_type& field) {
  run_update_schedule(*this, field, params_, updates_);
}

}  // namespace portamc::su2

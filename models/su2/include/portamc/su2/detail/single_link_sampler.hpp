#pragma once
// The heatbath's a0 sampler run on its own, many independent draws at one fixed alpha, on
// the device: for testing the distribution P(a0) ∝ sqrt(1 - a0^2) exp(alpha a0) and for
// measuring the acceptance of each method. Draw i uses the random words of "link" i in
// heatbath sweep 0, i.e. exactly the code path and words of a link update.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/detail/heatbath_sampling.hpp"

namespace portamc::su2 {

struct SingleLinkSamples {
  std::vector<double> a0;      ///< accepted draws only
  std::uint64_t attempts = 0;  ///< proposals made, over all draws
  std::uint64_t failures = 0;  ///< draws that ran out of attempts
  /// The rotation axis' random inputs of the accepted draws (parallel to a0): a uniform on
  /// [0, 1) for cos theta and a uniform word for phi.
  std::vector<double> axis_cos_uniform;
  std::vector<std::uint32_t> axis_phi_word;
};

/// n draws of a0 at staple strength alpha >= 0 by `method` (automatic: by kp_threshold),
/// in precision Real on the instance `space`. Throws std::invalid_argument for bad arguments.
template <class ExecutionSpace, class Real>
SingleLinkSamples sample_single_link(const ExecutionSpace& space, HeatbathMethod method,
                                     double alpha, std::uint64_t n, std::uint64_t seed,
                                     int max_attempts = max_heatbath_attempts,
                                     double kp_threshold = acceptance_crossover_alpha);

/// Draws n_i of sample_single_link (public for nvcc).
template <class ExecutionSpace, class Real>
struct SingleLinkKernel {
  Kokkos::View<Real*, typename ExecutionSpace::memory_space> y;  ///< 1 - a0, or -1 on failure
  Kokkos::View<int*, typename ExecutionSpace::memory_space> attempts;
  Kokkos::View<Real*, typename ExecutionSpace::memory_space> axis_cos_uniform;
  Kokkos::View<std::uint32_t*, typename ExecutionSpace::memory_space> axis_phi_word;
  HeatbathMethod method;
  Real alpha, threshold;
  int max_attempts;
  std::uint64_t seed;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const LinkDraws draws{seed, static_cast<std::uint64_t>(i), 0};
    const A0Draw<Real> d = draw_a0(method, alpha, threshold, draws, max_attempts);
    y(i) = d.accepted ? d.y : Real(-1);
    attempts(i) = d.attempts;
    axis_cos_uniform(i) = d.axis_cos_uniform;
    axis_phi_word(i) = d.axis_phi_word;
  }
};

}  // namespace portamc::su2

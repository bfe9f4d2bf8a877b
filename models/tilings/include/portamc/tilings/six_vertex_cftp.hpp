#pragma once
// Exact samples of the six-vertex model by coupling from the past (Propp & Wilson 1996) for
// monotone weights c >= max(a, b) (six_vertex_weights.hpp says why), on `chains` independent
// copies at once.
//
// Each copy runs a top chain from the maximal and a bottom chain from the minimal state, both
// fed the same randomness (the kernel gives chain c and c + chains the same stream). A pass
// from time -T applies steps s = T, T-1, ..., 1 (time -s uses step index s of the stream
// keyed by seed), so doubling T reruns the most recent T steps with the same randomness, as
// Propp-Wilson requires. By monotonicity every state started at -T lies between the two
// chains, so when they agree at time 0 that state is the chain run from the infinite past: an
// exact sample. A copy that has coalesced at T stays coalesced for every larger T with the
// same final state, so running all copies to the largest horizon any of them needs changes
// nothing; and given the shared class sequence the copies use independent randomness, each
// output being exact whatever the classes were, so the samples are independent.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/kokkos_compat.hpp"
#include "portamc/tilings/glauber_sampler.hpp"  // CftpOptions, shared with the tilings
#include "portamc/tilings/six_vertex_dynamics.hpp"

namespace portamc::tilings {

struct SixVertexCftpResult {
  std::vector<SixVertexHeights> samples;  ///< one exact, independent sample per copy
  /// Per copy: the first horizon tried at which its chains had met.
  std::vector<std::uint64_t> coalescence_horizons;
  std::uint64_t horizon = 0;    ///< the horizon at which every copy had coalesced
  std::uint64_t steps_run = 0;  ///< steps over all passes (one step moves all chains)
  int passes = 0;
};

/// Throws std::invalid_argument for non-monotone or bad weights, bad options or sizes that do
/// not fit the device, std::runtime_error if max_horizon is reached first.
///
/// first_copy: the copies are copies first_copy .. first_copy + copies - 1 of a larger run
/// (a share on one MPI rank). Copy k draws the randomness of copy k of the whole run, and a
/// copy's sample and coalescence horizon do not depend on the horizons the other copies need
/// (see above), so the shares put together are bitwise the one-run result.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
SixVertexCftpResult six_vertex_cftp(const SixVertexBoundary& boundary,
                                    const SixVertexWeights& weights, std::uint64_t seed,
                                    int copies = 1, const CftpOptions& options = {},
                                    int first_copy = 0, ClassOrder order = ClassOrder::random) {
  using Dynamics = SixVertexDynamics<ExecutionSpace>;
  using memory_space = typename Dynamics::memory_space;
  require_monotone(weights, "six-vertex coupling from the past");
  if (options.initial_horizon < 1 || options.max_horizon < options.initial_horizon ||
      options.max_horizon > rng::max_step) {
    throw std::invalid_argument("six-vertex coupling from the past: need 1 <= initial_horizon (" +
                                std::to_string(options.initial_horizon) + ") <= max_horizon (" +
                                std::to_string(options.max_horizon) + ") <= 2^56 - 1");
  }
  if (first_copy < 0 || first_copy > INT32_MAX / 2) {
    throw std::invalid_argument("six-vertex coupling from the past: first copy " +
                                std::to_string(first_copy) + " (need 0 .. 2^30)");
  }
  if (copies < 1 || copies > INT32_MAX / 2) {
    throw std::invalid_argument("six-vertex coupling from the past: " + std::to_string(copies) +
                                " copies (need 1 .. 2^30)");
  }
  Dynamics dynamics(boundary, weights, 2 * copies, copies, seed, first_copy);
  dynamics.set_class_order(order);
  if (!is_monotone(dynamics.table())) {  // cannot happen for c >= max(a, b); guards rounding
    throw std::invalid_argument("six-vertex coupling from the past: heat-bath table not monotone");
  }
  const typename Dynamics::HeightView heights =
      dynamics.allocate("six-vertex coupling from the past (top and bottom chains)");
  require_device_memory(static_cast<std::size_t>(copies) * sizeof(std::int32_t),
                        "six-vertex coupling from the past (per-copy flags)");
  Kokkos::View<std::int32_t*, memory_space> unmatched("portamc::tilings::unmatched", copies);
  const auto top = dynamics.upload(maximal_six_vertex_heights(boundary));
  const auto bottom = dynamics.upload(minimal_six_vertex_heights(boundary));

  SixVertexCftpResult result;
  result.coalescence_horizons.assign(static_cast<std::size_t>(copies), 0);
  for (std::uint64_t horizon = options.initial_horizon;; horizon *= 2) {
    ++result.passes;
    result.steps_run += horizon;
    dynamics.fill(heights, top, bottom, copies);
    for (std::uint64_t s = horizon; s >= 1; --s) dynamics.apply(heights, s);
    Kokkos::deep_copy(unmatched, 0);
    SixVertexPairMismatch<memory_space> mismatch{heights, unmatched, copies};
    std::int64_t differ = 0;
    Kokkos::parallel_reduce(
        "portamc::tilings::six_vertex_coalescence",
        typename Dynamics::Policy(0, static_cast<std::int32_t>(boundary.face_count()) * copies),
        mismatch, differ);
    const auto host_unmatched = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), unmatched);
    for (int c = 0; c < copies; ++c) {
      std::uint64_t& at = result.coalescence_horizons[static_cast<std::size_t>(c)];
      if (at == 0 && host_unmatched(c) == 0) at = horizon;
    }
    if (differ == 0) {
      result.horizon = horizon;
      result.samples = dynamics.states(heights, 0, copies);
      return result;
    }
    if (horizon > options.max_horizon / 2) {
      throw std::runtime_error("six-vertex coupling from the past did not coalesce within " +
                               std::to_string(horizon) + " steps (max_horizon " +
                               std::to_string(options.max_horizon) + "; " + std::to_string(differ) +
                               " faces still differ)");
    }
  }
}

// Compiled in the library (six_vertex_instantiations.cpp).
extern template SixVertexCftpResult six_vertex_cftp<Kokkos::DefaultExecutionSpace>(
    const SixVertexBoundary&, const SixVertexWeights&, std::uint64_t, int, const CftpOptions&, int,
    ClassOrder);
#ifdef PORTAMC_HAVE_DEVICE_BACKEND
extern template SixVertexCftpResult six_vertex_cftp<Kokkos::DefaultHostExecutionSpace>(
    const SixVertexBoundary&, const SixVertexWeights&, std::uint64_t, int, const CftpOptions&, int,
    ClassOrder);
#endif

}  // namespace portamc::tilings

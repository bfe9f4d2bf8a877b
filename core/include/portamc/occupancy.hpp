#pragma once
// Launching a kernel with fewer threads resident per GPU multiprocessor than the hardware
// allows. On CUDA, Kokkos then sizes the shared-memory carve-out for the blocks it lets run
// instead of leaving it to the driver, and the rest of the on-chip memory is L1. A kernel
// that waits on its threads' own data in global memory (the muca walkers' lattices) gains
// from the larger L1 even where registers already limit the blocks (docs/performance.md).
#include <Kokkos_Core.hpp>
#include <string>

#include "portamc/kokkos_compat.hpp"

namespace portamc {

/// parallel_for(name, policy, functor), asking the backend to keep at most `percent` of a
/// multiprocessor's threads resident (Kokkos' DesiredOccupancy: on CUDA it sizes the shared
/// memory carve-out so that no more blocks fit, leaving the rest to L1). 0 or 100: no limit.
/// Host backends ignore it; the results never depend on it.
template <class ExecutionSpace, class Policy, class Functor>
void parallel_for_at_occupancy(const std::string& name, const Policy& policy, int percent,
                               const Functor& functor) {
  if constexpr (is_device_space_v<ExecutionSpace>) {
    if (percent > 0 && percent < 100) {
      Kokkos::parallel_for(
          name,
          Kokkos::Experimental::prefer(policy, Kokkos::Experimental::DesiredOccupancy(percent)),
          functor);
      return;
    }
  }
  Kokkos::parallel_for(name, policy, functor);
}

}  // namespace portamc

#pragma once
// Launching a kernel with fewer threads resident per GPU multiprocessor than the hardware
// allows. A kernel that streams each thread's own data through the caches (the muca walkers'
// lattices in global memory) can run faster with fewer resident threads when their data then
// fit in L1 and L2: less latency hiding, but hits instead of DRAM trips.
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

#pragma once
// GPU selection before Kokkos::initialize, the part of it where Kokkos versions differ: only
// Kokkos >= 4.3 can say how many devices it sees before it is initialised (num_devices()).
#include <Kokkos_Core.hpp>

#include "portamc/kokkos_compat.hpp"

namespace portamc {

/// GPUs the default execution space can choose from, asked before Kokkos::initialize; 0 when
/// it runs on the host, or when this Kokkos (< 4.3) cannot tell before initialisation (it then
/// maps ranks to devices itself from the launcher's local-rank variables, --kokkos-num-devices).
inline int visible_device_count() {
#if (defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)) && \
    KOKKOS_VERSION >= 40300
  const int n = Kokkos::num_devices();
  return n > 0 ? n : 0;
#else
  return 0;
#endif
}

}  // namespace portamc

#pragma once
// The one place where Kokkos 3.4 (Debian/Trilinos, CI) and Kokkos 4.x differ for us.
// Model code uses these names and never tests KOKKOS_VERSION itself.
#include <Kokkos_Core.hpp>

namespace portamc::kmath {
#if KOKKOS_VERSION >= 30700
using Kokkos::cos;
using Kokkos::exp;
using Kokkos::fabs;
using Kokkos::log;
using Kokkos::sin;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::cos;
using Kokkos::Experimental::exp;
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::log;
using Kokkos::Experimental::sin;
using Kokkos::Experimental::sqrt;
#endif
}  // namespace portamc::kmath

// Whether DefaultExecutionSpace differs from DefaultHostExecutionSpace, for code that
// explicitly instantiates templates on both.
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL) || \
    defined(KOKKOS_ENABLE_OPENMPTARGET)
#define PORTAMC_HAVE_DEVICE_BACKEND 1
#endif

// Full unrolling of short fixed-trip loops over per-walker register arrays: without it
// GCC keeps such arrays on the stack.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define PORTAMC_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define PORTAMC_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define PORTAMC_UNROLL _Pragma("GCC unroll 16")
#else
#define PORTAMC_UNROLL
#endif

namespace portamc {

/// True when the execution space runs on an accelerator whose memory the host cannot read.
template <class ExecutionSpace>
inline constexpr bool is_device_space_v =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                typename ExecutionSpace::memory_space>::accessible;

}  // namespace portamc

#pragma once
// The one place where Kokkos 3.4 (Debian/Trilinos, CI) and Kokkos 4.x differ for us.
// Model code uses these names and never tests KOKKOS_VERSION itself.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

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

/// 1 / sqrt(x). On CUDA devices the hardware reciprocal square root (rsqrtf: 2 ulp, rsqrt:
/// 1 ulp) instead of a square root and a correctly rounded division, which cost ~4x the
/// instructions in kernels bound by instruction issue; elsewhere 1 / sqrt(x).
template <class T>
KOKKOS_INLINE_FUNCTION T rsqrt(T x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 4) {
    return ::rsqrtf(x);
  } else {
    return ::rsqrt(x);
  }
#else
  return T(1) / sqrt(x);
#endif
}
}  // namespace portamc::kmath

// Full unrolling of short fixed-trip loops over per-walker register arrays: without it
// GCC keeps such arrays on the stack. nvcc's host pass (__CUDACC__) does not know GCC's
// spelling and warns about it.
#if defined(__CUDACC__) || defined(__HIP_DEVICE_COMPILE__)
#define PORTAMC_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define PORTAMC_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define PORTAMC_UNROLL _Pragma("GCC unroll 16")
#else
#define PORTAMC_UNROLL
#endif

namespace portamc {

/// Host memory that device copies are fast from and to (halo staging): pinned on CUDA,
/// plain elsewhere.
#if defined(KOKKOS_ENABLE_CUDA)
using PinnedHostSpace = Kokkos::CudaHostPinnedSpace;
#else
using PinnedHostSpace = Kokkos::HostSpace;
#endif

/// True when the execution space runs on an accelerator whose memory the host cannot read.
template <class ExecutionSpace>
inline constexpr bool is_device_space_v =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                typename ExecutionSpace::memory_space>::accessible;

/// The native stream of an execution space instance (a cudaStream_t on CUDA), for libraries
/// that enqueue work on it (NCCL); nullptr elsewhere.
template <class ExecutionSpace>
void* native_stream(const ExecutionSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) return space.cuda_stream();
#endif
  (void)space;
  return nullptr;
}

/// A second instance of `space` for short work that must not queue behind the bulk kernels
/// of `space` (halo exchanges overlapped with an update). On CUDA it is a new stream of the
/// highest priority, owned by the instance: the block scheduler then starts its kernels
/// (packing, NCCL) as soon as SMs free up, rather than after every block of a large kernel
/// launched earlier. Elsewhere a partition of `space` (Kokkos >= 4) or `space` itself.
template <class ExecutionSpace>
ExecutionSpace urgent_instance(const ExecutionSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION >= 40200
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) {
    int least = 0, greatest = 0;
    cudaStream_t stream = nullptr;
    if (cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess &&
        cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest) == cudaSuccess)
      return Kokkos::Cuda(stream, Kokkos::Impl::ManageStream::yes);
  }
#endif
#if KOKKOS_VERSION >= 40000
  if constexpr (is_device_space_v<ExecutionSpace>)
    return Kokkos::Experimental::partition_space(space, 1)[0];
#endif
  return space;
}

/// Clears an error that an earlier runtime call left behind and its caller chose to ignore
/// (CUDA's last error stays set until read), so that check_launch reports only the launch
/// that follows. Errors that poison the context stay and are reported.
template <class ExecutionSpace>
void clear_launch_error() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) (void)cudaGetLastError();
#endif
}

/// Throws std::runtime_error naming `kernel` when the kernel launch on `ExecutionSpace` since
/// clear_launch_error was refused by the device (CUDA: a launch configuration it cannot run).
/// Kokkos checks launches only in builds with KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK, so without this
/// such a kernel does nothing, silently, and a run would go on with its state unchanged. A host
/// call without synchronisation; nothing elsewhere.
template <class ExecutionSpace>
void check_launch(const char* kernel) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) {
    const cudaError_t error = cudaGetLastError();
    if (error != cudaSuccess)
      throw std::runtime_error(std::string("kernel ") + kernel + " was not run: " +
                               cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")");
  }
#endif
  (void)kernel;
}

}  // namespace portamc

namespace portamc {

/// Marks a pointer obtained from team scratch level 0 as such. On CUDA the compiler then
/// emits shared-memory instructions (LDS/STS/ATOMS) instead of generic ones, whose address
/// resolution adds latency in tight loops; elsewhere it is the identity.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T* assume_team_scratch(T* pointer) {
#if defined(__CUDA_ARCH__)
  __builtin_assume(__isShared(pointer));
#endif
  return pointer;
}

}  // namespace portamc

namespace portamc {

/// Atomic add to a team-scratch counter. Kokkos' atomics address memory generically
/// (device scope); on CUDA the native intrinsic lets the compiler use shared-memory atomics.
KOKKOS_FORCEINLINE_FUNCTION void atomic_add_team_scratch(std::uint32_t* counter,
                                                         std::uint32_t value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(counter, value);
#else
  Kokkos::atomic_add(counter, value);
#endif
}

}  // namespace portamc

namespace portamc {

/// Relaxed atomic load and store of an aligned word that other threads write concurrently.
/// Kokkos 4's single-argument atomic_load / atomic_store fall back to desul's generic
/// compare-and-swap loop (a read-modify-write per load, contended like a write) on CUDA; a
/// volatile access of an aligned 4- or 8-byte word is one coherent load or store there, and
/// the GCC builtins are the host's relaxed accesses. Kokkos 3.4 keeps the single-argument
/// versions in Kokkos::Impl.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T relaxed_load(T* ptr) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return *static_cast<volatile T*>(ptr);
#elif defined(__GNUC__)
  return __atomic_load_n(ptr, __ATOMIC_RELAXED);
#elif KOKKOS_VERSION >= 40000
  return Kokkos::atomic_load(ptr);
#else
  return Kokkos::Impl::atomic_load(ptr);
#endif
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION void relaxed_store(T* ptr, T value) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  *static_cast<volatile T*>(ptr) = value;
#elif defined(__GNUC__)
  __atomic_store_n(ptr, value, __ATOMIC_RELAXED);
#elif KOKKOS_VERSION >= 40000
  Kokkos::atomic_store(ptr, value);
#else
  Kokkos::Impl::atomic_store(ptr, value);
#endif
}

}  // namespace portamc

#pragma once
// What a model needs to size itself to the hardware it runs on: how many threads
// keep the device busy and how much memory it has. Backend-specific queries live
// in device_info.cpp so model code stays free of backend #ifdefs.
#include <cstddef>
#include <string>

#include "portamc/backends.hpp"

namespace portamc {

struct DeviceInfo {
  std::string backend;  ///< Kokkos execution space name, e.g. "Cuda", "OpenMP", "Serial"
  std::string
      device;  ///< human-readable device, e.g. "NVIDIA H200 (132 SMs)" or "host, 16 threads"
  std::string kokkos_version;  ///< e.g. "4.6.1"
  bool is_gpu = false;
  int concurrency = 1;                     ///< threads the default execution space runs at once
  int multiprocessors = 0;                 ///< GPU only
  int max_threads_per_multiprocessor = 0;  ///< GPU only
  std::size_t memory_bytes = 0;            ///< device memory (GPU) or physical memory (host)
  std::size_t free_memory_bytes = 0;
  /// Threads that fill the device: SMs x resident threads on a GPU, the thread count on a CPU.
  long long resident_threads() const;
};

/// Whether Kokkos::DefaultExecutionSpace can start on this machine: false for a GPU build on a
/// machine without a visible GPU, where Kokkos would abort while initialising. Call it before
/// Kokkos is initialised (it needs no initialisation).
bool default_execution_space_available();

/// What to tell the user in that case. It begins with "no device for the default execution
/// space", the words by which the test suite reports its tests skipped, not failed, on such a
/// machine (tests/CMakeLists.txt).
std::string no_device_message();

/// Describe Kokkos::DefaultExecutionSpace. Kokkos must be initialised.
DeviceInfo default_device_info();

/// Describe the execution space called `backend` (portamc/backends.hpp, e.g. "openmp");
/// std::invalid_argument for a backend this build lacks. Kokkos must be initialised.
DeviceInfo device_info(const std::string& backend);

/// Throws std::invalid_argument (bad input, not a runtime failure) naming `what` and both sizes if
/// `bytes` would not fit in the free memory of the execution space called `backend` (with a
/// safety margin for Kokkos and the runtime): the GPU's for "cuda", the host's available memory
/// for a host backend. Use require_memory<Space> in templates.
void require_memory(const std::string& backend, std::size_t bytes, const std::string& what);

/// require_memory for the execution space `Space` (its name: portamc/backends.hpp).
template <class Space>
void require_memory(std::size_t bytes, const std::string& what) {
  require_memory(backend_name<Space>(), bytes, what);
}

/// The same for the host's available memory (MemAvailable), for data that lives on the host
/// whatever the backend (results gathered for the output, the output file itself).
void require_host_memory(std::size_t bytes, const std::string& what);

}  // namespace portamc

#include "portamc/device_info.hpp"

#include "portamc/backends.hpp"

#include <unistd.h>
#include <Kokkos_Core.hpp>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace portamc {
namespace {

std::string kokkos_version_string() {
  const int v = KOKKOS_VERSION;
  std::ostringstream s;
  s << v / 10000 << '.' << (v / 100) % 100 << '.' << v % 100;
  return s.str();
}

std::size_t host_memory_bytes(bool available) {
  // MemAvailable is what a new allocation can really get; MemTotal the size of the machine.
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  const std::string wanted = available ? "MemAvailable:" : "MemTotal:";
  while (meminfo >> key >> kib >> unit) {
    if (key == wanted) return kib * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * page_size : 0;
}

}  // namespace

long long DeviceInfo::resident_threads() const {
  if (is_gpu && multiprocessors > 0 && max_threads_per_multiprocessor > 0) {
    return static_cast<long long>(multiprocessors) * max_threads_per_multiprocessor;
  }
  return concurrency;
}

bool default_execution_space_available() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  }
#endif
  return true;
}

std::string no_device_message() {
  return std::string("no device for the default execution space (") +
         Kokkos::DefaultExecutionSpace::name() +
         ") is visible: this build runs its kernels there; run it on a machine with that device "
         "(or check CUDA_VISIBLE_DEVICES), or use a CPU build";
}

DeviceInfo default_device_info() {
  return device_info(default_backend());
}

DeviceInfo device_info(const std::string& backend) {
  DeviceInfo info;
  info.backend = with_backend(backend, [](auto space) { return std::string(space.name()); });
  info.kokkos_version = kokkos_version_string();
  info.concurrency = with_backend(backend, [](auto space) { return int(space.concurrency()); });
#ifdef KOKKOS_ENABLE_CUDA
  if (backend == backend_name<Kokkos::Cuda>()) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, device);
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    info.is_gpu = true;
    info.multiprocessors = prop.multiProcessorCount;
    info.max_threads_per_multiprocessor = prop.maxThreadsPerMultiProcessor;
    info.memory_bytes = total_bytes;
    info.free_memory_bytes = free_bytes;
    std::ostringstream s;
    s << prop.name << " (" << prop.multiProcessorCount << " SMs, cc " << prop.major << '.'
      << prop.minor << ')';
    info.device = s.str();
    return info;
  }
#endif
  info.memory_bytes = host_memory_bytes(false);
  info.free_memory_bytes = host_memory_bytes(true);
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  std::ostringstream s;
  s << "host " << name << ", " << info.concurrency << " thread"
    << (info.concurrency == 1 ? "" : "s");
  info.device = s.str();
  return info;
}

void require_host_memory(std::size_t bytes, const std::string& what) {
  const std::size_t available = host_memory_bytes(true);
  const std::size_t usable = available / 10 * 9;
  if (available != 0 && bytes > usable) {
    std::ostringstream s;
    s << what << " needs " << bytes / (1024.0 * 1024.0) << " MiB of host memory but only "
      << usable / (1024.0 * 1024.0) << " MiB are available";
    throw std::invalid_argument(s.str());
  }
}

void require_memory(const std::string& backend, std::size_t bytes, const std::string& what) {
  const DeviceInfo info = device_info(backend);
  // Leave room for the runtime, Kokkos' own buffers and the output staging copies.
  const std::size_t usable = info.free_memory_bytes / 10 * 9;
  if (info.free_memory_bytes != 0 && bytes > usable) {
    std::ostringstream s;
    s << what << " needs " << bytes / (1024.0 * 1024.0) << " MiB but " << info.device
      << " has only " << usable / (1024.0 * 1024.0) << " MiB free to give";
    throw std::invalid_argument(s.str());
  }
}

}  // namespace portamc

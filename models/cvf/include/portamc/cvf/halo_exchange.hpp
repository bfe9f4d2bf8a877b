#pragma once
// Point-to-point exchange of contiguous byte ranges of device memory between MPI ranks, for
// the CVF slab halos: every message is one z-plane of one sigma arm (L^2 bytes) or one cube
// layer (L^2/2 bytes), all contiguous in the arm-major local arrays, so nothing is packed.
//
// Transport: nonblocking (Irecv first, then Isend, then Waitall). The device pointers go to
// MPI directly when the memory is host-accessible (Serial, OpenMP) or the MPI is CUDA-aware
// (Open MPI's MPIX_Query_cuda_support()); otherwise the bytes are staged through a pinned host
// buffer (Kokkos::CudaHostPinnedSpace under CUDA). PORTAMC_MPI_GPU_AWARE=0 in the environment
// forces staging (for benchmarks, to work around a broken CUDA-aware stack, and for the CPU
// tests of the staged path). On one rank
// (also without MPI) a message to oneself is a device copy.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/kokkos_compat.hpp"
#include "portamc/parallel.hpp"

namespace portamc::cvf {

/// One message of an exchange: `bytes` from `send` to rank `to`, and as many into `receive`
/// from rank `from`, with `tag` (distinct per direction: with two ranks both neighbours are
/// the same rank).
struct HaloTransfer {
  const std::uint8_t* send;
  std::uint8_t* receive;
  std::size_t bytes;
  int to;
  int from;
  int tag;
};

template <class MemorySpace>
class HaloExchange {
 public:
  using StageSpace = PinnedHostSpace;  // kokkos_compat.hpp
  static constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

  /// `max_bytes`: the most bytes one exchange moves in each direction (the staging buffers).
  HaloExchange(const parallel::Communicator& comm, std::size_t max_bytes) : comm_(comm) {
    const char* env = std::getenv("PORTAMC_MPI_GPU_AWARE");
    const bool forbid = env != nullptr && std::string(env) == "0";
    gpu_aware_ = !host_accessible && !forbid && parallel::mpi_accepts_device_memory();
    // Staging: device memory without a CUDA-aware MPI, or asked for (which also lets the CPU
    // tests run the staged path).
    staged_ = comm_.size() > 1 && (forbid || (!host_accessible && !gpu_aware_));
    if (staged_) {
      send_stage_ = Kokkos::View<std::uint8_t*, StageSpace>("cvf::halo_send", max_bytes);
      receive_stage_ = Kokkos::View<std::uint8_t*, StageSpace>("cvf::halo_receive", max_bytes);
    }
  }

  /// "GPU-aware MPI", "staged through pinned host memory", "host memory" (MPI reads the
  /// arrays directly) or "one rank" (device copies).
  const char* transport() const {
    if (comm_.size() == 1) return "one rank";
    if (staged_) return "staged through pinned host memory";
    return gpu_aware_ ? "GPU-aware MPI" : "host memory";
  }
  bool gpu_aware() const { return gpu_aware_; }
  bool staged() const { return staged_; }

  /// Runs the transfers (collective over the ranks that appear in them); returns when every
  /// receive landed in device memory.
  void run(const std::vector<HaloTransfer>& transfers) {
    using Device =
        Kokkos::View<std::uint8_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    using ConstDevice =
        Kokkos::View<const std::uint8_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    if (comm_.size() == 1) {
      for (const HaloTransfer& t : transfers)
        Kokkos::deep_copy(Device(t.receive, t.bytes), ConstDevice(t.send, t.bytes));
      Kokkos::fence();
      return;
    }
#ifdef PORTAMC_HAVE_MPI
    const bool staged = staged_;
    std::vector<const std::uint8_t*> send(transfers.size());
    std::vector<std::uint8_t*> receive(transfers.size());
    std::size_t offset = 0;
    for (std::size_t k = 0; k < transfers.size(); ++k) {
      const HaloTransfer& t = transfers[k];
      // MPI counts are int: one message is one plane, L^2 bytes (L <= 46340).
      if (t.bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw std::invalid_argument("cvf halo exchange: a plane of " + std::to_string(t.bytes) +
                                    " bytes exceeds one MPI message");
      if (staged) {
        if (offset + t.bytes > send_stage_.extent(0))
          throw std::logic_error("cvf halo exchange: staging buffer too small");
        Kokkos::deep_copy(Kokkos::subview(send_stage_, std::make_pair(offset, offset + t.bytes)),
                          ConstDevice(t.send, t.bytes));
        send[k] = send_stage_.data() + offset;
        receive[k] = receive_stage_.data() + offset;
        offset += t.bytes;
      } else {
        send[k] = t.send;
        receive[k] = t.receive;
      }
    }
    // The kernels that wrote the planes must be done before MPI reads device memory.
    Kokkos::fence();
    std::vector<MPI_Request> requests(2 * transfers.size());
    for (std::size_t k = 0; k < transfers.size(); ++k)
      check(MPI_Irecv(receive[k], static_cast<int>(transfers[k].bytes), MPI_BYTE, transfers[k].from,
                      transfers[k].tag, comm_.native(), &requests[k]));
    for (std::size_t k = 0; k < transfers.size(); ++k)
      check(MPI_Isend(send[k], static_cast<int>(transfers[k].bytes), MPI_BYTE, transfers[k].to,
                      transfers[k].tag, comm_.native(), &requests[transfers.size() + k]));
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
    if (staged) {
      offset = 0;
      for (const HaloTransfer& t : transfers) {
        Kokkos::deep_copy(
            Device(t.receive, t.bytes),
            Kokkos::subview(receive_stage_, std::make_pair(offset, offset + t.bytes)));
        offset += t.bytes;
      }
      Kokkos::fence();
    }
#else
    throw std::logic_error("cvf halo exchange over several ranks without MPI");
#endif
  }

 private:
#ifdef PORTAMC_HAVE_MPI
  static void check(int code) {
    if (code != MPI_SUCCESS)
      throw std::runtime_error("cvf halo exchange: MPI error " + std::to_string(code));
  }
#endif

  parallel::Communicator comm_;
  bool gpu_aware_ = false;
  bool staged_ = false;
  Kokkos::View<std::uint8_t*, StageSpace> send_stage_;
  Kokkos::View<std::uint8_t*, StageSpace> receive_stage_;
};

}  // namespace portamc::cvf

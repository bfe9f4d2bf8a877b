#pragma once
// Point-to-point exchange of contiguous byte ranges of device memory between MPI ranks, for
// the CVF slab halos: every message is one z-plane of one sigma arm (L^2 bytes) or one cube
// layer (L^2/2 bytes), all contiguous in the arm-major local arrays, so nothing is packed.
//
// Transport (parallel.halo_transport, core halo_transport.hpp): NCCL send/recv in one group on
// the default stream; or nonblocking MPI (Irecv first, then Isend, then Waitall) on the
// arrays themselves when the memory is host-accessible (Serial, OpenMP) or the MPI is
// CUDA-aware (mpi_direct); or MPI on a pinned host copy of the bytes (mpi_staged, also
// selectable on CPU backends so that the CPU tests run the staged path). On one rank (also
// without MPI) a message to oneself is a device copy.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/halo_transport.hpp"
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
  /// `requested` is resolved (std::invalid_argument for one this build cannot do, the same on
  /// every rank); collective (NCCL's communicator is set up here).
  HaloExchange(const parallel::Communicator& comm, std::size_t max_bytes,
               parallel::HaloTransport requested = parallel::HaloTransport::automatic)
      : comm_(comm),
        transport_(parallel::resolve_halo_transport(requested, host_accessible, comm)) {
    if (comm_.size() == 1) return;
    if (staged()) {
      send_stage_ = Kokkos::View<std::uint8_t*, StageSpace>("cvf::halo_send", max_bytes);
      receive_stage_ = Kokkos::View<std::uint8_t*, StageSpace>("cvf::halo_receive", max_bytes);
    }
    if (transport_ == parallel::HaloTransport::nccl)
      nccl_ = parallel::NcclCommunicator::shared(comm_);
  }

  /// "nccl", "mpi_direct", "mpi_staged", or "one rank" (device copies).
  std::string transport() const {
    return comm_.size() == 1 ? "one rank" : parallel::to_string(transport_);
  }
  bool staged() const { return transport_ == parallel::HaloTransport::mpi_staged; }

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
    if (nccl_) {
      // The kernels that wrote the planes ran on the default instance: its stream orders them.
      const Kokkos::DefaultExecutionSpace space;
      std::vector<parallel::DeviceMessage> sends, receives;
      for (const HaloTransfer& t : transfers) {
        sends.push_back({const_cast<std::uint8_t*>(t.send), t.bytes, t.to, t.tag});
        receives.push_back({t.receive, t.bytes, t.from, t.tag});
      }
      nccl_->exchange(receives, sends, native_stream(space));
      space.fence();
      return;
    }
#ifdef PORTAMC_HAVE_MPI
    const bool staged = this->staged();
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
  parallel::HaloTransport transport_;
  std::shared_ptr<parallel::NcclCommunicator> nccl_;
  Kokkos::View<std::uint8_t*, StageSpace> send_stage_;
  Kokkos::View<std::uint8_t*, StageSpace> receive_stage_;
};

}  // namespace portamc::cvf

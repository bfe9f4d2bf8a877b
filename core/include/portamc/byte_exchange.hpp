#pragma once
// Point-to-point exchange of contiguous byte ranges of (device) memory between MPI ranks, over
// the transport of parallel.halo_transport (halo_transport.hpp): the halos of the models whose
// boundary data is contiguous in their state and needs no packing (cvf z-planes, tilings rows).
//
//   nccl        one NCCL group on the default instance's stream (which orders the kernels that
//               wrote the bytes before it), then a fence.
//   mpi_direct  nonblocking MPI (receives posted first, then sends, then Waitall) on the memory
//               itself: host backends, or a CUDA-aware MPI.
//   mpi_staged  MPI on a pinned host copy of the bytes (also selectable on CPU backends, so
//               that CPU tests run the staged path).
// On one rank (also without MPI) every message goes to oneself: a device copy.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/halo_transport.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/parallel.hpp"

namespace portamc::parallel {

/// One message of an exchange: `bytes` from `send` to rank `to`, and as many into `receive`
/// from rank `from`, with `tag` (distinct per direction: with two ranks both neighbours are
/// the same rank). A negative `to` or `from` means no such neighbour (an open boundary): that
/// half is skipped.
struct ByteMessage {
  const std::uint8_t* send;
  std::uint8_t* receive;
  std::size_t bytes;
  int to;
  int from;
  int tag;
};

template <class MemorySpace>
class ByteExchange {
 public:
  using StageSpace = PinnedHostSpace;  // kokkos_compat.hpp
  static constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

  ByteExchange() = default;
  /// `max_bytes`: the most bytes one exchange sends (and receives) in all (the staging
  /// buffers). `requested` is resolved (std::invalid_argument for one this build cannot do,
  /// the same on every rank); collective (NCCL's communicator is set up here). `what` names
  /// the caller in error messages.
  ByteExchange(const Communicator& comm, std::size_t max_bytes,
               HaloTransport requested = HaloTransport::automatic,
               std::string what = "halo exchange")
      : comm_(comm),
        transport_(resolve_halo_transport(requested, host_accessible, comm)),
        what_(std::move(what)) {
    if (comm_.size() == 1) return;
    if (staged()) {
      send_stage_ = Kokkos::View<std::uint8_t*, StageSpace>("portamc::halo_send", max_bytes);
      receive_stage_ = Kokkos::View<std::uint8_t*, StageSpace>("portamc::halo_receive", max_bytes);
    }
    if (transport_ == HaloTransport::nccl) nccl_ = NcclCommunicator::shared(comm_);
  }

  /// "nccl", "mpi_direct", "mpi_staged", or "one rank" (device copies).
  std::string transport() const { return comm_.size() == 1 ? "one rank" : to_string(transport_); }
  bool staged() const { return transport_ == HaloTransport::mpi_staged; }

  /// Runs the messages (collective over the ranks that appear in them); returns when every
  /// receive landed.
  void run(const std::vector<ByteMessage>& messages) {
    using Device =
        Kokkos::View<std::uint8_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    using ConstDevice =
        Kokkos::View<const std::uint8_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    if (comm_.size() == 1) {
      for (const ByteMessage& m : messages)
        if (m.to >= 0 && m.from >= 0)
          Kokkos::deep_copy(Device(m.receive, m.bytes), ConstDevice(m.send, m.bytes));
      Kokkos::fence();
      return;
    }
    if (nccl_) {
      const typename MemorySpace::execution_space space;  // the GPU that owns the bytes
      std::vector<DeviceMessage> sends, receives;
      for (const ByteMessage& m : messages) {
        if (m.to >= 0) sends.push_back({const_cast<std::uint8_t*>(m.send), m.bytes, m.to, m.tag});
        if (m.from >= 0) receives.push_back({m.receive, m.bytes, m.from, m.tag});
      }
      nccl_->exchange(receives, sends, native_stream(space));
      space.fence();
      return;
    }
#ifdef PORTAMC_HAVE_MPI
    const bool staged = this->staged();
    std::vector<const std::uint8_t*> send(messages.size());
    std::vector<std::uint8_t*> receive(messages.size());
    std::size_t offset = 0;
    for (std::size_t k = 0; k < messages.size(); ++k) {
      const ByteMessage& m = messages[k];
      // MPI counts are int.
      if (m.bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw std::invalid_argument(what_ + ": a message of " + std::to_string(m.bytes) +
                                    " bytes exceeds one MPI message");
      if (staged) {
        if (offset + m.bytes > send_stage_.extent(0))
          throw std::logic_error(what_ + ": staging buffer too small");
        if (m.to >= 0)
          Kokkos::deep_copy(Kokkos::subview(send_stage_, std::make_pair(offset, offset + m.bytes)),
                            ConstDevice(m.send, m.bytes));
        send[k] = send_stage_.data() + offset;
        receive[k] = receive_stage_.data() + offset;
        offset += m.bytes;
      } else {
        send[k] = m.send;
        receive[k] = m.receive;
      }
    }
    // The kernels that wrote the bytes must be done before MPI reads device memory.
    Kokkos::fence();
    std::vector<MPI_Request> requests;
    requests.reserve(2 * messages.size());
    for (std::size_t k = 0; k < messages.size(); ++k) {
      if (messages[k].from < 0) continue;
      requests.emplace_back();
      check(MPI_Irecv(receive[k], static_cast<int>(messages[k].bytes), MPI_BYTE, messages[k].from,
                      messages[k].tag, comm_.native(), &requests.back()));
    }
    for (std::size_t k = 0; k < messages.size(); ++k) {
      if (messages[k].to < 0) continue;
      requests.emplace_back();
      check(MPI_Isend(send[k], static_cast<int>(messages[k].bytes), MPI_BYTE, messages[k].to,
                      messages[k].tag, comm_.native(), &requests.back()));
    }
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
    if (staged) {
      offset = 0;
      for (const ByteMessage& m : messages) {
        if (m.from >= 0)
          Kokkos::deep_copy(
              Device(m.receive, m.bytes),
              Kokkos::subview(receive_stage_, std::make_pair(offset, offset + m.bytes)));
        offset += m.bytes;
      }
      Kokkos::fence();
    }
#else
    throw std::logic_error(what_ + " over several ranks without MPI");
#endif
  }

 private:
#ifdef PORTAMC_HAVE_MPI
  void check(int code) const {
    if (code != MPI_SUCCESS)
      throw std::runtime_error(what_ + ": MPI error " + std::to_string(code));
  }
#endif

  Communicator comm_;
  HaloTransport transport_ = HaloTransport::mpi_direct;
  std::string what_ = "halo exchange";
  std::shared_ptr<NcclCommunicator> nccl_;
  Kokkos::View<std::uint8_t*, StageSpace> send_stage_;
  Kokkos::View<std::uint8_t*, StageSpace> receive_stage_;
};

}  // namespace portamc::parallel

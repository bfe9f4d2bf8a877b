#pragma once
// How the halos of a domain-decomposed model travel between ranks (YAML parallel.halo_transport,
// the same key for every model that exchanges halos):
//   nccl        NCCL send/recv on a CUDA stream (NVLink / PCIe peer copies inside a node,
//               InfiniBand or sockets across nodes); stream-ordered, so a chain of
//               pack -> send/recv -> unpack needs no host round trip. CUDA builds with NCCL.
//   mpi_direct  MPI reads and writes the halo buffers itself: host backends, or a CUDA-aware
//               MPI handed device pointers.
//   mpi_staged  device buffers copied through pinned host memory around host MPI calls.
// `automatic` picks, for device memory, nccl where the build has it and every rank has a GPU of
// its own (NCCL refuses two ranks on one device), else mpi_direct where the MPI library says it
// is CUDA-aware (mpi_accepts_device_memory), else mpi_staged; for host memory always mpi_direct.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"

namespace portamc::parallel {

enum class HaloTransport { automatic, nccl, mpi_direct, mpi_staged };

/// "auto", "nccl", "mpi_direct", "mpi_staged" (the YAML spellings).
const char* to_string(HaloTransport transport);
/// The inverse of to_string; std::invalid_argument naming the accepted values otherwise.
HaloTransport parse_halo_transport(const std::string& name);
/// The YAML spellings, for schemas.
std::vector<std::string> halo_transport_names();

/// Whether this build can use NCCL (CUDA build configured with PORTAMC_ENABLE_NCCL).
bool have_nccl();

/// Whether no two ranks of `comm` use the same GPU (compared by device UUID). Collective;
/// true on one rank and in builds without NCCL (which have no use for the answer).
bool ranks_have_distinct_gpus(const Communicator& comm);

/// The transport the ranks of `comm` use for buffers in host-accessible (`host_memory`) or
/// device memory. Collective. Throws std::invalid_argument (the same on every rank) for nccl
/// without NCCL in the build, nccl on host memory, or nccl with ranks sharing a GPU.
HaloTransport resolve_halo_transport(HaloTransport requested, bool host_memory,
                                     const Communicator& comm = Communicator{});

/// One message of a halo exchange: `bytes` at `data` (device memory) to or from `peer`.
/// `tag` orders several messages between one pair of ranks: the k-th send from A to B in tag
/// order lands in the k-th receive of B from A in tag order, as MPI's tag matching would.
struct DeviceMessage {
  void* data = nullptr;
  std::size_t bytes = 0;
  int peer = 0;
  int tag = 0;
};

/// An NCCL communicator over the ranks of `comm` (ncclCommInitRank with an id broadcast from
/// rank 0): construction and destruction are collective. Without NCCL in the build the
/// constructor throws std::logic_error.
class NcclCommunicator {
 public:
  explicit NcclCommunicator(const Communicator& comm);
  ~NcclCommunicator();
  /// One communicator per MPI communicator, made on first use and kept until Kokkos
  /// finalises (ncclCommInitRank costs about a second; a program making many decomposed
  /// fields, like the tests, pays it once). Collective on first use for `comm`.
  static std::shared_ptr<NcclCommunicator> shared(const Communicator& comm);
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  /// Enqueues the receives and sends as one NCCL group on `stream` (a cudaStream_t) and
  /// returns without waiting: work enqueued later on that stream sees the received bytes.
  /// Every peer must post the matching messages.
  void exchange(const std::vector<DeviceMessage>& receives, const std::vector<DeviceMessage>& sends,
                void* stream);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portamc::parallel

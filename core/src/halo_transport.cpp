#include "portamc/halo_transport.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#ifdef PORTAMC_HAVE_NCCL
#include <nccl.h>
#endif

namespace portamc::parallel {

const char* to_string(HaloTransport transport) {
  switch (transport) {
    case HaloTransport::nccl:
      return "nccl";
    case HaloTransport::mpi_direct:
      return "mpi_direct";
    case HaloTransport::mpi_staged:
      return "mpi_staged";
    default:
      return "auto";
  }
}

std::vector<std::string> halo_transport_names() {
  return {"auto", "nccl", "mpi_direct", "mpi_staged"};
}

HaloTransport parse_halo_transport(const std::string& name) {
  for (HaloTransport t : {HaloTransport::automatic, HaloTransport::nccl, HaloTransport::mpi_direct,
                          HaloTransport::mpi_staged})
    if (name == to_string(t)) return t;
  throw std::invalid_argument("parallel.halo_transport: '" + name +
                              "' is not one of auto, nccl, mpi_direct, mpi_staged");
}

bool have_nccl() {
#ifdef PORTAMC_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

bool ranks_have_distinct_gpus(const Communicator& comm) {
#ifdef PORTAMC_HAVE_NCCL
  if (comm.size() == 1) return true;
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess)
    throw std::runtime_error("ranks_have_distinct_gpus: no CUDA device");
  const auto* uuid = reinterpret_cast<const std::uint8_t*>(&properties.uuid);
  const std::vector<std::uint8_t> all =
      comm.gather(std::vector<std::uint8_t>(uuid, uuid + sizeof(properties.uuid)));
  std::vector<std::uint8_t> verdict{1};
  if (comm.is_root()) {
    std::vector<std::vector<std::uint8_t>> ids;
    for (std::size_t k = 0; k < all.size(); k += sizeof(properties.uuid))
      ids.emplace_back(all.begin() + k, all.begin() + k + sizeof(properties.uuid));
    std::sort(ids.begin(), ids.end());
    verdict[0] = std::adjacent_find(ids.begin(), ids.end()) == ids.end() ? 1 : 0;
  }
  comm.broadcast(verdict);
  return verdict[0] == 1;
#else
  (void)comm;
  return true;
#endif
}

HaloTransport resolve_halo_transport(HaloTransport requested, bool host_memory,
                                     const Communicator& comm) {
  if (requested == HaloTransport::nccl) {
    if (!have_nccl())
      throw std::invalid_argument(
          "parallel.halo_transport: nccl, but this build has no NCCL (configure a CUDA build "
          "with -DPORTAMC_ENABLE_NCCL=ON, or choose auto, mpi_direct or mpi_staged)");
    if (host_memory)
      throw std::invalid_argument(
          "parallel.halo_transport: nccl moves device memory, but this run keeps its fields in "
          "host memory (a CPU backend): choose auto or mpi_direct");
    if (!ranks_have_distinct_gpus(comm))
      throw std::invalid_argument(
          "parallel.halo_transport: nccl needs one GPU per rank, but ranks share a GPU here "
          "(give every rank its own device, or choose auto, mpi_direct or mpi_staged)");
    return requested;
  }
  if (requested != HaloTransport::automatic) return requested;
  if (host_memory) return HaloTransport::mpi_direct;
  if (have_nccl() && ranks_have_distinct_gpus(comm)) return HaloTransport::nccl;
  return mpi_accepts_device_memory() ? HaloTransport::mpi_direct : HaloTransport::mpi_staged;
}

// ---- NcclCommunicator
// ----------------------------------------------------------------------------

#ifdef PORTAMC_HAVE_NCCL

namespace {
void check_nccl(ncclResult_t result, const char* what) {
  if (result != ncclSuccess)
    throw std::runtime_error(std::string("NCCL: ") + what + ": " + ncclGetErrorString(result));
}
}  // namespace

struct NcclCommunicator::State {
  ncclComm_t comm = nullptr;
};

NcclCommunicator::NcclCommunicator(const Communicator& comm) : state_(std::make_unique<State>()) {
  ncclUniqueId id;
  if (comm.is_root()) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  std::vector<std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(&id),
                                  reinterpret_cast<const std::uint8_t*>(&id) + sizeof(id));
  comm.broadcast(bytes);
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<std::uint8_t*>(&id));
  // The device is the one Kokkos was initialised on (one GPU per rank, parallel_environment).
  check_nccl(ncclCommInitRank(&state_->comm, comm.size(), id, comm.rank()), "ncclCommInitRank");
}

NcclCommunicator::~NcclCommunicator() {
  if (state_ && state_->comm) ncclCommDestroy(state_->comm);
}

std::shared_ptr<NcclCommunicator> NcclCommunicator::shared(const Communicator& comm) {
#ifdef PORTAMC_HAVE_MPI
  const auto handle = comm.native();
#else
  const int handle = 0;
#endif
  using Key = std::tuple<decltype(handle), int, int>;
  static std::map<Key, std::shared_ptr<NcclCommunicator>> cache;
  static bool hooked = false;
  const Key key{handle, comm.rank(), comm.size()};
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  if (!hooked) {
    // NCCL communicators must go before the CUDA context Kokkos tears down.
    Kokkos::push_finalize_hook([] { cache.clear(); });
    hooked = true;
  }
  auto made = std::make_shared<NcclCommunicator>(comm);
  cache.emplace(key, made);
  return made;
}

void NcclCommunicator::exchange(const std::vector<DeviceMessage>& receives,
                                const std::vector<DeviceMessage>& sends, void* stream) {
  // NCCL has no tags: messages between two ranks match in the order they are posted, so post
  // both lists in (peer, tag) order, which the two sides agree on.
  auto ordered = [](std::vector<DeviceMessage> m) {
    std::stable_sort(m.begin(), m.end(), [](const DeviceMessage& a, const DeviceMessage& b) {
      return a.peer != b.peer ? a.peer < b.peer : a.tag < b.tag;
    });
    return m;
  };
  const auto s = static_cast<cudaStream_t>(stream);
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (const DeviceMessage& m : ordered(receives))
    check_nccl(ncclRecv(m.data, m.bytes, ncclUint8, m.peer, state_->comm, s), "ncclRecv");
  for (const DeviceMessage& m : ordered(sends))
    check_nccl(ncclSend(m.data, m.bytes, ncclUint8, m.peer, state_->comm, s), "ncclSend");
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
}

#else

struct NcclCommunicator::State {};

NcclCommunicator::NcclCommunicator(const Communicator&) {
  throw std::logic_error("NcclCommunicator: this build has no NCCL");
}
NcclCommunicator::~NcclCommunicator() = default;
std::shared_ptr<NcclCommunicator> NcclCommunicator::shared(const Communicator& comm) {
  return std::make_shared<NcclCommunicator>(comm);  // throws: no NCCL
}
void NcclCommunicator::exchange(const std::vector<DeviceMessage>&,
                                const std::vector<DeviceMessage>&, void*) {
  throw std::logic_error("NcclCommunicator: this build has no NCCL");
}

#endif

}  // namespace portamc::parallel

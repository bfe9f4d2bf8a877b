#pragma once
// The halo exchange of the distributed Glauber chain (slab_decomposition.hpp): after a pass
// each rank sends its first owned row to the rank above and its last owned row to the rank
// below, and receives their boundary rows into its two halo rows. Rows are contiguous in the
// state, so nothing is packed. T: the state's element (bytes for tilings, int16 heights for
// the six-vertex model).
//
// Transport, as in the other models' halo exchanges (parallel.halo_transport, core
// halo_transport.hpp): NCCL send/recv on the default stream (CUDA builds with NCCL); MPI on
// the rows themselves when the memory is host-accessible (Serial, OpenMP; no copies) or the
// MPI is CUDA-aware (mpi_direct); or MPI on pinned host copies (mpi_staged, also selectable on
// CPU backends so that the CPU tests run the staged path).
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
#include "portamc/tilings/slab_decomposition.hpp"

namespace portamc::tilings {

template <class MemorySpace, class T = std::uint8_t>
class RowHaloExchange {
 public:
  using StageSpace = PinnedHostSpace;  // kokkos_compat.hpp
  static constexpr bool host_accessible =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

  RowHaloExchange() = default;
  /// Collective: resolves `requested` (std::invalid_argument, alike on every rank, for one
  /// this build or these ranks cannot do) and sets up NCCL where chosen.
  RowHaloExchange(const parallel::Communicator& comm, const RowSlab& slab,
                  parallel::HaloTransport requested = parallel::HaloTransport::automatic)
      : comm_(comm),
        slab_(slab),
        transport_(parallel::resolve_halo_transport(requested, host_accessible, comm)) {
    if (static_cast<double>(slab.row_length) * sizeof(T) > std::numeric_limits<int>::max())
      throw std::invalid_argument("tilings halo exchange: a row exceeds one MPI message");
    if (comm_.size() == 1) return;
    staged_ = transport_ == parallel::HaloTransport::mpi_staged;
    if (transport_ == parallel::HaloTransport::nccl)
      nccl_ = parallel::NcclCommunicator::shared(comm_);
    if (staged_) {
      // [send up | send down | receive from above | receive from below], one row each.
      stage_ = Kokkos::View<std::uint8_t*, StageSpace>(
          "portamc::tilings::halo_stage",
          4 * static_cast<std::size_t>(slab.row_length) * sizeof(T));
    }
  }

  /// "nccl", "mpi_direct", "mpi_staged" or "one rank".
  std::string transport() const {
    return comm_.size() == 1 ? "one rank" : parallel::to_string(transport_);
  }

  /// Exchanges the boundary rows of `state` (the slab's local rows). Collective over the
  /// neighbours; returns when the halo rows hold the neighbours' rows.
  void run(const Kokkos::View<T*, MemorySpace>& state) {
    if (comm_.size() == 1) return;  // one slab: no halo rows
    if (nccl_) {
      run_nccl(state);
      return;
    }
#ifdef PORTAMC_HAVE_MPI
    using Device =
        Kokkos::View<std::uint8_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    using Stage = Kokkos::View<std::uint8_t*, StageSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const std::size_t n = static_cast<std::size_t>(slab_.row_length) * sizeof(T);  // bytes
    const bool up = slab_.has_upper_neighbour(), down = slab_.has_lower_neighbour();
    std::uint8_t* base = reinterpret_cast<std::uint8_t*>(state.data());
    const auto at = [&](int row) {
      return base + slab_.local_offset(row) * static_cast<std::int64_t>(sizeof(T));
    };
    std::uint8_t* send_up = at(slab_.own_begin);
    std::uint8_t* send_down = at(slab_.own_end - 1);
    std::uint8_t* receive_above = at(slab_.local_begin);
    std::uint8_t* receive_below = at(slab_.local_end - 1);
    std::uint8_t *device_above = receive_above, *device_below = receive_below;
    if (staged_) {
      std::uint8_t* s = stage_.data();
      if (up) Kokkos::deep_copy(Stage(s, n), Device(send_up, n));
      if (down) Kokkos::deep_copy(Stage(s + n, n), Device(send_down, n));
      send_up = s;
      send_down = s + n;
      receive_above = s + 2 * n;
      receive_below = s + 3 * n;
    }
    // The kernel that wrote the rows must be done before MPI reads them.
    Kokkos::fence();
    MPI_Request requests[4];
    int count = 0;
    const int rank = comm_.rank(), length = static_cast<int>(n);
    // Tag 0: rows travelling up (to rank - 1), tag 1: rows travelling down.
    if (up)
      check(MPI_Irecv(receive_above, length, MPI_BYTE, rank - 1, 1, comm_.native(),
                      &requests[count++]));
    if (down)
      check(MPI_Irecv(receive_below, length, MPI_BYTE, rank + 1, 0, comm_.native(),
                      &requests[count++]));
    if (up)
      check(MPI_Isend(send_up, length, MPI_BYTE, rank - 1, 0, comm_.native(), &requests[count++]));
    if (down)
      check(
          MPI_Isend(send_down, length, MPI_BYTE, rank + 1, 1, comm_.native(), &requests[count++]));
    check(MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
    if (staged_) {
      if (up) Kokkos::deep_copy(Device(device_above, n), Stage(receive_above, n));
      if (down) Kokkos::deep_copy(Device(device_below, n), Stage(receive_below, n));
      Kokkos::fence();
    }
#else
    (void)state;
    throw std::logic_error("tilings halo exchange over several ranks without MPI");
#endif
  }

 private:
  // Tag 0: rows travelling up (to rank - 1), tag 1: rows travelling down. The kernels that
  // wrote the rows ran on the default instance, whose stream orders NCCL after them.
  void run_nccl(const Kokkos::View<T*, MemorySpace>& state) {
    const std::size_t n = static_cast<std::size_t>(slab_.row_length) * sizeof(T);
    auto* base = reinterpret_cast<std::uint8_t*>(state.data());
    const auto at = [&](int row) {
      return base + slab_.local_offset(row) * static_cast<std::int64_t>(sizeof(T));
    };
    const int rank = comm_.rank();
    std::vector<parallel::DeviceMessage> sends, receives;
    if (slab_.has_upper_neighbour()) {
      sends.push_back({at(slab_.own_begin), n, rank - 1, 0});
      receives.push_back({at(slab_.local_begin), n, rank - 1, 1});
    }
    if (slab_.has_lower_neighbour()) {
      sends.push_back({at(slab_.own_end - 1), n, rank + 1, 1});
      receives.push_back({at(slab_.local_end - 1), n, rank + 1, 0});
    }
    const Kokkos::DefaultExecutionSpace space;
    nccl_->exchange(receives, sends, native_stream(space));
    space.fence();
  }

#ifdef PORTAMC_HAVE_MPI
  static void check(int code) {
    if (code != MPI_SUCCESS)
      throw std::runtime_error("tilings halo exchange: MPI error " + std::to_string(code));
  }
#endif

  parallel::Communicator comm_;
  RowSlab slab_;
  parallel::HaloTransport transport_ = parallel::HaloTransport::mpi_direct;
  std::shared_ptr<parallel::NcclCommunicator> nccl_;
  bool staged_ = false;
  Kokkos::View<std::uint8_t*, StageSpace> stage_;
};

}  // namespace portamc::tilings

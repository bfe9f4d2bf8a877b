#pragma once
// Definitions of HaloExchange (halo_exchange.hpp); included by distributed_field_impl.hpp.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/detail/halo_exchange.hpp"

namespace portamc::su2 {

namespace detail {

inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

#ifdef PORTAMC_HAVE_MPI
inline void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("su2 halo exchange: ") + what);
}
#endif

// Face rows of the two sides of split direction d with local extent l:
// side 0: face y_d = 1 to the backward rank, halo y_d = l + 1 from the forward rank;
// side 1: face y_d = l to the forward rank, halo y_d = 0 from the backward rank.
struct FaceSides {
  int send_face[2], receive_face[2], tag[2];
  FaceSides(int d, int l) : send_face{1, l}, receive_face{l + 1, 0}, tag{2 * d, 2 * d + 1} {}
};

}  // namespace detail

// ---- HaloExchange ------------------------------------------------------------------------------

template <class ExecutionSpace, class Real>
HaloExchange<ExecutionSpace, Real>::HaloExchange(const ExecutionSpace& space,
                                                 const Decomposition& decomposition,
                                                 const Geometry& padded,
                                                 const parallel::Communicator& comm,
                                                 parallel::HaloTransport transport)
    : decomposition_(decomposition),
      geometry_(padded),
      comm_(comm),
      space_(space),
      exchange_space_(space),
      transport_(transport) {
  const bool staged = transport_ == parallel::HaloTransport::mpi_staged;
  const int dims = decomposition_.dimensions();
  for (int d = 0; d < dims; ++d) {
    if (!decomposition_.split(d)) continue;
    Face f;
    f.d = d;
    f.count = padded.volume() / (2 * padded.extent(d));
    f.in_place = !staged && d == dims - 1;
    f.backward = decomposition_.neighbour(d, -1);
    f.forward = decomposition_.neighbour(d, +1);
    if (!f.in_place) {
      for (int side = 0; side < 2; ++side) {
        f.send[side] = link_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::halo_send"),
                                 chunks_per_link<Real>, f.count);
        f.receive[side] =
            link_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::halo_receive"),
                      chunks_per_link<Real>, f.count);
        if (staged) {
          f.send_host[side] =
              host_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::halo_send_host"),
                        chunks_per_link<Real>, f.count);
          f.receive_host[side] =
              host_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::halo_receive_host"),
                        chunks_per_link<Real>, f.count);
        }
      }
    }
    faces_.push_back(f);
  }
  if (faces_.empty()) return;  // one rank: nothing to exchange (the same on every rank)
  // Another stream for the exchange's kernels, copies and NCCL, so that they run while the
  // interior of a pass is updated on space_.
  exchange_space_ = urgent_instance(space);
  if (transport_ == parallel::HaloTransport::nccl)
    nccl_ = parallel::NcclCommunicator::shared(comm_);
}

template <class ExecutionSpace, class Real>
void HaloExchange<ExecutionSpace, Real>::exchange_all(const link_view& links) {
  for (int mu = 0; mu < geometry_.dimensions(); ++mu)
    for (int parity = 0; parity < 2; ++parity) exchange(links, mu, parity);
}

template <class ExecutionSpace, class Real>
void HaloExchange<ExecutionSpace, Real>::exchange(const link_view& links, int mu, int parity,
                                                  bool wait) {
  if (wait) space_.fence();
  if (faces_.empty()) return;
  const double t0 = detail::wall_seconds();
  const std::int64_t group = geometry_.group_offset(mu, parity);
  if (nccl_)
    exchange_nccl(links, group, parity);
  else
    exchange_mpi(links, group, parity);
  constexpr double link_bytes = chunks_per_link<Real> * sizeof(LinkChunk<Real>);
  for (const Face& f : faces_) bytes_ += 2.0 * static_cast<double>(f.count) * link_bytes;
  seconds_ += detail::wall_seconds() - t0;
}

template <class ExecutionSpace, class Real>
void HaloExchange<ExecutionSpace, Real>::exchange_nccl(const link_view& links, std::int64_t group,
                                                       int parity) {
  using Policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  constexpr int chunks = chunks_per_link<Real>;
  constexpr std::size_t chunk_bytes = sizeof(LinkChunk<Real>);
  void* stream = native_stream(exchange_space_);
  for (Face& f : faces_) {
    const detail::FaceSides sides(f.d, geometry_.extent(f.d) - 2);
    const int to[2] = {f.backward, f.forward};
    const int from[2] = {f.forward, f.backward};
    std::vector<parallel::DeviceMessage> sends, receives;
    if (f.in_place) {
      // Chunk k of the face: slots group + c hs .. + hs of row k of the link array.
      const std::int64_t hs = geometry_.half_stride(f.d);
      for (int side = 0; side < 2; ++side)
        for (int k = 0; k < chunks; ++k) {
          LinkChunk<Real>* row = links.data() + k * links.extent(1) + group;
          const int tag = chunks * sides.tag[side] + k;
          sends.push_back({row + sides.send_face[side] * hs, hs * chunk_bytes, to[side], tag});
          receives.push_back(
              {row + sides.receive_face[side] * hs, hs * chunk_bytes, from[side], tag});
        }
      nccl_->exchange(receives, sends, stream);
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      Kokkos::parallel_for(
          "su2::halo_pack", Policy(exchange_space_, 0, f.count),
          FaceCopyKernel<ExecutionSpace, Real>{links, f.send[side], geometry_, group, f.d,
                                               sides.send_face[side], parity, true});
      const std::size_t bytes = f.count * chunks * chunk_bytes;
      sends.push_back({f.send[side].data(), bytes, to[side], sides.tag[side]});
      receives.push_back({f.receive[side].data(), bytes, from[side], sides.tag[side]});
    }
    // Stream order: the packs before the sends, the receives before the unpacks, and the
    // unpacks before the next direction's packs (whose faces include these halo rows).
    nccl_->exchange(receives, sends, stream);
    for (int side = 0; side < 2; ++side)
      Kokkos::parallel_for(
          "su2::halo_unpack", Policy(exchange_space_, 0, f.count),
          FaceCopyKernel<ExecutionSpace, Real>{links, f.receive[side], geometry_, group, f.d,
                                               sides.receive_face[side], parity, false});
  }
  exchange_space_.fence();
}

template <class ExecutionSpace, class Real>
void HaloExchange<ExecutionSpace, Real>::exchange_mpi(const link_view& links, std::int64_t group,
                                                      int parity) {
#ifdef PORTAMC_HAVE_MPI
  using Policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  const bool staged = transport_ == parallel::HaloTransport::mpi_staged;
  const MPI_Comm comm = comm_.native();
  constexpr int chunks = chunks_per_link<Real>;
  constexpr int chunk_bytes = static_cast<int>(sizeof(LinkChunk<Real>));
  for (Face& f : faces_) {
    const detail::FaceSides sides(f.d, geometry_.extent(f.d) - 2);
    const int to[2] = {f.backward, f.forward};
    const int from[2] = {f.forward, f.backward};
    MPI_Request requests[4];
    MPI_Datatype type = MPI_DATATYPE_NULL;
    void* send_ptr[2];
    void* receive_ptr[2];
    int count = 0;
    if (f.in_place) {
      // chunk k of the face: slots group + c hs .. + hs in row k of the link array.
      const std::int64_t hs = geometry_.half_stride(f.d);
      detail::check_mpi(MPI_Type_create_hvector(
                            chunks, static_cast<int>(hs * chunk_bytes),
                            static_cast<MPI_Aint>(links.extent(1)) * chunk_bytes, MPI_BYTE, &type),
                        "MPI_Type_create_hvector");
      detail::check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
      count = 1;
      for (int side = 0; side < 2; ++side) {
        // LayoutRight (chunk, slot): element (0, slot) is data() + slot.
        send_ptr[side] = links.data() + group + sides.send_face[side] * hs;
        receive_ptr[side] = links.data() + group + sides.receive_face[side] * hs;
      }
    } else {
      for (int side = 0; side < 2; ++side)
        Kokkos::parallel_for(
            "su2::halo_pack", Policy(exchange_space_, 0, f.count),
            FaceCopyKernel<ExecutionSpace, Real>{links, f.send[side], geometry_, group, f.d,
                                                 sides.send_face[side], parity, true});
      if (staged) {
        for (int side = 0; side < 2; ++side)
          Kokkos::deep_copy(exchange_space_, f.send_host[side], f.send[side]);
      }
      exchange_space_.fence();
      for (int side = 0; side < 2; ++side) {
        send_ptr[side] = staged ? static_cast<void*>(f.send_host[side].data())
                                : static_cast<void*>(f.send[side].data());
        receive_ptr[side] = staged ? static_cast<void*>(f.receive_host[side].data())
                                   : static_cast<void*>(f.receive[side].data());
      }
      type = MPI_BYTE;
      const std::int64_t bytes = f.count * chunks * chunk_bytes;
      if (bytes > std::int64_t(2147483647))
        throw std::runtime_error("su2 halo exchange: a face of more than 2^31 bytes");
      count = static_cast<int>(bytes);
    }
    for (int side = 0; side < 2; ++side)
      detail::check_mpi(MPI_Irecv(receive_ptr[side], count, type, from[side], sides.tag[side], comm,
                                  &requests[side]),
                        "MPI_Irecv");
    for (int side = 0; side < 2; ++side)
      detail::check_mpi(MPI_Isend(send_ptr[side], count, type, to[side], sides.tag[side], comm,
                                  &requests[2 + side]),
                        "MPI_Isend");
    detail::check_mpi(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
    if (f.in_place) {
      MPI_Type_free(&type);
    } else {
      for (int side = 0; side < 2; ++side) {
        if (staged) Kokkos::deep_copy(exchange_space_, f.receive[side], f.receive_host[side]);
        Kokkos::parallel_for(
            "su2::halo_unpack", Policy(exchange_space_, 0, f.count),
            FaceCopyKernel<ExecutionSpace, Real>{links, f.receive[side], geometry_, group, f.d,
                                                 sides.receive_face[side], parity, false});
      }
      // The next direction's faces include these halo rows.
      exchange_space_.fence();
    }
  }
#else
  (void)links, (void)group, (void)parity;
  throw std::logic_error("su2 halo exchange without MPI");
#endif
}

}  // namespace portamc::su2

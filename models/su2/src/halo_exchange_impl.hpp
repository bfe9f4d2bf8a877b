#pragma once
// Definitions of HaloExchange (halo_exchange.hpp); included by distributed_field_impl.hpp.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/halo_exchange.hpp"

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

}  // namespace detail

// ---- HaloExchange ------------------------------------------------------------------------------

template <class ExecutionSpace, class Real>
HaloExchange<ExecutionSpace, Real>::HaloExchange(const Decomposition& decomposition,
                                                 const Geometry& padded,
                                                 const parallel::Communicator& comm, bool gpu_aware,
                                                 const ExecutionSpace& space)
    : decomposition_(decomposition),
      geometry_(padded),
      comm_(comm),
      space_(space),
      exchange_space_(space) {
#if KOKKOS_VERSION >= 40000
  // A second instance (CUDA: another stream) for the exchange's kernels and copies, so that
  // they run while the interior of a pass is updated on space_.
  if constexpr (is_device_space_v<ExecutionSpace>)
    exchange_space_ = Kokkos::Experimental::partition_space(space, 1)[0];
#endif
  constexpr bool host_memory =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  direct_ = host_memory || gpu_aware;
  const int dims = decomposition_.dimensions();
  for (int d = 0; d < dims; ++d) {
    if (!decomposition_.split(d)) continue;
    Face f;
    f.d = d;
    f.count = padded.volume() / (2 * padded.extent(d));
    f.in_place = direct_ && d == dims - 1;
    f.backward = decomposition_.neighbour(d, -1);
    f.forward = decomposition_.neighbour(d, +1);
    if (!f.in_place) {
      for (int side = 0; side < 2; ++side) {
        f.send[side] = link_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::halo_send"),
                                 chunks_per_link<Real>, f.count);
        f.receive[side] =
            link_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::halo_receive"),
                      chunks_per_link<Real>, f.count);
        if (!direct_) {
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
#ifdef PORTAMC_HAVE_MPI
  const double t0 = detail::wall_seconds();
  const MPI_Comm comm = comm_.native();
  const std::int64_t group = geometry_.group_offset(mu, parity);
  constexpr int chunks = chunks_per_link<Real>;
  constexpr int chunk_bytes = static_cast<int>(sizeof(LinkChunk<Real>));
  for (Face& f : faces_) {
    const int d = f.d;
    const int l = geometry_.extent(d) - 2;  // local extent
    // side 0: face y_d = 1 to the backward rank, halo y_d = L_d + 1 from the forward rank;
    // side 1: face y_d = L_d to the forward rank, halo y_d = 0 from the backward rank.
    const int send_face[2] = {1, l};
    const int receive_face[2] = {l + 1, 0};
    const int to[2] = {f.backward, f.forward};
    const int from[2] = {f.forward, f.backward};
    const int tag[2] = {2 * d, 2 * d + 1};  // by travel direction
    MPI_Request requests[4];
    MPI_Datatype type = MPI_DATATYPE_NULL;
    void* send_ptr[2];
    void* receive_ptr[2];
    int count = 0;
    if (f.in_place) {
      // chunk k of the face: slots group + c hs .. + hs in row k of the link array.
      const std::int64_t hs = geometry_.half_stride(d);
      detail::check_mpi(MPI_Type_create_hvector(
                            chunks, static_cast<int>(hs * chunk_bytes),
                            static_cast<MPI_Aint>(links.extent(1)) * chunk_bytes, MPI_BYTE, &type),
                        "MPI_Type_create_hvector");
      detail::check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
      count = 1;
      for (int side = 0; side < 2; ++side) {
        // LayoutRight (chunk, slot): element (0, slot) is data() + slot.
        send_ptr[side] = links.data() + group + send_face[side] * hs;
        receive_ptr[side] = links.data() + group + receive_face[side] * hs;
      }
    } else {
      for (int side = 0; side < 2; ++side) {
        FaceCopyKernel<ExecutionSpace, Real> pack{links, f.send[side],    geometry_, group,
                                                  d,     send_face[side], parity,    true};
        Kokkos::parallel_for("su2::halo_pack",
                             Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                                 exchange_space_, 0, f.count),
                             pack);
      }
      if (!direct_) {
        for (int side = 0; side < 2; ++side)
          Kokkos::deep_copy(exchange_space_, f.send_host[side], f.send[side]);
      }
      exchange_space_.fence();
      for (int side = 0; side < 2; ++side) {
        send_ptr[side] = direct_ ? static_cast<void*>(f.send[side].data())
                                 : static_cast<void*>(f.send_host[side].data());
        receive_ptr[side] = direct_ ? static_cast<void*>(f.receive[side].data())
                                    : static_cast<void*>(f.receive_host[side].data());
      }
      type = MPI_BYTE;
      const std::int64_t bytes = f.count * chunks * chunk_bytes;
      if (bytes > std::int64_t(2147483647))
        throw std::runtime_error("su2 halo exchange: a face of more than 2^31 bytes");
      count = static_cast<int>(bytes);
    }
    for (int side = 0; side < 2; ++side)
      detail::check_mpi(
          MPI_Irecv(receive_ptr[side], count, type, from[side], tag[side], comm, &requests[side]),
          "MPI_Irecv");
    for (int side = 0; side < 2; ++side)
      detail::check_mpi(
          MPI_Isend(send_ptr[side], count, type, to[side], tag[side], comm, &requests[2 + side]),
          "MPI_Isend");
    detail::check_mpi(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
    if (f.in_place) {
      MPI_Type_free(&type);
    } else {
      for (int side = 0; side < 2; ++side) {
        if (!direct_) Kokkos::deep_copy(exchange_space_, f.receive[side], f.receive_host[side]);
        FaceCopyKernel<ExecutionSpace, Real> unpack{links, f.receive[side],    geometry_, group,
                                                    d,     receive_face[side], parity,    false};
        Kokkos::parallel_for("su2::halo_unpack",
                             Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                                 exchange_space_, 0, f.count),
                             unpack);
      }
      // The next direction's faces include these halo rows.
      exchange_space_.fence();
    }
    bytes_ += 2.0 * static_cast<double>(f.count) * chunks * chunk_bytes;
  }
  seconds_ += detail::wall_seconds() - t0;
#else
  (void)links, (void)mu, (void)parity;
  throw std::logic_error("su2 halo exchange without MPI");
#endif
}

}  // namespace portamc::su2

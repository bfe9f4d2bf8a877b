#pragma once
// Halo exchange of a rank's padded block (decomposition.hpp): after the checkerboard pass
// (mu, parity) has written the interior links of that group, the copies of them held by the
// neighbours are refreshed.
//
// For each split direction d in turn (0 .. D-1), the face y_d = 1 goes to the backward
// neighbour (its halo y_d = L_d + 1) and the face y_d = L_d to the forward one (its halo
// y_d = 0), each face over the FULL padded range of the other directions: a face sent in a
// later direction then already carries the halo rows received in earlier ones, so the edge
// and corner halos that staples read (x + mu - nu) come out right without diagonal messages.
//
// A face of the slowest direction D-1 is one contiguous range of slots of each chunk of the
// link group and is sent from / received into the link array itself unless it is staged;
// other faces are packed by a kernel into contiguous device buffers. Transports
// (core halo_transport.hpp):
//   nccl        pack, NCCL send/recv and unpack of every split direction in turn, all
//               enqueued on one high-priority stream (urgent_instance): no host round trip
//               between the directions, and the kernels get SMs while an update runs.
//   mpi_direct  nonblocking MPI on the buffers (host backends, or CUDA-aware MPI);
//   mpi_staged  device buffers copied through pinned host memory around the MPI calls.
// With P_d = 2 both neighbours are one rank and the two messages differ by tag (NCCL: by
// their order, which NcclCommunicator derives from the tags).
//
// Face element i <-> half-site index h (face_half_site): the same i names the same
// coordinates of the other directions on sender and receiver, since the face coordinates
// 1 / L_d + 1 and L_d / 0 have equal parities (L_d even).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "portamc/halo_transport.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/parallel.hpp"
#include "portamc/su2/detail/decomposition.hpp"
#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/link_storage.hpp"

namespace portamc::su2 {

/// Host memory the halos are staged through (kokkos_compat.hpp).
using StagingSpace = PinnedHostSpace;

/// The half-site index of element i of the face y_d = c of the links of parity p
/// (V / (2 N_d) elements, in the lexicographic order of the other coordinates).
KOKKOS_INLINE_FUNCTION std::int64_t face_half_site(const Geometry& g, int d, int c, int p,
                                                   std::int64_t i) {
  if (d > 0) {
    // Sites 2h and 2h+1 share x_d: the face is blocks of half_stride(d) consecutive h.
    const std::int64_t inner = g.half_stride(d);
    const std::int64_t outer = i / inner;
    return (i - outer * inner) + c * inner + outer * inner * g.extent(d);
  }
  // d = 0: half of the rows (x_1, ...) hold the face site of parity p at x_0 = c; x_1's
  // lowest bit picks the row of the right parity.
  const std::int64_t pairs = g.extent(1) / 2;
  std::int64_t rest = i / pairs;
  const int x1_pair = static_cast<int>(i - rest * pairs);
  const std::int64_t rest_index = rest;
  int sum = 0;
  for (int mu = 2; mu < g.dimensions(); ++mu) {
    const std::int64_t next = rest / g.extent(mu);
    sum += static_cast<int>(rest - next * g.extent(mu));
    rest = next;
  }
  const int x1 = 2 * x1_pair + ((p ^ c ^ sum) & 1);
  const std::int64_t row = x1 + g.extent(1) * rest_index;
  return row * (g.extent(0) / 2) + (c >> 1);
}

/// Copies face elements between the link array and a contiguous buffer (chunk, element).
template <class ExecutionSpace, class Real>
struct FaceCopyKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  LinkView<Real, memory_space> links;
  LinkView<Real, memory_space> buffer;
  Geometry geometry;
  std::int64_t group = 0;  ///< group_offset(mu, parity)
  int d = 0, c = 0, parity = 0;
  bool pack = true;  ///< links -> buffer, else buffer -> links

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t slot = group + face_half_site(geometry, d, c, parity, i);
    for (int k = 0; k < chunks_per_link<Real>; ++k) {
      if (pack)
        buffer(k, i) = links(k, slot);
      else
        links(k, slot) = buffer(k, i);
    }
  }
};

template <class ExecutionSpace, class Real>
class HaloExchange {
 public:
  using memory_space = typename ExecutionSpace::memory_space;
  using link_view = LinkView<Real, memory_space>;
  using host_view = LinkView<Real, StagingSpace>;

  /// `space` is the instance the field's kernels run on; `padded` is the geometry of the
  /// padded block; `transport` a resolved one (parallel::resolve_halo_transport). Collective
  /// (an NCCL communicator is set up).
  HaloExchange(const ExecutionSpace& space, const Decomposition& decomposition,
               const Geometry& padded, const parallel::Communicator& comm,
               parallel::HaloTransport transport);

  /// Refreshes the halo copies of link group (mu, parity), parity in padded coordinates.
  /// With wait = true it first waits for the work enqueued on the space (the pass that wrote
  /// the group). With wait = false the caller has waited for the kernels that wrote the
  /// faces and may have enqueued more work on the space that neither reads nor writes the
  /// halos of (mu, parity) (the rest of the pass: overlap); packing and unpacking then run
  /// on a second, high-priority execution space instance where Kokkos can make one
  /// (urgent_instance), so they do not queue behind that work. Returns once the halos are
  /// written.
  void exchange(const link_view& links, int mu, int parity, bool wait = true);
  /// Every group: after a start or a load.
  void exchange_all(const link_view& links);

  parallel::HaloTransport transport() const { return transport_; }
  /// Wall seconds spent in exchange() after the preceding work finished; bytes sent.
  double seconds() const { return seconds_; }
  double bytes_sent() const { return bytes_; }
  void reset_statistics() { seconds_ = 0, bytes_ = 0; }

 private:
  void exchange_nccl(const link_view& links, std::int64_t group, int parity);
  void exchange_mpi(const link_view& links, std::int64_t group, int parity);

  struct Face {
    int d = 0;
    std::int64_t count = 0;         ///< elements (links) per face
    bool in_place = false;          ///< sent from / received into the link array
    int backward = 0, forward = 0;  ///< neighbour ranks
    link_view send[2], receive[2];  ///< [0]: towards / from backward, [1]: forward
    host_view send_host[2], receive_host[2];
  };

  Decomposition decomposition_;
  Geometry geometry_;
  parallel::Communicator comm_;
  ExecutionSpace space_;
  ExecutionSpace exchange_space_;  ///< pack / unpack / staging copies / NCCL
  parallel::HaloTransport transport_;
  std::shared_ptr<parallel::NcclCommunicator> nccl_;
  std::vector<Face> faces_;
  double seconds_ = 0, bytes_ = 0;
};

}  // namespace portamc::su2

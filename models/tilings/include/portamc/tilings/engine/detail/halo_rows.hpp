#pragma once
// The halo exchange of the slab chain (row_slab_chain.hpp, slab_decomposition.hpp): after a
// launch the ranks send rows of their slabs to their neighbours as the family lists them
// (HaloRows). Most families exchange symmetric halos (symmetric_halo_rows): each rank sends
// its first `slab.halo` owned rows to the rank above and its last `slab.halo` owned rows to the
// rank below, and receives their boundary rows into its halo rows (one row each way for
// dominoes, lozenges and the six-vertex model). Tiled dominoes list rows that depend on the
// launch (distributed_tiled_domino.hpp). Rows are contiguous in the state, so nothing is
// packed. T: the state's element (bytes for tilings, int16 heights for the six-vertex model).
//
// Transport: core's ByteExchange (byte_exchange.hpp) over parallel.halo_transport, as for the
// cvf slab halos.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/byte_exchange.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"

namespace portamc::tilings {

/// Collective: the `count` owned bytes of `state` from byte `first` on (a rank's own rows of a
/// slab state) gathered on rank 0 in rank order, i.e. the whole state with its rows in order;
/// empty on the other ranks. Every slab chain reads its state back this way.
template <class Space>
std::vector<std::uint8_t> gather_owned_bytes(const parallel::Communicator& comm,
                                             const Kokkos::View<std::uint8_t*, Space>& state,
                                             std::size_t first, std::size_t count) {
  std::vector<std::uint8_t> own(count);
  Kokkos::deep_copy(
      Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          own.data(), own.size()),
      Kokkos::subview(state, std::make_pair(first, first + count)));
  return comm.gather(own);
}

/// One message of a halo exchange, in global rows of the slab state: `rows` rows from row
/// `send_row` to rank `to`, and `rows` rows into row `receive_row` from rank `from` (-1: no
/// such side).
struct HaloRows {
  int send_row, receive_row, rows, to, from, tag;
};

/// Tag 0: the h first owned rows travelling up into the h halo rows below the upper
/// neighbour's slab; tag 1: the h last owned rows travelling down into the h halo rows above
/// the lower neighbour's. Every rank owns at least h rows (row_slab), so these are whole halos.
inline std::vector<HaloRows> symmetric_halo_rows(const RowSlab& slab) {
  const int above = slab.has_upper_neighbour() ? slab.rank - 1 : -1;
  const int below = slab.has_lower_neighbour() ? slab.rank + 1 : -1;
  const int h = slab.halo;
  return {{slab.own_begin, slab.local_end - h, h, above, below, 0},
          {slab.own_end - h, slab.local_begin, h, below, above, 1}};
}

template <class MemorySpace, class T = std::uint8_t>
class RowHaloExchange {
 public:
  RowHaloExchange() = default;
  /// Collective: resolves `requested` (std::invalid_argument, alike on every rank, for one
  /// this build or these ranks cannot do) and sets up NCCL where chosen.
  RowHaloExchange(const parallel::Communicator& comm, const RowSlab& slab,
                  parallel::HaloTransport requested = parallel::HaloTransport::automatic)
      : comm_(comm), slab_(slab) {
    if (static_cast<double>(slab.row_length) * slab.halo * sizeof(T) >
        std::numeric_limits<int>::max())
      throw std::invalid_argument("tilings halo exchange: the halo rows exceed one MPI message");
    exchange_ = parallel::ByteExchange<MemorySpace>(comm, 2 * row_bytes(slab.halo), requested,
                                                    "tilings halo exchange");
  }

  /// "nccl", "mpi_direct", "mpi_staged" or "one rank".
  std::string transport() const { return exchange_.transport(); }

  /// Sends and receives `messages` (rows of `state`, the slab's local rows). Collective over
  /// the neighbours; returns when the received rows have arrived.
  void run(const Kokkos::View<T*, MemorySpace>& state, const std::vector<HaloRows>& messages) {
    if (comm_.size() == 1) return;  // one slab: no halo rows
    auto* base = reinterpret_cast<std::uint8_t*>(state.data());
    const auto at = [&](int row) {
      return row < 0 ? nullptr
                     : base + slab_.local_offset(row) * static_cast<std::int64_t>(sizeof(T));
    };
    std::vector<parallel::ByteMessage> bytes;
    for (const HaloRows& m : messages)
      bytes.push_back({at(m.send_row), at(m.receive_row), row_bytes(m.rows), m.to, m.from, m.tag});
    exchange_.run(bytes);
  }

 private:
  /// Bytes of `rows` rows. An exchange moves at most 2 h rows each way (h = slab.halo).
  std::size_t row_bytes(int rows) const {
    return static_cast<std::size_t>(slab_.row_length) * static_cast<std::size_t>(rows) * sizeof(T);
  }

  parallel::Communicator comm_;
  RowSlab slab_;
  parallel::ByteExchange<MemorySpace> exchange_;
};

}  // namespace portamc::tilings

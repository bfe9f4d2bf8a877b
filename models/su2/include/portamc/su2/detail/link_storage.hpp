#pragma once
// Link storage: View<LinkChunk<Real>**, LayoutRight> links(chunk, slot), where a chunk is
// 16 bytes of a link's quaternion (a0, a1, a2, a3): the whole link in float (one chunk),
// (a0, a1) and (a2, a3) in double (two chunks), and slot = (2 mu + parity) V/2 + site/2
// (geometry.hpp).
//
// Why: an update kernel runs one thread per link of one direction and parity, threads
// numbered by slot, so consecutive threads read consecutive chunks of their own links and
// of their neighbours in any direction: a warp's load is one contiguous, coalesced
// 512-byte run (structure of arrays by direction and parity, 16-byte vectors inside).
// One 16-byte load per chunk instead of one 4- or 8-byte load per component cuts the load
// instructions and their address arithmetic by 4 (float) or 2 (double); the update kernels
// were bound by instruction issue, not by memory (ncu, H200: 76 % issue slots busy, 36 %
// of DRAM bandwidth for the float heatbath with per-component arrays). Chunks of 16 bytes
// are the widest load every backend's hardware has. LayoutRight is fixed rather than the
// backend's default so the layout, and the canonical conversion, is the same everywhere.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

/// 16 bytes of a link, aligned so that compilers load it with one vector instruction.
template <class Real>
struct alignas(16) LinkChunk {
  using real_type = Real;
  static constexpr int size = static_cast<int>(16 / sizeof(Real));
  Real v[size];
};

/// Chunks per link: 1 in float, 2 in double.
template <class Real>
inline constexpr int chunks_per_link = static_cast<int>(4 * sizeof(Real) / 16);

template <class Real, class MemorySpace>
using LinkView = Kokkos::View<LinkChunk<Real>**, Kokkos::LayoutRight, MemorySpace>;

/// Read-only view of the links that an update kernel does not write (staple links).
template <class Real, class MemorySpace>
using ConstLinkView = Kokkos::View<const LinkChunk<Real>**, Kokkos::LayoutRight, MemorySpace,
                                   Kokkos::MemoryTraits<Kokkos::RandomAccess>>;

/// The precision of a link view (float or double).
template <class View>
using link_real_t = typename View::non_const_value_type::real_type;

template <class View>
KOKKOS_INLINE_FUNCTION Quaternion<link_real_t<View>> load_link(const View& links,
                                                               std::int64_t slot) {
  const auto first = links(0, slot);
  if constexpr (View::non_const_value_type::size == 4) {
    return {first.v[0], first.v[1], first.v[2], first.v[3]};
  } else {
    const auto second = links(1, slot);
    return {first.v[0], first.v[1], second.v[0], second.v[1]};
  }
}

template <class View, class Real>
KOKKOS_INLINE_FUNCTION void store_link(const View& links, std::int64_t slot,
                                       const Quaternion<Real>& q) {
  using Chunk = typename View::non_const_value_type;
  using T = typename Chunk::real_type;
  if constexpr (Chunk::size == 4) {
    links(0, slot) = Chunk{
        {static_cast<T>(q.a0), static_cast<T>(q.a1), static_cast<T>(q.a2), static_cast<T>(q.a3)}};
  } else {
    links(0, slot) = Chunk{{static_cast<T>(q.a0), static_cast<T>(q.a1)}};
    links(1, slot) = Chunk{{static_cast<T>(q.a2), static_cast<T>(q.a3)}};
  }
}

}  // namespace portamc::su2

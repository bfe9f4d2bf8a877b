#pragma once
// Link storage: View<Real**, LayoutRight> links(component, slot) with component c = 0..3
// the quaternion (a0, a1, a2, a3) and slot = (2 mu + parity) V/2 + site/2 (geometry.hpp).
//
// Why: an update kernel runs one thread per link of one direction and parity, threads
// numbered by slot. Each component is then a contiguous run of V/2 reals, so a warp's loads
// of one component, of its own links or of the neighbours in any direction, hit consecutive
// addresses (structure of arrays by component, direction and parity). LayoutRight is fixed
// rather than the backend's default so the layout, and the canonical conversion, is the
// same on every backend.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

template <class Real, class MemorySpace>
using LinkView = Kokkos::View<Real**, Kokkos::LayoutRight, MemorySpace>;

/// Read-only view of the links that an update kernel does not write (staple links).
template <class Real, class MemorySpace>
using ConstLinkView = Kokkos::View<const Real**, Kokkos::LayoutRight, MemorySpace,
                                   Kokkos::MemoryTraits<Kokkos::RandomAccess>>;

template <class View>
KOKKOS_INLINE_FUNCTION Quaternion<typename View::non_const_value_type> load_link(
    const View& links, std::int64_t slot) {
  return {links(0, slot), links(1, slot), links(2, slot), links(3, slot)};
}

template <class View, class Real>
KOKKOS_INLINE_FUNCTION void store_link(const View& links, std::int64_t slot,
                                       const Quaternion<Real>& q) {
  using T = typename View::non_const_value_type;
  links(0, slot) = static_cast<T>(q.a0);
  links(1, slot) = static_cast<T>(q.a1);
  links(2, slot) = static_cast<T>(q.a2);
  links(3, slot) = static_cast<T>(q.a3);
}

}  // namespace portamc::su2

#pragma once
// SU(2) elements as unit quaternions: U = a0 + i a·sigma with a0^2 + |a|^2 = 1. Four reals
// instead of a 2x2 complex matrix, and the sum of SU(2) matrices (a staple sum) is again a
// quaternion k·V with V in SU(2), k = |W|. Products follow from
// (a·sigma)(b·sigma) = a·b + i (a x b)·sigma:
//   (a0, a)(b0, b) = (a0 b0 - a·b, a0 b + b0 a - a x b),   U^dagger = (a0, -a),   ½ Tr U = a0.
#include <Kokkos_Core.hpp>

#include "portamc/kokkos_compat.hpp"

namespace portamc::su2 {

template <class Real>
struct Quaternion {
  Real a0, a1, a2, a3;

  KOKKOS_INLINE_FUNCTION static Quaternion identity() {
    return {Real(1), Real(0), Real(0), Real(0)};
  }
  KOKKOS_INLINE_FUNCTION static Quaternion zero() { return {Real(0), Real(0), Real(0), Real(0)}; }

  /// ½ Tr U (for an SU(2) element), or the real part of any quaternion.
  KOKKOS_INLINE_FUNCTION Real half_trace() const { return a0; }
  /// det of the 2x2 matrix a0 + i a·sigma, = |q|^2.
  KOKKOS_INLINE_FUNCTION Real norm2() const { return a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3; }

  KOKKOS_INLINE_FUNCTION Quaternion& operator+=(const Quaternion& b) {
    a0 += b.a0, a1 += b.a1, a2 += b.a2, a3 += b.a3;
    return *this;
  }

  template <class Other>
  KOKKOS_INLINE_FUNCTION Quaternion<Other> cast() const {
    return {static_cast<Other>(a0), static_cast<Other>(a1), static_cast<Other>(a2),
            static_cast<Other>(a3)};
  }
};

/// Hermitian conjugate; the inverse for SU(2) elements.
template <class Real>
KOKKOS_INLINE_FUNCTION Quaternion<Real> dagger(const Quaternion<Real>& q) {
  return {q.a0, -q.a1, -q.a2, -q.a3};
}

template <class Real>
KOKKOS_INLINE_FUNCTION Quaternion<Real> operator*(const Quaternion<Real>& a,
                                                  const Quaternion<Real>& b) {
  return {a.a0 * b.a0 - a.a1 * b.a1 - a.a2 * b.a2 - a.a3 * b.a3,
          a.a0 * b.a1 + b.a0 * a.a1 - (a.a2 * b.a3 - a.a3 * b.a2),
          a.a0 * b.a2 + b.a0 * a.a2 - (a.a3 * b.a1 - a.a1 * b.a3),
          a.a0 * b.a3 + b.a0 * a.a3 - (a.a1 * b.a2 - a.a2 * b.a1)};
}

template <class Real>
KOKKOS_INLINE_FUNCTION Quaternion<Real> operator+(Quaternion<Real> a, const Quaternion<Real>& b) {
  a += b;
  return a;
}

template <class Real>
KOKKOS_INLINE_FUNCTION Quaternion<Real> scaled(const Quaternion<Real>& q, Real s) {
  return {q.a0 * s, q.a1 * s, q.a2 * s, q.a3 * s};
}

/// q / |q|: projects a quaternion that drifted off the unit sphere back onto SU(2).
/// The caller guarantees q != 0.
template <class Real>
KOKKOS_INLINE_FUNCTION Quaternion<Real> normalised(const Quaternion<Real>& q) {
  return scaled(q, kmath::rsqrt(q.norm2()));
}

}  // namespace portamc::su2

#pragma once
// Random numbers for SU(2): uniforms in the working precision and Haar-random elements,
// all from words of the project's counter-based generator (rng.hpp).
//
// One 32-bit word per uniform in both precisions: float keeps its top 24 bits (exact),
// double uses all 32 (exact). A Philox call thus gives four uniforms; the 32-bit resolution
// truncates exponential tails below e^-22, far below any statistical resolution.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/fast_math.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"
#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

template <class Real>
struct Uniform;

template <>
struct Uniform<float> {
  /// [0, 1)
  KOKKOS_INLINE_FUNCTION static float closed0(std::uint32_t w) { return rng::uniform_float(w); }
  /// (0, 1]: safe for log
  KOKKOS_INLINE_FUNCTION static float open0(std::uint32_t w) { return rng::uniform_float_open0(w); }
};

template <>
struct Uniform<double> {
  KOKKOS_INLINE_FUNCTION static double closed0(std::uint32_t w) {
    return static_cast<double>(w) * (1.0 / 4294967296.0);
  }
  KOKKOS_INLINE_FUNCTION static double open0(std::uint32_t w) {
    return (static_cast<double>(w) + 1.0) * (1.0 / 4294967296.0);
  }
};

template <class Real>
inline constexpr Real two_pi = Real(6.283185307179586476925286766559);

/// Haar-random SU(2) element from three words (Shoemake's uniform unit quaternion):
/// (sqrt(1-u1) sin 2pi u2, sqrt(1-u1) cos 2pi u2, sqrt(u1) sin 2pi u3, sqrt(u1) cos 2pi u3).
/// Evaluated in double so that float fields get the rounding of the double one.
KOKKOS_INLINE_FUNCTION Quaternion<double> haar_random(const rng::Block& b) {
  const double u1 = Uniform<double>::closed0(b[0]);
  const double t2 = two_pi<double> * Uniform<double>::closed0(b[1]);
  const double t3 = two_pi<double> * Uniform<double>::closed0(b[2]);
  const double r1 = kmath::sqrt(1.0 - u1), r2 = kmath::sqrt(u1);
  return {r1 * kmath::sin(t2), r1 * kmath::cos(t2), r2 * kmath::sin(t3), r2 * kmath::cos(t3)};
}

/// The SU(2) element (1 - y, r n) with |n| = 1 uniform on the sphere, r = sqrt(y (2 - y)):
/// completes a heatbath draw of a0 = 1 - y to a uniformly rotated element. Takes y rather
/// than a0 so r keeps full relative precision when a0 is close to 1.
/// u_cos: a uniform on [0, 1) for cos theta = 1 - 2 u_cos; w_phi: a word for phi.
template <class Real>
KOKKOS_INLINE_FUNCTION Quaternion<Real> with_random_axis(Real y, Real u_cos, std::uint32_t w_phi) {
  const Real r2 = y * (Real(2) - y);
  const Real r = fastmath::sqrt(r2 > Real(0) ? r2 : Real(0));
  const Real cos_theta = Real(1) - Real(2) * u_cos;
  const Real s2 = Real(1) - cos_theta * cos_theta;
  const Real sin_theta = fastmath::sqrt(s2 > Real(0) ? s2 : Real(0));
  Real cos_phi, sin_phi;
  fastmath::sincos(two_pi<Real> * Uniform<Real>::closed0(w_phi), cos_phi, sin_phi);
  return {Real(1) - y, r * sin_theta * cos_phi, r * sin_theta * sin_phi, r * cos_theta};
}

}  // namespace portamc::su2

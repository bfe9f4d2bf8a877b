#pragma once
// Single-precision elementary functions for kernels bound by instruction issue.
//
// On CUDA devices they run on the special-function unit (MUFU: one instruction each, against
// 20-40 for the correctly rounded library functions with their range reductions and slow
// paths); on every other backend, and in double everywhere, they are the library functions.
// Bounds, checked by tests/core/test_fast_math.cpp on the backend that runs them:
//   sin, cos   absolute error <= 6e-7 for |x| <= 1e4: x is reduced modulo 2 pi first (two-part
//              Cody-Waite with fused multiply-adds), so MUFU only sees [-pi, pi], where its
//              error is 2^-21.4 = 3.6e-7; the rest is the float rounding of the reduced x.
//   log        absolute error <= 4e-7 for x in [1/2, 2], relative <= 4e-7 for other normal
//              x > 0 (log2 on MUFU times ln 2).
//   sqrt       relative error <= 2.5e-7 for x >= 0, and sqrt(0) = 0.
// These are 2-6 float roundings: below the resolution of the float state they feed in the
// kernels that use them (a phase of order 1 has ulp 1.2e-7-2.4e-7), and the price of reaching
// the GPU's arithmetic rate. Kernels that need correctly rounded results use kmath.
#include <Kokkos_Core.hpp>
#include <cmath>

#include "portamc/kokkos_compat.hpp"

namespace portamc::fastmath {

/// Whether these functions differ from the library ones on ExecutionSpace (tests widen their
/// tolerances to the bounds above there).
template <class ExecutionSpace>
inline constexpr bool hardware_approximations = false;
#if defined(KOKKOS_ENABLE_CUDA)
template <>
inline constexpr bool hardware_approximations<Kokkos::Cuda> = true;
#endif

/// True in code compiled for a GPU's special-function unit (the CUDA device pass), where the
/// float functions below are single instructions; false in host code. A kernel that keeps its
/// own polynomial for the CPUs (bitwise the same on every host backend, and vectorised there)
/// selects the unit on the GPU with `if constexpr (fastmath::on_special_function_unit)`, and
/// needs no backend #if of its own.
#if defined(__CUDA_ARCH__)
inline constexpr bool on_special_function_unit = true;
#else
inline constexpr bool on_special_function_unit = false;
#endif

#if defined(__CUDA_ARCH__)
namespace detail {
/// x minus the nearest multiple of 2 pi, in [-pi, pi] up to one rounding, for |x| < 2^24.
__device__ inline float reduce_two_pi(float x) {
  constexpr float inv_two_pi = 0.15915494309189533577f;
  constexpr float round_shift = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const float k = __fadd_rn(__fmaf_rn(x, inv_two_pi, round_shift), -round_shift);
  constexpr float two_pi_high = 6.28318548202514648438f;   // float(2 pi)
  constexpr float two_pi_low = -1.74845553146951715e-07f;  // 2 pi - two_pi_high
  return __fmaf_rn(-k, two_pi_low, __fmaf_rn(-k, two_pi_high, x));
}
}  // namespace detail
#endif

KOKKOS_INLINE_FUNCTION float sin(float x) {
#if defined(__CUDA_ARCH__)
  return __sinf(detail::reduce_two_pi(x));
#else
  return kmath::sin(x);
#endif
}

KOKKOS_INLINE_FUNCTION float cos(float x) {
#if defined(__CUDA_ARCH__)
  return __cosf(detail::reduce_two_pi(x));
#else
  return kmath::cos(x);
#endif
}

/// cos x and sin x with one reduction.
KOKKOS_INLINE_FUNCTION void sincos(float x, float& c, float& s) {
#if defined(__CUDA_ARCH__)
  __sincosf(detail::reduce_two_pi(x), &s, &c);
#else
  c = kmath::cos(x);
  s = kmath::sin(x);
#endif
}

/// cos x and sin x for x already in [-pi, pi] (no reduction).
KOKKOS_INLINE_FUNCTION void sincos_reduced(float x, float& c, float& s) {
#if defined(__CUDA_ARCH__)
  __sincosf(x, &s, &c);
#else
  c = kmath::cos(x);
  s = kmath::sin(x);
#endif
}

KOKKOS_INLINE_FUNCTION float log(float x) {
#if defined(__CUDA_ARCH__)
  return __logf(x);
#else
  return kmath::log(x);
#endif
}

KOKKOS_INLINE_FUNCTION float sqrt(float x) {
#if defined(__CUDA_ARCH__)
  float root;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(root) : "f"(x));
  return root;
#else
  return kmath::sqrt(x);
#endif
}

/// log2 x and sqrt x for a normal float x >= 0, with subnormal inputs and results flushed to
/// zero: one instruction each on the special-function unit, without the subnormal scaling that
/// log and sqrt above keep (six instructions per Box–Muller pair in josephson's noise); the
/// library's functions elsewhere. For arguments known to be normal, the results equal
/// log(x) / ln 2 and sqrt(x) within the bounds above.
KOKKOS_INLINE_FUNCTION float log2_normal(float x) {
#if defined(__CUDA_ARCH__)
  float result;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(result) : "f"(x));
  return result;
#else
  return std::log2(x);
#endif
}

KOKKOS_INLINE_FUNCTION float sqrt_normal(float x) {
#if defined(__CUDA_ARCH__)
  float root;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(root) : "f"(x));
  return root;
#else
  return kmath::sqrt(x);
#endif
}

KOKKOS_INLINE_FUNCTION double sin(double x) {
  return kmath::sin(x);
}
KOKKOS_INLINE_FUNCTION double cos(double x) {
  return kmath::cos(x);
}
KOKKOS_INLINE_FUNCTION void sincos(double x, double& c, double& s) {
  c = kmath::cos(x);
  s = kmath::sin(x);
}
KOKKOS_INLINE_FUNCTION void sincos_reduced(double x, double& c, double& s) {
  sincos(x, c, s);
}
KOKKOS_INLINE_FUNCTION double log(double x) {
  return kmath::log(x);
}
KOKKOS_INLINE_FUNCTION double sqrt(double x) {
  return kmath::sqrt(x);
}

}  // namespace portamc::fastmath

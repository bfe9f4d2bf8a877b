#pragma once
// The elementary functions of the integration loop, written out for speed and for the same
// rounding on every backend: the ensemble calls sin once per step (twice with Heun) and log,
// sqrt, cos and sin once per pair of normals, so these dominate a GPU step. Compared with a
// math library they need no floating-point to integer conversions (which run on a slow
// pipeline on GPUs), no special-case handling of arguments the loop never produces and no
// slow path for huge arguments.
//
//   sincos_turn  cos and sin of 2 pi w 2^-32 for a 32-bit word w. Float: quadrant from the
//                top bits of w, the remaining angle in [-pi/4, pi/4) from its low bits
//                exactly. Double: the nearest of 256 tabulated angles and short series for the
//                rest (|rest| <= pi/256).
//   log_unit     ln u for u in [2^-126, 1] (normal numbers; Box–Muller's u is in
//                [2^-32, 1]); float by Cephes' logf polynomial, double by a table of 177
//                points c (log_table.hpp) and a degree-7 series of ln(1 + r), |r| < 0.0029,
//                with no division, no branch and no conversion (the library's double log
//                was a third of the double Box–Muller pair's instructions).
//   sin_phase    sin x by Cody–Waite reduction modulo pi/2 (pi/2 in three parts whose
//                products with the quotient k are exact for |k| < 2^13 in float and 2^26 in
//                double, with or without multiply-add contraction) and the polynomials below;
//                accurate to about 1e-7 absolute for |x| < 10^4 in float, degrading smoothly
//                beyond, where a float phase no longer resolves one time step anyway.
// Polynomials on [-pi/4, pi/4]: Cephes sinf/cosf (float) and sin/cos (double). The double
// tables of log_unit and sincos_turn: elementary_tables.hpp, written by
// tools/josephson_tables.py.
//
// On CUDA devices the float versions are the special-function unit's instead (fast_math.hpp:
// one instruction each, absolute errors 4e-7 to 6e-7, i.e. about two float roundings): a float
// step there is bound by instruction issue, and the polynomials above are ~40 instructions per
// step that the hardware does in ~8. The float host backends keep the polynomials (they
// vectorise); double is the same everywhere. tests/models/josephson/test_josephson_elementary
// checks each backend against its own bounds.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "portamc/fast_math.hpp"
#include "portamc/josephson/detail/elementary_tables.hpp"
#include "portamc/kokkos_compat.hpp"

namespace portamc::josephson {

/// Reinterprets the bits of a value (Kokkos' bit_cast is missing in Kokkos 3.4).
template <class To, class From>
KOKKOS_FORCEINLINE_FUNCTION To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of one size");
  To to;
  memcpy(&to, &from, sizeof(To));
  return to;
}

/// Cephes' double sin and cos polynomials on [-pi/4, pi/4]: sin x = x + x z S(z),
/// cos x = 1 - z/2 + z^2 C(z), z = x^2, S and C with these coefficients of z^0 .. z^5.
namespace octant_coefficients {
inline constexpr double s0 = -1.66666666666666307295e-1, s1 = 8.33333333332211858878e-3,
                        s2 = -1.98412698295895385996e-4, s3 = 2.75573136213857245213e-6,
                        s4 = -2.50507477628578072866e-8, s5 = 1.58962301576546568060e-10;
inline constexpr double c0 = 4.16666666666665929218e-2, c1 = -1.38888888888730564116e-3,
                        c2 = 2.48015872888517045348e-5, c3 = -2.75573141792967388112e-7,
                        c4 = 2.08757008419747316778e-9, c5 = -1.13585365213876817300e-11;
}  // namespace octant_coefficients

/// cos x and sin x for x in [-pi/4, pi/4].
template <class Real>
KOKKOS_INLINE_FUNCTION void sincos_octant(Real x, Real& c, Real& s) {
  const Real z = x * x;
  if constexpr (std::is_same_v<Real, float>) {
    s = x + x * z * (-1.6666654611e-1f + z * (8.3321608736e-3f + z * -1.9515295891e-4f));
    c = 1.0f - 0.5f * z +
        z * z * (4.166664568298827e-2f + z * (-1.388731625493765e-3f + z * 2.443315711809948e-5f));
  } else {
    using namespace octant_coefficients;
    s = x + x * z * (s0 + z * (s1 + z * (s2 + z * (s3 + z * (s4 + z * s5)))));
    c = 1.0 - 0.5 * z + z * z * (c0 + z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * c5)))));
  }
}

/// (c, s) rotated by quadrant * pi/2: cos and sin of (angle + quadrant pi/2).
template <class Real>
KOKKOS_FORCEINLINE_FUNCTION void rotate_quadrant(std::uint32_t quadrant, Real c, Real s,
                                                 Real& cos_angle, Real& sin_angle) {
  const bool odd = quadrant & 1u;
  const Real cq = odd ? s : c;
  const Real sq = odd ? c : s;
  cos_angle = ((quadrant + 1u) & 2u) ? -cq : cq;
  sin_angle = (quadrant & 2u) ? -sq : sq;
}

/// cos and sin of the angle 2 pi w 2^-32 in double by the table (elementary_tables.hpp): the
/// nearest of 256 points, 2 pi j / 256 with j the top 8 bits of w rounded, and the rest
/// delta = 2 pi o 2^-32, |delta| <= pi / 256, by short series and the angle-sum formulas.
/// The series' first omitted terms are delta^7 / 5040 < 1e-17 and delta^8 / 8! < 1e-20.
KOKKOS_INLINE_FUNCTION void sincos_turn_double(std::uint32_t w, double& cos_angle,
                                               double& sin_angle) {
  const std::uint32_t j = (w + (std::uint32_t{1} << 23)) >> 24;  // mod 256 by wrapping
  const TurnTableEntry& point = turn_table(j);
  // o + 2^23 = w - (j 2^24) + 2^23 in [0, 2^24) as a double from its bits: exact, no conversion.
  const std::uint32_t biased = w + (std::uint32_t{1} << 23) - (j << 24);
  const double o = bit_cast<double>(std::uint64_t{0x4330000000000000} | biased) -
                   (4503599627370496.0 + 8388608.0);
  const double delta = o * 1.4629180792671596e-09;  // 2 pi 2^-32
  const double d2 = delta * delta;
  const double sin_delta = delta + delta * d2 * (-1.0 / 6 + d2 * (1.0 / 120));
  const double cos_delta_minus_1 = d2 * (-0.5 + d2 * (1.0 / 24 + d2 * (-1.0 / 720)));
  cos_angle = point.cos + (point.cos * cos_delta_minus_1 - point.sin * sin_delta);
  sin_angle = point.sin + (point.sin * cos_delta_minus_1 + point.cos * sin_delta);
}

/// cos and sin of the angle 2 pi w 2^-32 of a 32-bit word.
template <class Real>
KOKKOS_INLINE_FUNCTION void sincos_turn(std::uint32_t w, Real& cos_angle, Real& sin_angle) {
  if constexpr (std::is_same_v<Real, double>) {
    sincos_turn_double(w, cos_angle, sin_angle);
  } else {
    // Nearest quadrant and the 30-bit offset from it, shifted by half a quadrant to [0, 2^30).
    const std::uint32_t shifted = w + (std::uint32_t{1} << 29);
    const std::uint32_t quadrant = shifted >> 30;
    const std::uint32_t offset = shifted & 0x3FFFFFFFu;
    // The offset's top 23 bits as a fraction of the quadrant in [1, 2), placed in a mantissa:
    // no integer-to-float conversion.
    const float fraction = bit_cast<float>(0x3F800000u | (offset >> 7));
    constexpr float half_pi = 1.5707963267948966192313216916398f;
    float c, s;
    if constexpr (fastmath::on_special_function_unit)
      fastmath::sincos_reduced((fraction - 1.5f) * half_pi, c, s);  // one MUFU each
    else
      sincos_octant<float>((fraction - 1.5f) * half_pi, c, s);
    rotate_quadrant<float>(quadrant, c, s, cos_angle, sin_angle);
  }
}

/// ln u for a normal double u > 0 (accurate to ~2 ulp; table in elementary_tables.hpp): u = 2^k z
/// with z in [0.6875, 1.375), the table point c = n / 256 nearest to z, and ln u = k ln 2 + ln c +
/// ln(1 + r), r = (z - c) / c. z - c is exact (Sterbenz) and r is one rounded product, so the
/// result does not depend on multiply-add contraction except in the series' last bits. c = 1 has ln
/// c = 0 exactly: no cancellation near u = 1.
KOKKOS_INLINE_FUNCTION double log_unit_double(double u) {
  constexpr std::uint64_t z_origin = 0x3FE6000000000000;  // 0.6875: z in [0.6875, 1.375)
  constexpr double round_shift = 6755399441055744.0;      // 1.5 * 2^52: rounds to an integer
  const std::uint64_t bits = bit_cast<std::uint64_t>(u);
  const std::int64_t k = static_cast<std::int64_t>(bits - z_origin) >> 52;  // floor
  const double z =
      bit_cast<double>(bits - static_cast<std::uint64_t>(k) * (std::uint64_t{1} << 52));
  // k as a double without a conversion: its integer in the mantissa of 1.5 * 2^52.
  const double kd =
      bit_cast<double>(bit_cast<std::uint64_t>(round_shift) + static_cast<std::uint64_t>(k)) -
      round_shift;
  // n = round(256 z) in [176, 352] from the low mantissa bits of 256 z + 1.5 * 2^52 (256 z is
  // exact, so a fused multiply-add gives the same sum).
  const double shifted = z * 256.0 + round_shift;
  const auto n = static_cast<std::uint32_t>(bit_cast<std::uint64_t>(shifted));
  const LogTableEntry& entry = log_table(n - log_table_first);
  const double c = (shifted - round_shift) * 0.00390625;  // n / 256, exact
  const double r = (z - c) * entry.inverse;
  // ln 2 in two parts; k ln2_hi is exact for |k| < 2^11 (ln2_hi has 42 significant bits).
  constexpr double ln2_hi = 0x1.62e42fefa3800p-1, ln2_lo = 0x1.ef35793c76730p-45;
  const double w = kd * ln2_hi + entry.log;
  const double hi = w + r;
  const double lo = (w - hi) + r;  // exact: |w| >= |r| unless w = 0
  // ln(1 + r) - r = r^2 (-1/2 + r/3 - r^2/4 + ... + r^5/7); r^8/8 < 6e-22.
  double p = 1.0 / 7;
  p = p * r - 1.0 / 6;
  p = p * r + 1.0 / 5;
  p = p * r - 1.0 / 4;
  p = p * r + 1.0 / 3;
  p = p * r - 0.5;
  return hi + ((lo + kd * ln2_lo) + (r * r) * p);
}

/// ln u for normal u in (0, 1] (see the header comment).
template <class Real>
KOKKOS_INLINE_FUNCTION Real log_unit(Real u) {
  if constexpr (std::is_same_v<Real, float> && fastmath::on_special_function_unit)
    return fastmath::log(u);
  if constexpr (std::is_same_v<Real, float>) {
    // u = 2^e m with m in [sqrt(1/2), sqrt(2)), read off the bits.
    const auto bits = bit_cast<std::int32_t>(u);
    const std::int32_t e = (bits - 0x3F3504F3) >> 23;  // arithmetic shift: floor
    const float m = bit_cast<float>(bits - e * (std::int32_t{1} << 23));
    // e as a float without a conversion: its integer in the mantissa of 1.5 * 2^23.
    const float ef = bit_cast<float>(0x4B400000 + e) - 12582912.0f;
    const float f = m - 1.0f;
    const float z = f * f;
    float y = 7.0376836292e-2f;
    y = y * f - 1.1514610310e-1f;
    y = y * f + 1.1676998740e-1f;
    y = y * f - 1.2420140846e-1f;
    y = y * f + 1.4249322787e-1f;
    y = y * f - 1.6668057665e-1f;
    y = y * f + 2.0000714765e-1f;
    y = y * f - 2.4999993993e-1f;
    y = y * f + 3.3333331174e-1f;
    y = y * f * z;
    y += ef * -2.12194440e-4f;
    y += -0.5f * z;
    return f + y + ef * 0.693359375f;  // ln 2 = 0.693359375 - 2.12194440e-4
  } else {
    return log_unit_double(u);
  }
}

/// sin(r + quadrant pi/2) for r in [-pi/4, pi/4], double: the one polynomial the quadrant
/// needs (sin r for even quadrants, cos r for odd ones), its coefficients selected per lane,
/// instead of both and a select afterwards. The operations are those of sincos_octant's
/// chosen half, in the same order, so the result is the same bit for bit; the double step
/// is bound by its FP64 arithmetic, of which the force's sin was about a third.
KOKKOS_INLINE_FUNCTION double sin_from_octant(double r, std::uint32_t quadrant) {
  const bool odd = quadrant & 1u;
  const double z = r * r;
  // sin r = r + (r z) S(z);  cos r = (1 - z/2) + (z z) C(z)
  using namespace octant_coefficients;
  double p = odd ? c5 : s5;
  p = (odd ? c4 : s4) + z * p;
  p = (odd ? c3 : s3) + z * p;
  p = (odd ? c2 : s2) + z * p;
  p = (odd ? c1 : s1) + z * p;
  p = (odd ? c0 : s0) + z * p;
  const double lead = odd ? 1.0 - 0.5 * z : r;
  const double value = lead + ((odd ? z : r) * z) * p;
  return (quadrant & 2u) ? -value : value;
}

/// sin x (see the header comment).
template <class Real>
KOKKOS_INLINE_FUNCTION Real sin_phase(Real x) {
  if constexpr (std::is_same_v<Real, float> && fastmath::on_special_function_unit)
    return fastmath::sin(x);
  constexpr Real two_over_pi = Real(0.63661977236758134307553505349006);
  Real k, r;
  std::uint32_t quadrant;
  if constexpr (std::is_same_v<Real, float>) {
    // Round x 2/pi to an integer by adding 1.5 * 2^23: its low mantissa bits are k mod 2^22.
    const float shifted = x * two_over_pi + 12582912.0f;
    quadrant = bit_cast<std::uint32_t>(shifted);
    k = shifted - 12582912.0f;
    r = x - k * 1.5703125f;  // pi/2 in three parts; the first two have 8 and 11 bits
    r = r - k * 4.837512969970703125e-4f;
    r = r - k * 7.54978995489188216e-8f;
  } else {
    const double shifted = x * two_over_pi + 6755399441055744.0;  // 1.5 * 2^52
    quadrant = static_cast<std::uint32_t>(bit_cast<std::uint64_t>(shifted));
    k = shifted - 6755399441055744.0;
    r = x - k * 1.57079625129699707031e0;  // pi/2 in three parts of 26 bits (Cephes)
    r = r - k * 7.54978941586159635336e-8;
    r = r - k * 5.39030285815811905290e-15;
  }
  if constexpr (std::is_same_v<Real, double>) {
    return sin_from_octant(r, quadrant);
  } else {
    Real c, s, cos_x, sin_x;
    sincos_octant<Real>(r, c, s);
    rotate_quadrant<Real>(quadrant, c, s, cos_x, sin_x);
    return sin_x;
  }
}

}  // namespace portamc::josephson

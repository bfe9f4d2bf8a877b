// The elementary functions of the integration loop (elementary.hpp), evaluated on
// each backend (TestSpace), against the host library in double: the Box–Muller angle's
// cos and sin from a word, log on (0, 1] and the force's sin, float and double.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "portamc/fast_math.hpp"
#include "portamc/josephson/detail/elementary.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using Space = TestSpace;

constexpr double pi = 3.141592653589793238462643383279502884;
constexpr long double pi_long = 3.141592653589793238462643383279502884L;

/// Float runs on the GPU's special-function unit on CUDA (fast_math.hpp's bounds there).
constexpr bool fast_float = portamc::fastmath::hardware_approximations<Space>;

enum class Function { cos_turn, sin_turn, log_unit, sin_phase };

template <class Real>
struct Evaluate {
  Kokkos::View<double*, Space::memory_space> argument, value;
  Kokkos::View<std::uint32_t*, Space::memory_space> word;
  Function function;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    Real c = 0, s = 0;
    switch (function) {
      case Function::cos_turn:
        sincos_turn<Real>(word(i), c, s);
        value(i) = c;
        break;
      case Function::sin_turn:
        sincos_turn<Real>(word(i), c, s);
        value(i) = s;
        break;
      case Function::log_unit:
        value(i) = log_unit(static_cast<Real>(argument(i)));
        break;
      case Function::sin_phase:
        value(i) = sin_phase(static_cast<Real>(argument(i)));
        break;
    }
  }
};

/// The function on the device at the given arguments (or words).
template <class Real>
std::vector<double> evaluate(Function function, const std::vector<double>& arguments,
                             const std::vector<std::uint32_t>& words) {
  const int n = static_cast<int>(std::max(arguments.size(), words.size()));
  Evaluate<Real> e{Kokkos::View<double*, Space::memory_space>("argument", n),
                   Kokkos::View<double*, Space::memory_space>("value", n),
                   Kokkos::View<std::uint32_t*, Space::memory_space>("word", n), function};
  auto a = Kokkos::create_mirror_view(e.argument);
  auto w = Kokkos::create_mirror_view(e.word);
  for (std::size_t i = 0; i < arguments.size(); ++i) a(i) = arguments[i];
  for (std::size_t i = 0; i < words.size(); ++i) w(i) = words[i];
  Kokkos::deep_copy(e.argument, a);
  Kokkos::deep_copy(e.word, w);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(Space(), 0, n), e);
  const auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e.value);
  return std::vector<double>(v.data(), v.data() + n);
}

std::vector<std::uint32_t> test_words() {
  std::vector<std::uint32_t> words;
  for (std::uint32_t q = 0; q < 8; ++q)  // octant and quadrant boundaries and neighbours
    for (std::uint32_t d : {0u, 1u, 2u, 0xFFFFFFFFu, 0xFFFFFFFEu}) words.push_back((q << 29) + d);
  std::uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) words.push_back(x = x * 1664525u + 1013904223u);
  return words;
}

template <class Real>
void expect_sincos_turn(double tolerance) {
  const std::vector<std::uint32_t> words = test_words();
  const auto c = evaluate<Real>(Function::cos_turn, {}, words);
  const auto s = evaluate<Real>(Function::sin_turn, {}, words);
  double worst = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const long double angle = 2 * pi_long * (static_cast<long double>(words[i]) / 4294967296.0L);
    worst = std::max({worst, static_cast<double>(std::abs(c[i] - std::cos(angle))),
                      static_cast<double>(std::abs(s[i] - std::sin(angle)))});
  }
  EXPECT_LT(worst, tolerance);
}

TEST(JosephsonElementary, SinCosOfTurnFloat) {
  // float keeps 23 bits of the quadrant offset: angle error up to 2 pi 2^-25 = 1.9e-7, plus
  // 3.6e-7 from the special-function unit on CUDA.
  expect_sincos_turn<float>(fast_float ? 6e-7 : 3e-7);
}
TEST(JosephsonElementary, SinCosOfTurnDouble) {
  // The table point's rounding (half an ulp), the rest's series and the two roundings of the
  // angle sum: ~2 ulp of 1.
  expect_sincos_turn<double>(4.5e-16);
}

template <class Real>
void expect_log_unit(double relative_tolerance) {
  std::vector<double> u{1.0, std::ldexp(1.0, -32), 0.5, 0.70710677, 0.70710683, 1.4142135 / 2};
  // Near 1 (the table point c = 1) and around the double table's other points c = n / 256,
  // where z - c changes sign and the entry changes.
  for (int n = 176; n <= 352; ++n)
    for (double d : {-1e-3, -2.5e-6, 0.0, 2.5e-6, 1e-3}) {
      const double z = n / 256.0 + d;
      if (z < 1) u.push_back(static_cast<Real>(z));
      if (z / 2 < 1) u.push_back(static_cast<Real>(z / 2));
    }
  for (int e = 1; e <= 32; ++e) u.push_back(static_cast<Real>(1 - std::ldexp(1.0, -e)));
  std::uint32_t x = 777;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1664525u + 1013904223u;
    // Box–Muller's u = (w + 1) 2^-32, rounded to Real; small ones from a scaled word.
    const double w = static_cast<double>(i % 2 ? x : x >> (x % 32));
    u.push_back(static_cast<Real>((w + 1) * std::ldexp(1.0, -32)));
  }
  const auto y = evaluate<Real>(Function::log_unit, u, {});
  double worst = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double exact = static_cast<double>(std::log(static_cast<long double>(u[i])));
    if (exact == 0) {
      EXPECT_EQ(y[i], 0.0);
      continue;
    }
    // The special-function unit's log is accurate in absolute terms on [1/2, 2].
    const bool absolute = fast_float && std::is_same_v<Real, float> && u[i] >= 0.5;
    worst = std::max(worst, std::abs(y[i] - exact) / (absolute ? 1.0 : std::abs(exact)));
  }
  EXPECT_LT(worst, relative_tolerance);
}

TEST(JosephsonElementary, LogOnUnitIntervalFloat) {
  expect_log_unit<float>(fast_float ? 4e-7 : 2.5e-7);
}
TEST(JosephsonElementary, LogOnUnitIntervalDouble) {
  // The table's log: half an ulp each from ln c and from r = (z - c) / c, doubled where
  // ln u = ln c + ln(1 + r) cancels to half of ln c (z just above c = 255/256), plus the
  // reference's own rounding: 3.9e-16 seen in 2e7 draws.
  expect_log_unit<double>(5e-16);
}

template <class Real>
void expect_sin_phase(double range, double tolerance) {
  std::vector<double> x;
  for (double special : {0.0, pi / 4, pi / 2, pi, -pi, 2 * pi, 1e-30, -1e-30})
    x.push_back(static_cast<Real>(special));  // arguments as the Real the function sees
  for (int i = -200000; i <= 200000; ++i)
    x.push_back(static_cast<Real>(range * i / 200000.0 + 1e-3 * std::sin(i)));
  const auto y = evaluate<Real>(Function::sin_phase, x, {});
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::abs(y[i] - std::sin(x[i])));
  EXPECT_LT(worst, tolerance) << "|x| < " << range;
}

TEST(JosephsonElementary, SinOfPhaseFloat) {
  expect_sin_phase<float>(20, fast_float ? 6e-7 : 1.5e-7);
  expect_sin_phase<float>(1e4, fast_float ? 6e-7 : 1.5e-7);
}
TEST(JosephsonElementary, SinOfPhaseDouble) {
  expect_sin_phase<double>(20, 5e-16);
  expect_sin_phase<double>(1e8, 5e-16);
}

}  // namespace

namespace {

// The double force's sin evaluates only the polynomial its quadrant needs; it must equal
// both polynomials followed by the quadrant select bit for bit (host code, no contraction).
TEST(JosephsonElementary, SelectedPolynomialEqualsBothThenSelect) {
  int differing = 0;
  for (int i = -100000; i <= 100000; ++i) {
    const double r = (pi / 4) * i / 100000.0 + 1e-9 * std::sin(i);
    double c, s;
    sincos_octant<double>(r, c, s);
    for (std::uint32_t quadrant = 0; quadrant < 8; ++quadrant) {
      double cos_x, sin_x;
      rotate_quadrant<double>(quadrant, c, s, cos_x, sin_x);
      differing += sin_from_octant(r, quadrant) != sin_x ? 1 : 0;
    }
  }
  EXPECT_EQ(differing, 0);
}

}  // namespace

TEST(JosephsonElementary, LogTableEntriesAreTheNearestDoubles) {
  // tools/josephson_log_table.py wrote them; a regenerated or hand-edited table must still hold
  // 1/c and ln c to the nearest double (ln c checked against long double to half an ulp plus
  // long double's own error).
  for (std::uint32_t j = 0; j < log_table_size; ++j) {
    const double c = (log_table_first + j) / 256.0;
    EXPECT_EQ(log_table(j).inverse, 1.0 / c) << j;
    const long double exact = std::log(static_cast<long double>(c));
    const double ulp = std::nextafter(std::abs(log_table(j).log), 1.0) - std::abs(log_table(j).log);
    EXPECT_LE(std::abs(static_cast<long double>(log_table(j).log) - exact), 0.5001L * ulp) << j;
  }
  EXPECT_EQ(log_table(256 - log_table_first).log, 0.0);  // c = 1: no cancellation near u = 1
}

TEST(JosephsonElementary, TurnTableEntriesAreTheNearestDoubles) {
  for (std::uint32_t j = 0; j < turn_table_size; ++j) {
    const long double angle = 2 * pi_long * j / turn_table_size;
    for (const auto& [value, exact] : {std::pair{turn_table(j).cos, std::cos(angle)},
                                       std::pair{turn_table(j).sin, std::sin(angle)}}) {
      // Half an ulp of the value, or an exact zero at multiples of pi/2.
      const double ulp = std::nextafter(std::abs(value), 2.0) - std::abs(value);
      if (std::abs(exact) < 1e-15L)
        EXPECT_EQ(value, 0.0) << j;
      else
        EXPECT_LE(std::abs(static_cast<long double>(value) - exact), 0.5001L * ulp + 1e-19L) << j;
    }
  }
}

// fastmath (fast_math.hpp): the float functions, evaluated inside a kernel on each backend of
// the build (TestSpace; the GPU's special-function unit on CUDA, the library elsewhere), stay
// within the documented bounds of the exact values computed in double on the host.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "portamc/fast_math.hpp"
#include "test_space.hpp"

namespace portamc_test {

using Space = TestSpace;

enum class FastFunction {
  sin,
  cos,
  sincos_cos,
  sincos_sin,
  reduced_cos,
  reduced_sin,
  log,
  sqrt,
  log2_normal,
  sqrt_normal
};

/// Public functor (not a lambda in a TEST body) so that nvcc compiles its device code.
struct EvaluateFast {
  Kokkos::View<float*, Space::memory_space> argument, value;
  FastFunction function;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const float x = argument(i);
    float c = 0, s = 0;
    switch (function) {
      case FastFunction::sin:
        value(i) = portamc::fastmath::sin(x);
        break;
      case FastFunction::cos:
        value(i) = portamc::fastmath::cos(x);
        break;
      case FastFunction::sincos_cos:
        portamc::fastmath::sincos(x, c, s);
        value(i) = c;
        break;
      case FastFunction::sincos_sin:
        portamc::fastmath::sincos(x, c, s);
        value(i) = s;
        break;
      case FastFunction::reduced_cos:
        portamc::fastmath::sincos_reduced(x, c, s);
        value(i) = c;
        break;
      case FastFunction::reduced_sin:
        portamc::fastmath::sincos_reduced(x, c, s);
        value(i) = s;
        break;
      case FastFunction::log:
        value(i) = portamc::fastmath::log(x);
        break;
      case FastFunction::sqrt:
        value(i) = portamc::fastmath::sqrt(x);
        break;
      case FastFunction::log2_normal:
        value(i) = portamc::fastmath::log2_normal(x);
        break;
      case FastFunction::sqrt_normal:
        value(i) = portamc::fastmath::sqrt_normal(x);
        break;
    }
  }
};

std::vector<double> evaluate(FastFunction f, const std::vector<float>& x) {
  const int n = static_cast<int>(x.size());
  EvaluateFast e{Kokkos::View<float*, Space::memory_space>("argument", n),
                 Kokkos::View<float*, Space::memory_space>("value", n), f};
  auto a = Kokkos::create_mirror_view(e.argument);
  for (int i = 0; i < n; ++i) a(i) = x[i];
  Kokkos::deep_copy(e.argument, a);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(Space(), 0, n), e);
  const auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e.value);
  return std::vector<double>(v.data(), v.data() + n);
}

/// n floats spread over [lo, hi] plus a small irrational jitter, so that they hit every
/// part of the range and not only round numbers.
std::vector<float> spread(double lo, double hi, int n) {
  std::vector<float> x;
  for (int i = 0; i <= n; ++i)
    x.push_back(static_cast<float>(lo + (hi - lo) * i / n + 1e-4 * std::sin(1.0 * i)));
  return x;
}

constexpr double pi = 3.141592653589793238462643383279502884;

TEST(FastMath, SinAndCosWithinBoundUpTo1e4) {
  std::vector<float> x = spread(-1e4, 1e4, 400000);
  for (double special : {0.0, pi, -pi, pi / 2, 2 * pi, 1e-30, 99 * pi})
    x.push_back(static_cast<float>(special));
  for (auto [sin_of, cos_of] : {std::pair{FastFunction::sin, FastFunction::cos},
                                std::pair{FastFunction::sincos_sin, FastFunction::sincos_cos}}) {
    const auto s = evaluate(sin_of, x);
    const auto c = evaluate(cos_of, x);
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
      worst = std::max({worst, std::abs(s[i] - std::sin(double(x[i]))),
                        std::abs(c[i] - std::cos(double(x[i])))});
    EXPECT_LT(worst, 6e-7);
  }
}

TEST(FastMath, SinCosOfReducedAngleWithinBound) {
  const std::vector<float> x = spread(-pi, pi, 200000);
  const auto c = evaluate(FastFunction::reduced_cos, x);
  const auto s = evaluate(FastFunction::reduced_sin, x);
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    worst = std::max(
        {worst, std::abs(s[i] - std::sin(double(x[i]))), std::abs(c[i] - std::cos(double(x[i])))});
  EXPECT_LT(worst, 4e-7);
}

TEST(FastMath, LogWithinBoundOnNormalNumbers) {
  std::vector<float> x = spread(0.5, 2.0, 200000);
  for (int e = -126; e <= 127; ++e)
    for (double m : {1.0, 1.1, 1.3, 1.5, 1.7, 1.99}) x.push_back(std::ldexp(float(m), e));
  const auto y = evaluate(FastFunction::log, x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::log(double(x[i]));
    const bool near_one = x[i] >= 0.5f && x[i] <= 2.0f;
    ASSERT_LE(std::abs(y[i] - exact), near_one ? 4e-7 : 4e-7 * std::abs(exact)) << x[i];
  }
}

TEST(FastMath, SqrtWithinRelativeBound) {
  std::vector<float> x = spread(0, 50, 200000);
  for (int e = -126; e <= 127; e += 3) x.push_back(std::ldexp(1.37f, e));
  const auto y = evaluate(FastFunction::sqrt, x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::sqrt(double(x[i]));
    ASSERT_LE(std::abs(y[i] - exact), 2.5e-7 * exact) << x[i];
  }
  EXPECT_EQ(evaluate(FastFunction::sqrt, {0.0f})[0], 0.0);
}

/// The flush-to-zero variants on normal numbers: log2 within log's bound (in units of log2),
/// sqrt within sqrt's; 0 stays 0.
TEST(FastMath, NormalOnlyLog2AndSqrtWithinBound) {
  std::vector<float> x = spread(0.5, 2.0, 100000);
  for (int e = -126; e <= 127; ++e)
    for (double m : {1.0, 1.1, 1.3, 1.5, 1.7, 1.99}) x.push_back(std::ldexp(float(m), e));
  const auto l = evaluate(FastFunction::log2_normal, x);
  const auto r = evaluate(FastFunction::sqrt_normal, x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::log2(double(x[i]));
    const bool near_one = x[i] >= 0.5f && x[i] <= 2.0f;
    const double bound = (near_one ? 4e-7 : 4e-7 * std::abs(exact)) / std::log(2.0);
    ASSERT_LE(std::abs(l[i] - exact), bound) << x[i];
    ASSERT_LE(std::abs(r[i] - std::sqrt(double(x[i]))), 2.5e-7 * std::sqrt(double(x[i]))) << x[i];
  }
  EXPECT_EQ(evaluate(FastFunction::sqrt_normal, {0.0f})[0], 0.0);
}

/// The library path (every backend but CUDA) must be the library itself: no tolerance there.
TEST(FastMath, LibraryFunctionsOffTheGpu) {
  if (portamc::fastmath::hardware_approximations<Space>) GTEST_SKIP() << "GPU approximations";
  const std::vector<float> x{0.3f, 1.7f, 100.25f};
  const auto s = evaluate(FastFunction::sin, x);
  const auto l = evaluate(FastFunction::log, x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(s[i], static_cast<double>(std::sin(x[i])));
    EXPECT_EQ(l[i], static_cast<double>(std::log(x[i])));
  }
}

}  // namespace portamc_test

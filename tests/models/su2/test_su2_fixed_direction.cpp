// The update kernels with their direction fixed at compile time (FixedDirection, what the
// Updater launches) against the same kernels reading mu at run time: the same links bit for
// bit, for every direction and parity, heatbath and overrelaxation, in 2, 3 and 4
// dimensions. Only the addressing is specialised, not the arithmetic, so any difference
// would be an indexing error (a wrong neighbour or slot), not rounding.
#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>
#include <vector>

#include "portamc/su2/detail/update_kernels.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

template <class Kernel, class Field>
void configure(Kernel& kernel, const Field& field) {
  kernel.links = field.links();
  kernel.staple_links = field.links();
  kernel.geometry = field.geometry();
}

/// One heatbath or overrelaxation pass per (mu, parity), either launching `Kernel` with a
/// run-time mu or FixedDirection<Kernel, mu>.
template <class Kernel, int D>
struct Passes {
  Kernel kernel;

  void run(bool fixed, std::int64_t half_volume) {
    const UpdatePolicy<Space> policy(Space(), 0, half_volume);
    for (int mu = 0; mu < D; ++mu) {
      for (int parity = 0; parity < 2; ++parity) {
        kernel.mu = mu;
        kernel.parity = parity;
        if (fixed) {
          dispatch_direction<D>(mu, [&](auto m) {
            Kokkos::parallel_for(policy, FixedDirection<Kernel, decltype(m)::value>{kernel});
          });
        } else {
          Kokkos::parallel_for(policy, kernel);
        }
      }
    }
    Space().fence();
  }
};

template <class Real, int D>
std::vector<double> heatbath_links(const std::vector<int>& extents, bool fixed) {
  GaugeField<Space, Real> field(Space(), extents);
  field.hot_start(11);
  Passes<HeatbathKernel<Space, Real, D>, D> passes;
  configure(passes.kernel, field);
  passes.kernel.failures = Kokkos::View<portamc::count_type, Space::memory_space>("failures");
  passes.kernel.beta = Real(2.3);
  passes.kernel.max_attempts = 20;
  passes.kernel.seed = 5;
  for (int sweep = 0; sweep < 2; ++sweep) {
    passes.kernel.step_base = static_cast<std::uint64_t>(sweep) * calls_per_link_update;
    passes.run(fixed, field.geometry().half_volume());
  }
  return field.to_canonical();
}

template <class Real, int D>
std::vector<double> overrelaxation_links(const std::vector<int>& extents, bool fixed) {
  GaugeField<Space, Real> field(Space(), extents);
  field.hot_start(12);
  Passes<OverrelaxationKernel<Space, Real, D>, D> passes;
  configure(passes.kernel, field);
  for (int sweep = 0; sweep < 2; ++sweep) passes.run(fixed, field.geometry().half_volume());
  return field.to_canonical();
}

std::size_t differing(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) n += a[i] != b[i] ? 1 : 0;
  return n;
}

/// Fixed and run-time directions give the same links in 4, 3 and 2 dimensions.
template <class Real>
void expect_fixed_equals_run_time(bool heatbath) {
  auto links = [heatbath](auto dim, const std::vector<int>& extents, bool fixed) {
    constexpr int D = decltype(dim)::value;
    return heatbath ? heatbath_links<Real, D>(extents, fixed)
                    : overrelaxation_links<Real, D>(extents, fixed);
  };
  const std::integral_constant<int, 4> d4;
  const std::integral_constant<int, 3> d3;
  const std::integral_constant<int, 2> d2;
  EXPECT_EQ(differing(links(d4, {4, 6, 4, 8}, true), links(d4, {4, 6, 4, 8}, false)), 0u);
  EXPECT_EQ(differing(links(d3, {6, 4, 8}, true), links(d3, {6, 4, 8}, false)), 0u);
  EXPECT_EQ(differing(links(d2, {8, 6}, true), links(d2, {8, 6}, false)), 0u);
}

template <class Real>
class FixedDirectionKernels : public ::testing::Test {};
TYPED_TEST_SUITE(FixedDirectionKernels, su2_test::Precisions);

TYPED_TEST(FixedDirectionKernels, HeatbathLinksEqualRunTimeDirection) {
  expect_fixed_equals_run_time<TypeParam>(true);
}

TYPED_TEST(FixedDirectionKernels, OverrelaxationLinksEqualRunTimeDirection) {
  expect_fixed_equals_run_time<TypeParam>(false);
}

TEST(FixedDirectionKernels, DispatchCallsTheRequestedDirectionOnly) {
  for (int mu = 0; mu < 4; ++mu) {
    int called = -1, calls = 0;
    dispatch_direction<4>(mu, [&](auto m) {
      called = decltype(m)::value;
      ++calls;
    });
    EXPECT_EQ(called, mu);
    EXPECT_EQ(calls, 1);
  }
  int calls = 0;
  dispatch_direction<2>(3, [&](auto) { ++calls; });
  EXPECT_EQ(calls, 0) << "no direction 3 in two dimensions";
}

}  // namespace

// Device histograms (atomic and ScatterView) and reductions against host counts, on every
// backend of the build (TestSpace).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <vector>

#include "portamc/histogram.hpp"
#include "portamc/rng.hpp"
#include "test_space.hpp"

namespace portamc_test {

using Exec = TestSpace;

// Bin indices drawn on the device from the counter-based RNG; a few out of range.
Kokkos::View<std::int64_t*, Exec> random_bins(std::int64_t n, std::uint32_t bins) {
  Kokkos::View<std::int64_t*, Exec> v("bins", n);
  Kokkos::parallel_for(
      "test_histogram_bins", Kokkos::RangePolicy<Exec>(Exec(), 0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const auto b = portamc::rng::draw(5, portamc::rng::purpose_test, 0, i);
        v(i) = static_cast<std::int64_t>(portamc::rng::bounded(b[0], b[1], bins + 2)) - 1;
      });
  return v;
}

// A permutation of -5000 .. n-5001 (n prime to 7919).
Kokkos::View<std::int64_t*, Exec> shuffled_range(std::int64_t n) {
  Kokkos::View<std::int64_t*, Exec> v("v", n);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Exec>(Exec(), 0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { v(i) = (i * 7919) % n - 5000; });
  return v;
}

}  // namespace portamc_test

namespace {

TEST(Histogram, AtomicAndScatterAgreeWithHostCount) {
  const std::int64_t n = 200000;
  const std::uint32_t bins = 37;
  auto values = portamc_test::random_bins(n, bins);
  auto host_values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  std::vector<portamc::count_type> expected(bins, 0);
  for (std::int64_t i = 0; i < n; ++i)
    if (host_values(i) >= 0 && host_values(i) < bins) ++expected[host_values(i)];

  portamc::DeviceHistogram<portamc_test::Exec> atomic(bins), scatter(bins);
  const portamc_test::Exec space;
  portamc::fill_histogram(space, values, atomic, portamc::HistogramStrategy::atomic);
  portamc::fill_histogram(space, values, scatter, portamc::HistogramStrategy::scatter_view);
  EXPECT_EQ(atomic.to_host(), expected);
  EXPECT_EQ(scatter.to_host(), expected);

  // Filling twice doubles; reset clears.
  portamc::fill_histogram(space, values, atomic, portamc::HistogramStrategy::atomic);
  EXPECT_EQ(atomic.to_host()[3], 2 * expected[3]);
  atomic.reset();
  EXPECT_EQ(atomic.to_host(), std::vector<portamc::count_type>(bins, 0));
}

TEST(Reductions, SumAndMinMax) {
  const std::int64_t n = 10001;
  const auto v = portamc_test::shuffled_range(n);
  const portamc_test::Exec space;
  // sum of the permutation: n(n-1)/2 - 5000 n.
  EXPECT_EQ(portamc::sum<long long>(space, v), n * (n - 1) / 2 - 5000 * n);
  const auto range = portamc::minmax(space, v);
  EXPECT_EQ(range.min, -5000);
  EXPECT_EQ(range.max, n - 1 - 5000);
  EXPECT_THROW(portamc::minmax(space, Kokkos::View<std::int64_t*, portamc_test::Exec>("empty", 0)),
               std::invalid_argument);
}

}  // namespace

#pragma once
// Device histograms and reductions. Two fill strategies because the best one
// depends on the backend: atomics suit GPUs, per-thread duplicates (ScatterView's
// default on OpenMP) suit CPUs. Both give identical counts.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace portamc {

// 64-bit counts as std::uint64_t, not unsigned long long: Kokkos 4's CUDA atomics (desul) have
// native atomic-add instructions for the fixed-width types only, and fall back to a
// compare-and-swap loop for unsigned long long, which serialises every contended counter.
using count_type = std::uint64_t;

enum class HistogramStrategy { atomic, scatter_view };

/// A histogram of `bins` counters in the memory space of ExecutionSpace.
template <class ExecutionSpace>
class DeviceHistogram {
 public:
  using execution_space = ExecutionSpace;
  using view_type = Kokkos::View<count_type*, typename ExecutionSpace::memory_space>;

  DeviceHistogram() = default;
  explicit DeviceHistogram(std::size_t bins, const std::string& label = "portamc::histogram")
      : counts_(label, bins) {}

  std::size_t bins() const { return counts_.extent(0); }
  const view_type& counts() const { return counts_; }

  /// Device-side increment, safe under concurrency.
  KOKKOS_INLINE_FUNCTION void add(std::size_t bin, count_type n = 1) const {
    Kokkos::atomic_add(&counts_(bin), n);
  }

  void reset(const ExecutionSpace& space = ExecutionSpace()) {
    Kokkos::deep_copy(space, counts_, count_type(0));
  }

  std::vector<count_type> to_host() const {
    auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts_);
    return std::vector<count_type>(mirror.data(), mirror.data() + mirror.extent(0));
  }

 private:
  view_type counts_;
};

namespace detail {

// Named functors, not KOKKOS_LAMBDA: docs/design.md, "Kernels in headers are functors".
template <class BinView, class Counts>
struct CountBinsAtomically {
  BinView bin_of;
  Counts counts;
  std::int64_t bins;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t b = bin_of(i);
    if (b >= 0 && b < bins) Kokkos::atomic_add(&counts(b), count_type(1));
  }
};

template <class BinView, class Scatter>
struct CountBinsScattered {
  BinView bin_of;
  Scatter scatter;
  std::int64_t bins;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t b = bin_of(i);
    if (b >= 0 && b < bins) scatter.access()(b) += count_type(1);
  }
};

template <class ViewType, class Accumulator>
struct SumOf {
  ViewType v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Accumulator& acc) const {
    acc += v(i);
  }
};

template <class ViewType>
struct MinMaxOf {
  using T = typename ViewType::non_const_value_type;
  ViewType v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i,
                                         typename Kokkos::MinMax<T>::value_type& acc) const {
    if (v(i) < acc.min_val) acc.min_val = v(i);
    if (v(i) > acc.max_val) acc.max_val = v(i);
  }
};

}  // namespace detail

/// Adds to `hist` one count per element of `bin_of` (a 1-D view of bin indices; out of
/// range indices are a programming error and are counted in no bin).
template <class ExecutionSpace, class BinView>
void fill_histogram(const ExecutionSpace& space, const BinView& bin_of,
                    DeviceHistogram<ExecutionSpace>& hist, HistogramStrategy strategy) {
  auto counts = hist.counts();
  const auto bins = static_cast<std::int64_t>(counts.extent(0));
  const Kokkos::RangePolicy<ExecutionSpace> policy(space, 0, bin_of.extent(0));
  if (strategy == HistogramStrategy::atomic) {
    Kokkos::parallel_for(
        "portamc::fill_histogram_atomic", policy,
        detail::CountBinsAtomically<BinView, decltype(counts)>{bin_of, counts, bins});
  } else {
    auto scatter = Kokkos::Experimental::create_scatter_view(counts);
    Kokkos::parallel_for(
        "portamc::fill_histogram_scatter", policy,
        detail::CountBinsScattered<BinView, decltype(scatter)>{bin_of, scatter, bins});
    Kokkos::Experimental::contribute(counts, scatter);
  }
}

/// Sum of a 1-D view, accumulated in Accumulator.
template <class Accumulator, class ExecutionSpace, class ViewType>
Accumulator sum(const ExecutionSpace& space, const ViewType& v) {
  Accumulator total{};
  Kokkos::parallel_reduce("portamc::sum",
                          Kokkos::RangePolicy<ExecutionSpace>(space, 0, v.extent(0)),
                          detail::SumOf<ViewType, Accumulator>{v}, total);
  return total;
}

template <class T>
struct ValueRange {
  T min, max;
};

/// Minimum and maximum of a non-empty 1-D view.
template <class ExecutionSpace, class ViewType>
ValueRange<typename ViewType::non_const_value_type> minmax(const ExecutionSpace& space,
                                                           const ViewType& v) {
  using T = typename ViewType::non_const_value_type;
  if (v.extent(0) == 0) throw std::invalid_argument("portamc::minmax of an empty view");
  typename Kokkos::MinMax<T>::value_type result;
  Kokkos::parallel_reduce("portamc::minmax",
                          Kokkos::RangePolicy<ExecutionSpace>(space, 0, v.extent(0)),
                          detail::MinMaxOf<ViewType>{v}, Kokkos::MinMax<T>(result));
  const T lo = result.min_val, hi = result.max_val;
  return {lo, hi};
}

}  // namespace portamc

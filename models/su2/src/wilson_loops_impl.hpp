#pragma once
// Kernels and driver of wilson_loops(); included once by wilson_loops.cpp, which instantiates
// it for float and double on every execution space of the build.
//
// Algorithm, for R = 1..r_max in turn:
//  1. spatial lines L_i^R(x) = U_i(x) U_i(x+i) ... U_i(x+(R-1)i) for every site x and spatial
//     direction i, kept in a (D-1) V buffer in double and extended in place from R-1 to R with
//     one more link (SpatialLineKernel): O(V) work per R instead of O(V R);
//  2. one reduction over (i, x) (WilsonLoopKernel) that walks up in time from x and from
//     x + R i, multiplying the two temporal lines on the fly, and adds for every T = 1..t_max
//         ½ Tr[ L_i^R(x) U_t^T(x+R i) L_i^R(x+T t)^dagger U_t^T(x)^dagger ]
//     to sum T: three quaternion products and three loads per (x, i, T).
// Total O(V (D-1) r_max t_max) products, one buffer of 4 (D-1) V doubles, 2 r_max launches.
// Products in double whatever the storage precision; sums in double.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/link_storage.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/quaternion.hpp"
#include "portamc/su2/wilson_loops.hpp"

namespace portamc::su2 {

/// Spatial lines in double, stored like links (link_storage.hpp) at index i V + site, site
/// lexicographic, so a warp's loads over consecutive sites coalesce.
template <class MemorySpace>
using LineView = LinkView<double, MemorySpace>;
template <class MemorySpace>
using ConstLineView = ConstLinkView<double, MemorySpace>;

/// Extends L_i^R(x) to L_i^{R+1}(x) = L_i^R(x) U_i(x + R i), with R = `length`; length = 0
/// starts the lines from the identity (L^1 = U_i(x)). Thread n = i V + x owns its line.
template <class ExecutionSpace, class Real, int D>
struct SpatialLineKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  ConstLinkView<Real, memory_space> links;
  LineView<memory_space> lines;
  Geometry geometry;
  int length = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t n) const {
    const std::int64_t volume = geometry.volume();
    const int i = static_cast<int>(n / volume);
    const LatticeSite<D> at(geometry, n % volume);
    // length < N_i (checked on the host), so one subtraction wraps the coordinate.
    int y = at.x[i] + length;
    if (y >= geometry.extent(i)) y -= geometry.extent(i);
    const std::int64_t end = at.site + (y - at.x[i]) * geometry.stride(i);
    // Every extent is even, so each step flips the parity.
    const int parity = at.parity() ^ (length & 1);
    const Quaternion<double> u =
        load_link(links, geometry.slot(i, parity, end)).template cast<double>();
    store_link(lines, n, length == 0 ? u : load_link(lines, n) * u);
  }
};

/// For fixed R: thread n = i V + x adds ½ Tr of the R x T loop in plane (i, D-1) with corner
/// x to sums[T-1], T = 1..t_max (= value_count). Kokkos' default array reduction (zero
/// initialised, element-wise sum) combines the threads.
template <class ExecutionSpace, class Real, int D>
struct WilsonLoopKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  using value_type = double[];
  ConstLinkView<Real, memory_space> links;
  ConstLineView<memory_space> lines;
  Geometry geometry;
  int r = 1;
  unsigned value_count = 1;  ///< t_max; the name is Kokkos' array-reduction length

  KOKKOS_INLINE_FUNCTION Quaternion<double> temporal_link(int parity, std::int64_t site) const {
    return load_link(links, geometry.slot(D - 1, parity, site)).template cast<double>();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t n, value_type sums) const {
    const std::int64_t volume = geometry.volume();
    const int i = static_cast<int>(n / volume);
    const LatticeSite<D> at(geometry, n % volume);
    int y = at.x[i] + r;
    if (y >= geometry.extent(i)) y -= geometry.extent(i);

    // a: walks up from the far corner x + R i, b: from x; both at time coordinate t.
    std::int64_t a = at.site + (y - at.x[i]) * geometry.stride(i);
    std::int64_t b = at.site;
    int parity_b = at.parity();
    int parity_a = parity_b ^ (r & 1);
    int t = at.x[D - 1];
    const int nt = geometry.extent(D - 1);
    const std::int64_t step = geometry.stride(D - 1);
    const std::int64_t wrap = (nt - 1) * step;

    // upper = L^R(x) U_t^T(x+R i), lower = U_t^T(x): W = ½ Tr[upper (lower L^R(x+T t))^dagger]
    Quaternion<double> upper = load_link(lines, n);
    Quaternion<double> lower = Quaternion<double>::identity();
    const std::int64_t line_base = n - at.site;  // i V
    for (unsigned k = 0; k < value_count; ++k) {
      upper = upper * temporal_link(parity_a, a);
      lower = lower * temporal_link(parity_b, b);
      const bool last = t == nt - 1;
      a += last ? -wrap : step;
      b += last ? -wrap : step;
      t = last ? 0 : t + 1;
      parity_a ^= 1;
      parity_b ^= 1;
      const Quaternion<double> closing = lower * load_link(lines, line_base + b);
      // ½ Tr(A B^dagger) = A·B as 4-vectors
      sums[k] += upper.a0 * closing.a0 + upper.a1 * closing.a1 + upper.a2 * closing.a2 +
                 upper.a3 * closing.a3;
    }
  }
};

namespace detail {

inline void check_wilson_loop_sizes(const Geometry& g, int r_max, int t_max) {
  const int d = g.dimensions();
  if (d < 2)
    throw std::invalid_argument("wilson_loops: need at least 2 dimensions, the lattice has " +
                                std::to_string(d));
  if (r_max < 1)
    throw std::invalid_argument("wilson_loops: r_max must be >= 1, got " + std::to_string(r_max));
  if (t_max < 1)
    throw std::invalid_argument("wilson_loops: t_max must be >= 1, got " + std::to_string(t_max));
  int n_min = g.extent(0);
  for (int mu = 1; mu < d - 1; ++mu) n_min = n_min < g.extent(mu) ? n_min : g.extent(mu);
  // Beyond half the lattice a loop and its periodic image are not distinct distances.
  if (r_max > n_min / 2)
    throw std::invalid_argument("wilson_loops: r_max = " + std::to_string(r_max) +
                                " exceeds half the smallest spatial extent, N_spatial_min/2 = " +
                                std::to_string(n_min / 2));
  const int nt = g.extent(d - 1);
  if (t_max > nt / 2)
    throw std::invalid_argument("wilson_loops: t_max = " + std::to_string(t_max) +
                                " exceeds half the temporal extent, N_" + std::to_string(d - 1) +
                                "/2 = " + std::to_string(nt / 2));
}

}  // namespace detail

template <class Space, class Real>
std::vector<double> wilson_loops(const Space& space, const GaugeField<Space, Real>& field,
                                 int r_max, int t_max) {
  const Geometry& g = field.geometry();
  detail::check_wilson_loop_sizes(g, r_max, t_max);
  using memory_space = typename Space::memory_space;
  using policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;

  const std::int64_t threads = g.volume() * (g.dimensions() - 1);
  require_memory<Space>(static_cast<std::size_t>(threads) * 4 * sizeof(double),
                        "the spatial Wilson lines (4 (D-1) V doubles)");
  LineView<memory_space> lines(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::lines"),
                               chunks_per_link<double>, threads);

  std::vector<double> loops(static_cast<std::size_t>(r_max) * t_max);
  std::vector<double> sums(t_max);
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> result(
      sums.data(), sums.size());
  const double norm = 1.0 / static_cast<double>(threads);
  dispatch_dimensions(g.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    for (int r = 1; r <= r_max; ++r) {
      Kokkos::parallel_for("su2::wilson_lines", policy(space, 0, threads),
                           SpatialLineKernel<Space, Real, D>{field.links(), lines, g, r - 1});
      const WilsonLoopKernel<Space, Real, D> kernel{field.links(), lines, g, r,
                                                    static_cast<unsigned>(t_max)};
      Kokkos::parallel_reduce("su2::wilson_loops", policy(space, 0, threads), kernel, result);
      for (int t = 1; t <= t_max; ++t) loops[wilson_loop_index(r, t, t_max)] = sums[t - 1] * norm;
    }
  });
  return loops;
}

}  // namespace portamc::su2

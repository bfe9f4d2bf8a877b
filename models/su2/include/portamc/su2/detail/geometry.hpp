#pragma once
// Geometry of a periodic N_0 x ... x N_{D-1} lattice (D = 2, 3, 4) for gauge links, a
// value type that kernels capture by copy. Direction D-1 is "time".
//
// Numbering:
//   site    s = x_0 + N_0 (x_1 + N_1 (x_2 + N_2 x_3))  (x_0 fastest, as HypercubicLattice)
//   parity  p = (x_0 + ... + x_{D-1}) mod 2
//   link    l = s D + mu                                (global link index: RNG entity and
//                                                        canonical order)
//   half-site index h = s / 2.  With N_0 even, sites 2h and 2h+1 differ only in x_0 and
//   have opposite parities, so h numbers the V/2 sites of either parity without gaps, in
//   the order of s.
//   slot    (2 mu + p) V/2 + h: where link (s, mu) lives in the link array (see
//   gauge_field.hpp), so the links of one direction and parity are contiguous.
//
// Every extent must be even (>= 2): the checkerboard needs it in every direction, the
// half-site numbering in direction 0. Coordinates are computed with 32-bit arithmetic
// (cheap on GPUs), hence V/2 < 2^32; addresses and link indices are 64-bit.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "portamc/fast_division.hpp"

namespace portamc::su2 {

class Geometry {
 public:
  static constexpr int max_dimensions = 4;
  using index_type = std::int64_t;

  Geometry() = default;
  /// extents = {N_0, ..., N_{D-1}}, D = 2..4. Throws std::invalid_argument for another D,
  /// an odd or non-positive extent, or more than 2^33 sites.
  explicit Geometry(const std::vector<int>& extents);

  KOKKOS_INLINE_FUNCTION int dimensions() const { return dims_; }
  KOKKOS_INLINE_FUNCTION int extent(int mu) const { return extent_[mu]; }
  KOKKOS_INLINE_FUNCTION index_type stride(int mu) const { return stride_[mu]; }
  KOKKOS_INLINE_FUNCTION index_type volume() const { return volume_; }
  KOKKOS_INLINE_FUNCTION index_type half_volume() const { return volume_ / 2; }
  /// Sites of one time slice: the domain of the Polyakov loop.
  KOKKOS_INLINE_FUNCTION index_type spatial_volume() const { return volume_ / extent_[dims_ - 1]; }
  KOKKOS_INLINE_FUNCTION index_type link_count() const { return volume_ * dims_; }
  /// Plaquettes in planes (mu, nu) with nu = D-1, and in the other planes.
  KOKKOS_INLINE_FUNCTION index_type temporal_plaquettes() const { return volume_ * (dims_ - 1); }
  KOKKOS_INLINE_FUNCTION index_type spatial_plaquettes() const {
    return volume_ * (dims_ - 1) * (dims_ - 2) / 2;
  }

  KOKKOS_INLINE_FUNCTION index_type global_link(index_type site, int mu) const {
    return site * dims_ + mu;
  }
  KOKKOS_INLINE_FUNCTION index_type slot(int mu, int parity, index_type site) const {
    return group_offset(mu, parity) + (site >> 1);
  }
  /// Slot of the first link of direction mu and parity: slot = group_offset + half-site index.
  KOKKOS_INLINE_FUNCTION index_type group_offset(int mu, int parity) const {
    return (2 * mu + parity) * half_volume();
  }
  /// stride(mu) / 2 for mu >= 1 (even, since N_0 is): the step of the half-site index.
  KOKKOS_INLINE_FUNCTION std::uint32_t half_stride(int mu) const {
    return static_cast<std::uint32_t>(stride_[mu] >> 1);
  }
  /// Divisors that split a half-site index into x_0 / 2, x_1, ..., x_{D-1}: N_0 / 2, N_1, ...
  KOKKOS_INLINE_FUNCTION const FastDivisor& half_site_divisor(int mu) const {
    return half_divisor_[mu];
  }

  KOKKOS_INLINE_FUNCTION Kokkos::Array<int, max_dimensions> coords(index_type site) const {
    Kokkos::Array<int, max_dimensions> x{};
    for (int mu = 0; mu < dims_; ++mu) {
      x[mu] = static_cast<int>(site % extent_[mu]);
      site /= extent_[mu];
    }
    return x;
  }
  KOKKOS_INLINE_FUNCTION int parity(index_type site) const {
    const auto x = coords(site);
    int sum = 0;
    for (int mu = 0; mu < dims_; ++mu) sum += x[mu];
    return sum & 1;
  }

 private:
  int dims_ = 0;
  Kokkos::Array<int, max_dimensions> extent_{};
  Kokkos::Array<index_type, max_dimensions> stride_{};
  index_type volume_ = 0;
  Kokkos::Array<FastDivisor, max_dimensions> half_divisor_{};
};

/// A site with its coordinates x[0..D-1], for kernels: D is a template parameter so loops
/// unroll and x stays in registers, and neighbours cost a compare and an add.
template <int D>
struct LatticeSite {
  Geometry::index_type site;
  std::uint32_t half = 0;  ///< site / 2 (set by the update-kernel constructor only)
  int x[D];

  /// The site of parity `parity` with half-site index h (update kernels).
  KOKKOS_INLINE_FUNCTION LatticeSite(const Geometry& g, int parity, Geometry::index_type h)
      : half(static_cast<std::uint32_t>(h)) {
    // s = 2h + b with x_0 = 2 (h mod N_0/2) + b, and b fixed by the parity of the rest.
    std::uint32_t coordinate = 0;
    std::uint32_t rest = g.half_site_divisor(0).divide(half, coordinate);
    x[0] = static_cast<int>(2 * coordinate);
    int sum = 0;
    for (int mu = 1; mu < D; ++mu) {
      rest = g.half_site_divisor(mu).divide(rest, coordinate);
      x[mu] = static_cast<int>(coordinate);
      sum += x[mu];
    }
    const int b = (parity ^ sum) & 1;
    x[0] += b;
    site = 2 * h + b;
  }

  /// Site s in lexicographic order (measurement kernels).
  KOKKOS_INLINE_FUNCTION LatticeSite(const Geometry& g, Geometry::index_type s) : site(s) {
    for (int mu = 0; mu < D; ++mu) {
      x[mu] = static_cast<int>(s % g.extent(mu));
      s /= g.extent(mu);
    }
  }

  KOKKOS_INLINE_FUNCTION int parity() const {
    int sum = 0;
    for (int mu = 0; mu < D; ++mu) sum += x[mu];
    return sum & 1;
  }

  /// The site one step forward / backward in direction mu from `from`, whose coordinate
  /// in mu equals x[mu] (true for this site and any of its neighbours in other directions).
  KOKKOS_INLINE_FUNCTION Geometry::index_type forward(const Geometry& g, Geometry::index_type from,
                                                      int mu) const {
    return x[mu] == g.extent(mu) - 1 ? from - (g.extent(mu) - 1) * g.stride(mu)
                                     : from + g.stride(mu);
  }
  KOKKOS_INLINE_FUNCTION Geometry::index_type backward(const Geometry& g, Geometry::index_type from,
                                                       int mu) const {
    return x[mu] == 0 ? from + (g.extent(mu) - 1) * g.stride(mu) : from - g.stride(mu);
  }

  /// The same steps on half-site indices (32-bit, cheaper than sites in the update kernels),
  /// for a `from` whose coordinates in mu and in direction 0 equal this site's: true for
  /// this site, its neighbours in other directions, and theirs.
  /// Direction 0 moves by one site, so whether the half index moves depends on x_0's parity.
  KOKKOS_INLINE_FUNCTION std::uint32_t forward_half(const Geometry& g, std::uint32_t from,
                                                    int mu) const {
    const std::uint32_t n = static_cast<std::uint32_t>(g.extent(mu));
    if (mu == 0) {
      const std::uint32_t odd = static_cast<std::uint32_t>(x[0] & 1);
      return x[0] == g.extent(0) - 1 ? from + 1 - n / 2 : from + odd;
    }
    return x[mu] == g.extent(mu) - 1 ? from - (n - 1) * g.half_stride(mu)
                                     : from + g.half_stride(mu);
  }
  KOKKOS_INLINE_FUNCTION std::uint32_t backward_half(const Geometry& g, std::uint32_t from,
                                                     int mu) const {
    const std::uint32_t n = static_cast<std::uint32_t>(g.extent(mu));
    if (mu == 0) {
      const std::uint32_t even = static_cast<std::uint32_t>((x[0] & 1) ^ 1);
      return x[0] == 0 ? from + n / 2 - 1 : from - even;
    }
    return x[mu] == 0 ? from + (n - 1) * g.half_stride(mu) : from - g.half_stride(mu);
  }
};

/// Calls f(std::integral_constant<int, D>{}) for the runtime dimension D = 2, 3 or 4, so
/// kernels can be instantiated per dimension.
template <class F>
decltype(auto) dispatch_dimensions(int dims, F&& f) {
  switch (dims) {
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    default:
      return f(std::integral_constant<int, 4>{});
  }
}

}  // namespace portamc::su2

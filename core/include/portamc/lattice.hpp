#pragma once
// Periodic hypercubic lattice geometry in 2–4 dimensions, a plain value type that
// kernels capture by copy. Sites are numbered with x_0 running fastest.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace portamc {

template <int D>
class HypercubicLattice {
  static_assert(D >= 1 && D <= 4, "portamc lattices have 1 to 4 dimensions");

 public:
  static constexpr int dimensions = D;
  using index_type = std::int64_t;
  using coords_type = Kokkos::Array<int, D>;

  HypercubicLattice() = default;

  /// Throws std::invalid_argument for an extent < 2 (a periodic lattice needs two
  /// distinct neighbours per direction) or a volume that overflows index_type.
  explicit HypercubicLattice(const std::array<int, D>& extents) {
    index_type stride = 1;
    for (int mu = 0; mu < D; ++mu) {
      if (extents[mu] < 2) {
        throw std::invalid_argument("lattice extent " + std::to_string(extents[mu]) +
                                    " in direction " + std::to_string(mu) + " is below 2");
      }
      extent_[mu] = extents[mu];
      stride_[mu] = stride;
      if (stride > INT64_MAX / extents[mu]) throw std::invalid_argument("lattice volume overflows");
      stride *= extents[mu];
    }
    volume_ = stride;
  }

  /// An L^D lattice.
  static HypercubicLattice cubic(int L) {
    std::array<int, D> e{};
    e.fill(L);
    return HypercubicLattice(e);
  }

  KOKKOS_INLINE_FUNCTION index_type volume() const { return volume_; }
  KOKKOS_INLINE_FUNCTION int extent(int mu) const { return extent_[mu]; }

  KOKKOS_INLINE_FUNCTION coords_type coords(index_type site) const {
    coords_type x;
    for (int mu = 0; mu < D; ++mu) {
      x[mu] = static_cast<int>(site % extent_[mu]);
      site /= extent_[mu];
    }
    return x;
  }

  KOKKOS_INLINE_FUNCTION index_type index(const coords_type& x) const {
    index_type site = 0;
    for (int mu = 0; mu < D; ++mu) site += static_cast<index_type>(x[mu]) * stride_[mu];
    return site;
  }

  /// Neighbour one step forward (+1) or backward (-1) in direction mu, periodic.
  KOKKOS_INLINE_FUNCTION index_type neighbour(index_type site, int mu, int step) const {
    const int x = static_cast<int>((site / stride_[mu]) % extent_[mu]);
    int y = x + step;
    // Branches instead of a modulo: cheaper in kernels, and correct for |step| <= extent.
    if (y >= extent_[mu]) y -= extent_[mu];
    if (y < 0) y += extent_[mu];
    return site + static_cast<index_type>(y - x) * stride_[mu];
  }

  /// Neighbour number n in 0..2D-1: n < D is forward in direction n, else backward in n-D.
  KOKKOS_INLINE_FUNCTION index_type neighbour(index_type site, int n) const {
    return n < D ? neighbour(site, n, +1) : neighbour(site, n - D, -1);
  }

  /// Checkerboard parity (sum of coordinates mod 2). A proper two-colouring only
  /// when every extent is even; see is_bipartite().
  KOKKOS_INLINE_FUNCTION int parity(index_type site) const {
    int sum = 0;
    for (int mu = 0; mu < D; ++mu) {
      sum += static_cast<int>(site % extent_[mu]);
      site /= extent_[mu];
    }
    return sum & 1;
  }

  bool is_bipartite() const {
    for (int mu = 0; mu < D; ++mu)
      if (extent_[mu] % 2 != 0) return false;
    return true;
  }

  /// Colour class of the p^D sublattice decomposition: colour = sum_mu (x_mu mod p) p^mu.
  /// Sites of one colour are at least p apart in every direction where they differ, so
  /// updates whose stencil reaches fewer than p sites can run concurrently on one colour.
  /// Needs every extent divisible by p (see has_colouring()).
  KOKKOS_INLINE_FUNCTION int colour(index_type site, int p) const {
    int c = 0, weight = 1;
    for (int mu = 0; mu < D; ++mu) {
      c += static_cast<int>((site % extent_[mu]) % p) * weight;
      site /= extent_[mu];
      weight *= p;
    }
    return c;
  }

  static constexpr int colour_count(int p) {
    int n = 1;
    for (int mu = 0; mu < D; ++mu) n *= p;
    return n;
  }

  bool has_colouring(int p) const {
    for (int mu = 0; mu < D; ++mu)
      if (extent_[mu] % p != 0) return false;
    return true;
  }

 private:
  Kokkos::Array<int, D> extent_{};
  Kokkos::Array<index_type, D> stride_{};
  index_type volume_ = 0;
};

}  // namespace portamc

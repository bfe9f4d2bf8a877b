#pragma once
// Where the sites of a rank's padded block (decomposition.hpp) lie in the whole lattice, for
// the update kernels: which sites are halo copies (not updated here) and which global link
// index keys a link's random numbers, so that a link draws the same numbers on any rank count.
//
// The kernels take the embedding as a template parameter. WholeLattice (one rank) is the
// default and compiles to exactly the code without decomposition: its tests are constants and
// its global link is the local one. SubLattice is used only by decomposed runs.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/su2/detail/decomposition.hpp"
#include "portamc/su2/detail/geometry.hpp"

namespace portamc::su2 {

/// One rank with the whole lattice: no halos, local = global.
struct WholeLattice {
  template <int D>
  KOKKOS_INLINE_FUNCTION constexpr bool outside(const Geometry&, const LatticeSite<D>&) const {
    return false;
  }
  template <int D>
  KOKKOS_INLINE_FUNCTION Geometry::index_type global_link(const Geometry& g,
                                                          const LatticeSite<D>& at, int mu) const {
    return g.global_link(at.site, mu);
  }
  KOKKOS_INLINE_FUNCTION Geometry::index_type global_link(const Geometry& g,
                                                          Geometry::index_type site, int mu) const {
    return g.global_link(site, mu);
  }
};

/// A padded block of a decomposed lattice: global coordinate = padded coordinate + shift
/// (shift = origin - 1 in split directions, 0 elsewhere), taken periodically for halo sites.
struct SubLattice {
  Kokkos::Array<int, Geometry::max_dimensions> shift{};
  Kokkos::Array<int, Geometry::max_dimensions> global_extent{};
  Kokkos::Array<Geometry::index_type, Geometry::max_dimensions> global_stride{};
  unsigned split_mask = 0;  ///< bit mu: direction mu is split (has halo layers)
  /// Which interior sites a kernel updates: all, only the boundary layers (coordinate 1 or
  /// L_mu in some split direction: the sites whose links the halo exchange sends), or only
  /// the rest (overlap of the exchange with interior work).
  enum Region : int { all = 0, boundary = 1, inner = 2 };
  int region = all;

  SubLattice() = default;
  explicit SubLattice(const Decomposition& d) {
    Geometry::index_type stride = 1;
    for (int mu = 0; mu < d.dimensions(); ++mu) {
      shift[mu] = d.origin(mu) - d.halo(mu);
      global_extent[mu] = d.global_extents()[mu];
      global_stride[mu] = stride;
      stride *= global_extent[mu];
    }
    split_mask = d.split_mask();
  }

  /// A site the kernel leaves alone: a halo site (coordinate 0 or L_mu + 1 in a split
  /// direction), or one outside `region`.
  template <int D>
  KOKKOS_INLINE_FUNCTION bool outside(const Geometry& g, const LatticeSite<D>& at) const {
    bool halo = false, edge = false;
    for (int mu = 0; mu < D; ++mu) {
      const bool split = ((split_mask >> mu) & 1u) != 0;
      const int last = g.extent(mu) - 1;
      halo |= split && (at.x[mu] == 0 || at.x[mu] == last);
      edge |= split && (at.x[mu] == 1 || at.x[mu] == last - 1);
    }
    return halo || (region == boundary && !edge) || (region == inner && edge);
  }

  /// Global link index of link mu at an interior site (no periodic wrap needed there).
  template <int D>
  KOKKOS_INLINE_FUNCTION Geometry::index_type global_link(const Geometry&, const LatticeSite<D>& at,
                                                          int mu) const {
    Geometry::index_type site = 0;
    for (int nu = 0; nu < D; ++nu) site += (at.x[nu] + shift[nu]) * global_stride[nu];
    return site * D + mu;
  }

  /// Global site of any padded site, halos included (periodic).
  KOKKOS_INLINE_FUNCTION Geometry::index_type global_site(const Geometry& g,
                                                          Geometry::index_type site) const {
    Geometry::index_type global = 0;
    for (int mu = 0; mu < g.dimensions(); ++mu) {
      int x = static_cast<int>(site % g.extent(mu)) + shift[mu];
      site /= g.extent(mu);
      if (x < 0) x += global_extent[mu];
      if (x >= global_extent[mu]) x -= global_extent[mu];
      global += x * global_stride[mu];
    }
    return global;
  }
  KOKKOS_INLINE_FUNCTION Geometry::index_type global_link(const Geometry& g,
                                                          Geometry::index_type site, int mu) const {
    return global_site(g, site) * g.dimensions() + mu;
  }
};

}  // namespace portamc::su2

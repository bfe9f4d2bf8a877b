#pragma once
// Kernels over the whole field that are not updates: starts, measurements, gauge
// transformations, reunitarisation. Measurements multiply in double whatever the storage
// precision and accumulate in double, so float and double fields are measured alike.
//
// Public functors so nvcc compiles their device code.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"
#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/link_storage.hpp"
#include "portamc/su2/detail/random_su2.hpp"
#include "portamc/su2/detail/reductions.hpp"
#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

/// Haar-random links: link l from draw(seed, purpose_initial_state, l, 0).
template <class ExecutionSpace, class Real>
struct HotStartKernel {
  LinkView<Real, typename ExecutionSpace::memory_space> links;
  Geometry geometry;
  std::uint64_t seed = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t link) const {
    const std::int64_t site = link / geometry.dimensions();
    const int mu = static_cast<int>(link % geometry.dimensions());
    const auto u = haar_random(
        rng::draw(seed, rng::purpose_initial_state, static_cast<std::uint64_t>(link), 0));
    store_link(links, geometry.slot(mu, geometry.parity(site), site), u);
  }
};

/// U_mu(x) -> g(x) U_mu(x) g(x+mu)^dagger with Haar-random g(x) from
/// draw(seed, purpose_gauge_transformation, x, step), recomputed where needed instead of
/// stored. Each thread owns one link, so the transformation runs in place.
template <class ExecutionSpace, class Real, int D>
struct GaugeTransformKernel {
  LinkView<Real, typename ExecutionSpace::memory_space> links;
  Geometry geometry;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;

  KOKKOS_INLINE_FUNCTION Quaternion<double> g(std::int64_t site) const {
    return haar_random(
        rng::draw(seed, rng::purpose_gauge_transformation, static_cast<std::uint64_t>(site), step));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t link) const {
    const LatticeSite<D> at(geometry, link / D);
    const int mu = static_cast<int>(link % D);
    const std::int64_t slot = geometry.slot(mu, at.parity(), at.site);
    const Quaternion<double> u = load_link(links, slot).template cast<double>();
    store_link(links, slot, (g(at.site) * u) * dagger(g(at.forward(geometry, at.site, mu))));
  }
};

/// Sums of 1 - ½ Tr U_p over the D(D-1)/2 plaquettes U_mu(x) U_nu(x+mu) U_mu(x+nu)^dagger
/// U_nu(x)^dagger (mu < nu) at each site x.
template <class ExecutionSpace, class Real, int D>
struct PlaquetteKernel {
  ConstLinkView<Real, typename ExecutionSpace::memory_space> links;
  Geometry geometry;

  KOKKOS_INLINE_FUNCTION Quaternion<double> link(int mu, int parity, std::int64_t site) const {
    return load_link(links, geometry.slot(mu, parity, site)).template cast<double>();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t site, PlaquetteSums& sums) const {
    const LatticeSite<D> at(geometry, site);
    const int p = at.parity(), q = p ^ 1;
    for (int mu = 0; mu < D; ++mu) {
      const Quaternion<double> u_mu = link(mu, p, site);
      const std::int64_t x_mu = at.forward(geometry, site, mu);
      for (int nu = mu + 1; nu < D; ++nu) {
        const std::int64_t x_nu = at.forward(geometry, site, nu);
        const Quaternion<double> left = u_mu * link(nu, q, x_mu);
        const Quaternion<double> right = link(nu, p, site) * link(mu, q, x_nu);
        // ½ Tr(A B^dagger) = A·B as 4-vectors
        const double half_trace =
            left.a0 * right.a0 + left.a1 * right.a1 + left.a2 * right.a2 + left.a3 * right.a3;
        if (nu == D - 1) {
          sums.temporal += 1.0 - half_trace;
        } else {
          sums.spatial += 1.0 - half_trace;
        }
      }
    }
  }
};

/// ½ Tr of the Polyakov loop P(x) = prod_t U_{D-1}(x, t) at spatial site x (the site with
/// t = 0); the sum over x, and optionally each value.
template <class ExecutionSpace, class Real, int D>
struct PolyakovKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  ConstLinkView<Real, memory_space> links;
  Kokkos::View<double*, memory_space> values;  ///< empty: only the sum
  Geometry geometry;

  KOKKOS_INLINE_FUNCTION double loop(const std::int64_t x) const {
    const LatticeSite<D> at(geometry, x);
    const std::int64_t slice = geometry.spatial_volume();
    int parity = at.parity();
    Quaternion<double> p = Quaternion<double>::identity();
    for (int t = 0; t < geometry.extent(D - 1); ++t, parity ^= 1) {
      const std::int64_t site = x + t * slice;
      p = p * load_link(links, geometry.slot(D - 1, parity, site)).template cast<double>();
    }
    return p.half_trace();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t x, double& sum) const {
    const double value = loop(x);
    if (values.extent(0) > 0) values(x) = value;
    sum += value;
  }
};

/// Projects every link back onto SU(2).
template <class ExecutionSpace, class Real>
struct ReunitariseKernel {
  LinkView<Real, typename ExecutionSpace::memory_space> links;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot) const {
    store_link(links, slot, normalised(load_link(links, slot)));
  }
};

/// max over links of | |U|^2 - 1 |.
template <class ExecutionSpace, class Real>
struct UnitarityKernel {
  ConstLinkView<Real, typename ExecutionSpace::memory_space> links;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t slot, double& worst) const {
    const double d = kmath::fabs(load_link(links, slot).template cast<double>().norm2() - 1.0);
    if (d > worst) worst = d;
  }
};

}  // namespace portamc::su2

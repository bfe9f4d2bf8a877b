// APE smearing (smearing.hpp): Jacobi iterations between two link buffers, every spatial
// link of an iteration computed from the previous iteration's links, so the result does not
// depend on the order in which threads run.
#include "portamc/su2/smearing.hpp"

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/link_storage.hpp"
#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

/// One APE step for the spatial links: thread n = slot of a link with direction i < D-1
/// (those slots are 0 .. (D-1) V - 1), reading `from` and writing `to`. Products and the
/// projection in double, the result rounded to Real.
template <class ExecutionSpace, class Real, int D>
struct ApeSmearKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  ConstLinkView<Real, memory_space> from;
  LinkView<Real, memory_space> to;
  Geometry geometry;
  double keep = 1;           ///< 1 - alpha
  double staple_weight = 0;  ///< alpha / (2 (D-2))

  KOKKOS_INLINE_FUNCTION Quaternion<double> link(int mu, int parity, std::int64_t site) const {
    return load_link(from, geometry.slot(mu, parity, site)).template cast<double>();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t n) const {
    const std::int64_t half = geometry.half_volume();
    const int i = static_cast<int>(n / geometry.volume());
    const int p = static_cast<int>((n / half) & 1), q = p ^ 1;
    const LatticeSite<D> at(geometry, p, n % half);
    const std::int64_t x = at.site;
    const std::int64_t x_i = at.forward(geometry, x, i);
    Quaternion<double> staples = Quaternion<double>::zero();
    for (int j = 0; j < D - 1; ++j) {
      if (j == i) continue;
      const std::int64_t x_j = at.forward(geometry, x, j);
      const std::int64_t x_mj = at.backward(geometry, x, j);
      // x - j has the coordinate x_i of x, so forward() in i applies to it.
      const std::int64_t x_mj_i = at.forward(geometry, x_mj, i);
      staples += link(j, p, x) * link(i, q, x_j) * dagger(link(j, q, x_i));
      staples += dagger(link(j, q, x_mj)) * link(i, q, x_mj) * link(j, p, x_mj_i);
    }
    const Quaternion<double> sum = scaled(link(i, p, x), keep) + scaled(staples, staple_weight);
    // A positive combination of SU(2) matrices is |sum| times an SU(2) matrix: projecting
    // is normalising. sum = 0 needs alpha > 0 and staples cancelling U exactly (measure
    // zero); keep the old link there rather than divide by zero.
    const double norm2 = sum.norm2();
    store_link(to, n, norm2 > 0 ? scaled(sum, 1.0 / kmath::sqrt(norm2)) : link(i, p, x));
  }
};

template <class Space, class Real>
GaugeField<Space, Real> ape_smear(const Space& space, const GaugeField<Space, Real>& field,
                                  double alpha, int iterations) {
  // The negated comparison also rejects NaN.
  if (!(alpha >= 0 && alpha <= 1))
    throw std::invalid_argument("ape_smear: alpha must be in [0, 1], got " + std::to_string(alpha));
  if (iterations < 0)
    throw std::invalid_argument("ape_smear: iterations must be >= 0, got " +
                                std::to_string(iterations));
  const Geometry& g = field.geometry();
  const int d = g.dimensions();
  if (d < 3)
    throw std::invalid_argument(
        "ape_smear: needs at least 3 dimensions (spatial staples "
        "need two spatial directions), the lattice has " +
        std::to_string(d));

  GaugeField<Space, Real> current(space, field.extents());
  Kokkos::deep_copy(space, current.links(), field.links());
  if (iterations == 0 || alpha == 0) {
    // No smearing: an exact copy, not a renormalised one.
    space.fence();
    return current;
  }
  // Both buffers start as the input, so their temporal links, never written, stay equal.
  GaugeField<Space, Real> next(space, field.extents());
  Kokkos::deep_copy(space, next.links(), field.links());
  const std::int64_t spatial_links = g.volume() * (d - 1);
  const double staple_weight = alpha / (2.0 * (d - 2));
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> policy(space, 0, spatial_links);
  dispatch_dimensions(d, [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    for (int n = 0; n < iterations; ++n) {
      Kokkos::parallel_for("su2::ape_smear", policy,
                           ApeSmearKernel<Space, Real, D>{current.links(), next.links(), g,
                                                          1.0 - alpha, staple_weight});
      std::swap(current, next);
    }
  });
  space.fence();
  return current;
}

#define PORTAMC_SU2_APE_SMEAR_(Space)                                                          \
  template GaugeField<Space, float> ape_smear(const Space&, const GaugeField<Space, float>&,   \
                                              double, int);                                    \
  template GaugeField<Space, double> ape_smear(const Space&, const GaugeField<Space, double>&, \
                                               double, int);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_APE_SMEAR_)
#undef PORTAMC_SU2_APE_SMEAR_

}  // namespace portamc::su2

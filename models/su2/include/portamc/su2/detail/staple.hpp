#pragma once
// The staple sum of link U_mu(x): W = sum over nu != mu of
//   U_nu(x+mu) U_mu(x+nu)^dagger U_nu(x)^dagger                  (forward plaquette)
// + U_nu(x+mu-nu)^dagger U_mu(x-nu)^dagger U_nu(x-nu)             (backward plaquette)
// so that Tr(U_mu(x) W) is the sum of the traces of the 2(D-1) plaquettes through the link,
// and the link's Boltzmann weight is exp((beta/2) Tr(U W)). W = k V with k = |W| and V in
// SU(2): any sum of SU(2) elements is a multiple of one.
//
// Neighbours of x in other directions have the opposite parity, except x+mu-nu, which has
// the same; none of the links read is (mu, parity(x)), the set being updated.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/link_storage.hpp"
#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

template <int D, class View>
KOKKOS_INLINE_FUNCTION Quaternion<link_real_t<View>> staple_sum(const View& links,
                                                                const Geometry& g,
                                                                const LatticeSite<D>& at, int mu,
                                                                int parity) {
  using Real = link_real_t<View>;
  const int other = parity ^ 1;
  // Half-site indices (32-bit) plus 64-bit group offsets: the cheapest addressing, which
  // matters because the update kernels are bound by instruction issue.
  const std::uint32_t x = at.half;
  const std::uint32_t x_mu = at.forward_half(g, x, mu);
  const Geometry::index_type mu_other = g.group_offset(mu, other);
  Quaternion<Real> w = Quaternion<Real>::zero();
  for (int nu = 0; nu < D; ++nu) {
    if (nu == mu) continue;
    const Geometry::index_type nu_same = g.group_offset(nu, parity);
    const Geometry::index_type nu_other = g.group_offset(nu, other);
    const std::uint32_t x_nu = at.forward_half(g, x, nu);
    const std::uint32_t x_mnu = at.backward_half(g, x, nu);
    const std::uint32_t x_mu_mnu = at.forward_half(g, x_mnu, mu);
    const auto u_nu_x_mu = load_link(links, nu_other + x_mu);
    const auto u_mu_x_nu = load_link(links, mu_other + x_nu);
    const auto u_nu_x = load_link(links, nu_same + x);
    w += (u_nu_x_mu * dagger(u_mu_x_nu)) * dagger(u_nu_x);
    const auto u_nu_x_mu_mnu = load_link(links, nu_same + x_mu_mnu);
    const auto u_mu_x_mnu = load_link(links, mu_other + x_mnu);
    const auto u_nu_x_mnu = load_link(links, nu_other + x_mnu);
    w += dagger(u_mu_x_mnu * u_nu_x_mu_mnu) * u_nu_x_mnu;
  }
  return w;
}

}  // namespace portamc::su2

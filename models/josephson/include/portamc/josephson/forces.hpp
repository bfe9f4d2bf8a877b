#pragma once
// Force policies of the Langevin integrators: the conservative force F(phi) = -U'(phi) of the
// potential without the bias term, which the integrators add as the drive V0 gamma(t).
// Device-callable functors; `from` builds one from the parameters on the host.
#include <Kokkos_Core.hpp>

#include "portamc/josephson/detail/elementary.hpp"
#include "portamc/josephson/parameters.hpp"

namespace portamc::josephson {

/// The Josephson washboard: U = -V0 cos phi, F = -V0 sin phi (the physical model; sin by
/// elementary.hpp, 1e-7 for |phi| < 10^4 in float).
template <class Real>
struct WashboardForce {
  Real V0 = 1;

  static WashboardForce from(const LangevinParameters& p) { return {static_cast<Real>(p.V0)}; }
  KOKKOS_INLINE_FUNCTION Real operator()(Real phi) const { return -V0 * sin_phase(phi); }
};

/// The washboard linearised at phi = 0: U = V0 phi^2 / 2, F = -V0 phi. With gamma = 0 the
/// dynamics is an Ornstein–Uhlenbeck process with Gaussian moments known in closed form,
/// for the integrators' weak-order tests.
template <class Real>
struct HarmonicForce {
  Real V0 = 1;

  static HarmonicForce from(const LangevinParameters& p) { return {static_cast<Real>(p.V0)}; }
  KOKKOS_INLINE_FUNCTION Real operator()(Real phi) const { return -V0 * phi; }
};

}  // namespace portamc::josephson

#pragma once
// One integration step of the Langevin equation, for each dynamics and integrator.
//
// A stepper advances (phi, v) by one step h given
//   drive       the bias force V0 gamma at the start of the step (t_k),
//   drive_next  the bias force at its end (t_{k+1}; only Heun uses it),
//   r           the step's standard normal; the noise increment is sigma r.
// Force is a policy from forces.hpp (the washboard, or a harmonic force for tests).
//
// Underdamped, sigma = sqrt(2 beta theta h):
//   Euler (the paper's Algorithm 1):  a_k = -beta v_k + F(phi_k) + drive_k
//                                     phi_{k+1} = phi_k + v_k h
//                                     v_{k+1}   = v_k + a_k h + sigma r_k
//   Heun (stochastic Heun, weak order 2 for additive noise): the Euler step above is the
//   predictor (phi~, v~); the corrector averages the drifts at both ends with the same
//   noise increment:
//                                     phi_{k+1} = phi_k + (v_k + v~) h / 2
//                                     v_{k+1}   = v_k + (a_k + a~) h / 2 + sigma r_k,
//                                     a~ = -beta v~ + F(phi~) + drive_{k+1}
// Overdamped, beta phi' = F(phi) + V0 gamma + xi, sigma = sqrt(2 theta h / beta):
//   Euler:  phi_{k+1} = phi_k + (F(phi_k) + drive_k) h / beta + sigma r_k
//   Heun:   predictor phi~ by Euler, phi_{k+1} = phi_k + (f_k + f~) h / (2 beta) + sigma r_k
// The overdamped steppers leave v alone (it stays 0: the overdamped state is phi only).
//
// The coefficients are rounded once to Real on the host, so a float stepper does only float
// arithmetic.
#include <Kokkos_Core.hpp>
#include <cmath>

#include "portamc/josephson/parameters.hpp"

namespace portamc::josephson {

template <class Real, class Force>
struct UnderdampedEuler {
  Force force;
  Real h = 0, beta = 0, sigma = 0;

  static UnderdampedEuler from(const LangevinParameters& p) {
    return {Force::from(p), static_cast<Real>(p.h), static_cast<Real>(p.beta),
            static_cast<Real>(std::sqrt(2 * p.beta * p.theta * p.h))};
  }
  KOKKOS_INLINE_FUNCTION void step(Real& phi, Real& v, Real drive, Real /*drive_next*/,
                                   Real r) const {
    const Real a = -beta * v + force(phi) + drive;
    phi = phi + v * h;
    v = v + a * h + sigma * r;
  }
};

template <class Real, class Force>
struct UnderdampedHeun {
  Force force;
  Real h = 0, half_h = 0, beta = 0, sigma = 0;

  static UnderdampedHeun from(const LangevinParameters& p) {
    return {Force::from(p), static_cast<Real>(p.h), static_cast<Real>(p.h / 2),
            static_cast<Real>(p.beta), static_cast<Real>(std::sqrt(2 * p.beta * p.theta * p.h))};
  }
  KOKKOS_INLINE_FUNCTION void step(Real& phi, Real& v, Real drive, Real drive_next, Real r) const {
    const Real noise = sigma * r;
    const Real a = -beta * v + force(phi) + drive;
    const Real phi_p = phi + v * h;
    const Real v_p = v + a * h + noise;
    const Real a_p = -beta * v_p + force(phi_p) + drive_next;
    phi = phi + (v + v_p) * half_h;
    v = v + (a + a_p) * half_h + noise;
  }
};

template <class Real, class Force>
struct OverdampedEuler {
  Force force;
  Real h_over_beta = 0, sigma = 0;

  static OverdampedEuler from(const LangevinParameters& p) {
    return {Force::from(p), static_cast<Real>(p.h / p.beta),
            static_cast<Real>(std::sqrt(2 * p.theta * p.h / p.beta))};
  }
  KOKKOS_INLINE_FUNCTION void step(Real& phi, Real& /*v*/, Real drive, Real /*drive_next*/,
                                   Real r) const {
    phi = phi + (force(phi) + drive) * h_over_beta + sigma * r;
  }
};

template <class Real, class Force>
struct OverdampedHeun {
  Force force;
  Real h_over_beta = 0, half_h_over_beta = 0, sigma = 0;

  static OverdampedHeun from(const LangevinParameters& p) {
    return {Force::from(p), static_cast<Real>(p.h / p.beta), static_cast<Real>(p.h / (2 * p.beta)),
            static_cast<Real>(std::sqrt(2 * p.theta * p.h / p.beta))};
  }
  KOKKOS_INLINE_FUNCTION void step(Real& phi, Real& /*v*/, Real drive, Real drive_next,
                                   Real r) const {
    const Real noise = sigma * r;
    const Real f = force(phi) + drive;
    const Real phi_p = phi + f * h_over_beta + noise;
    const Real f_p = force(phi_p) + drive_next;
    phi = phi + (f + f_p) * half_h_over_beta + noise;
  }
};

/// Calls body(stepper) with the stepper that `p` selects. Each (dynamics, integrator) is its
/// own type, so a kernel templated on the stepper is compiled once per combination.
template <class Real, template <class> class ForcePolicy, class Body>
void with_stepper(const LangevinParameters& p, Body&& body) {
  using Force = ForcePolicy<Real>;
  if (p.dynamics == Dynamics::underdamped) {
    if (p.integrator == Integrator::euler)
      body(UnderdampedEuler<Real, Force>::from(p));
    else
      body(UnderdampedHeun<Real, Force>::from(p));
  } else {
    if (p.integrator == Integrator::euler)
      body(OverdampedEuler<Real, Force>::from(p));
    else
      body(OverdampedHeun<Real, Force>::from(p));
  }
}

}  // namespace portamc::josephson

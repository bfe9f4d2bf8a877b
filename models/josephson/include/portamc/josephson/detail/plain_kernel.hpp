#pragma once
// The paper's Algorithm 1 as written, the reference the benchmark measures the ensemble
// against: one realisation per thread, the Euler step, constant bias, one launch in which
// every thread runs its trajectory to escape or the cap, and a textbook Gaussian generator.
//
//   phi_k = phi_{k-1} + v_{k-1} h
//   v_k   = v_{k-1} + (-beta v_{k-1} - V0 sin phi_{k-1} + V0 gamma) h + sqrt(2 beta theta h) r
//   escape at the first k with phi_k > threshold: record k; none up to the cap: record -1.
//
// nrand: Box–Muller with the library log, sqrt, cos and sin in Real, one new Philox block per
// pair of normals (only words 0 and 1 used, u = (w0 + 1) 2^-32, angle 2 pi w1 2^-32), the
// second normal cached for the next step. Keying: draw(seed, purpose_josephson_noise,
// entity = 2^63 + first_realisation + i, step = pair index (k - 1) / 2), the top entity bit
// keeping these streams apart from the ensemble's (noise.hpp). Its trajectories therefore
// differ from the ensemble's for the same seed; only the statistics agree.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "portamc/josephson/parameters.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"

namespace portamc::josephson {

/// Entity bit that separates the plain kernel's noise streams from the ensemble's.
inline constexpr std::uint64_t plain_kernel_entity_bit = std::uint64_t{1} << 63;

template <class Real, class MemorySpace>
struct PlainEscapeKernel {
  Kokkos::View<std::int64_t*, MemorySpace> escape_steps;  ///< step of escape, or -1
  std::uint64_t seed = 0, first_realisation = 0, max_steps = 0;
  Real phi0 = 0, threshold = 0, V0 = 0, drive = 0, beta = 0, h = 0, sigma = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::uint64_t entity =
        plain_kernel_entity_bit | (first_realisation + static_cast<std::uint64_t>(i));
    constexpr Real two_pow_minus_32 = Real(2.3283064365386962890625e-10);
    constexpr Real two_pi = Real(6.283185307179586476925286766559);
    Real phi = phi0, v = 0, cached = 0;
    for (std::uint64_t k = 1; k <= max_steps; ++k) {
      Real r;
      if (k % 2 == 1) {  // nrand: a fresh pair
        const rng::Block w = rng::draw(seed, rng::purpose_josephson_noise, entity, (k - 1) / 2);
        const Real u = static_cast<Real>(w[0]) * two_pow_minus_32 + two_pow_minus_32;
        const Real radius = kmath::sqrt(Real(-2) * kmath::log(u));
        const Real angle = two_pi * (static_cast<Real>(w[1]) * two_pow_minus_32);
        r = radius * kmath::cos(angle);
        cached = radius * kmath::sin(angle);
      } else {
        r = cached;
      }
      const Real phi_next = phi + v * h;
      v = v + (-beta * v - V0 * kmath::sin(phi) + drive) * h + sigma * r;
      phi = phi_next;
      if (phi > threshold) {
        escape_steps(i) = static_cast<std::int64_t>(k);
        return;
      }
    }
    escape_steps(i) = -1;
  }
};

/// Runs the plain kernel for p.realisations realisations in one launch on `space` and returns
/// the escape steps (-1: censored) in its memory space. Needs underdamped Euler dynamics at
/// constant bias (std::invalid_argument otherwise); waits for the kernel.
template <class ExecutionSpace, class Real>
Kokkos::View<std::int64_t*, typename ExecutionSpace::memory_space> run_plain_escape(
    const ExecutionSpace& space, const LangevinParameters& p) {
  p.validate();
  if (p.dynamics != Dynamics::underdamped || p.integrator != Integrator::euler)
    throw std::invalid_argument(
        "josephson plain kernel: dynamics/integrator: it is the paper's underdamped Euler "
        "kernel, expected underdamped and euler");
  if (p.nu != 0)
    throw std::invalid_argument("josephson plain kernel: nu: expected a constant bias (nu = 0)");
  using memory_space = typename ExecutionSpace::memory_space;
  const auto n = static_cast<std::int64_t>(p.realisations);
  PlainEscapeKernel<Real, memory_space> kernel;
  kernel.escape_steps = Kokkos::View<std::int64_t*, memory_space>(
      Kokkos::view_alloc(space, std::string("josephson::plain_escape_steps"),
                         Kokkos::WithoutInitializing),
      n);
  kernel.seed = p.seed;
  kernel.first_realisation = p.first_realisation;
  kernel.max_steps = p.max_steps;
  kernel.phi0 = static_cast<Real>(p.start_phase());
  kernel.threshold = static_cast<Real>(p.escape_threshold());
  kernel.V0 = static_cast<Real>(p.V0);
  kernel.drive = static_cast<Real>(p.V0 * p.gamma0);
  kernel.beta = static_cast<Real>(p.beta);
  kernel.h = static_cast<Real>(p.h);
  kernel.sigma = static_cast<Real>(std::sqrt(2 * p.beta * p.theta * p.h));
  Kokkos::parallel_for(
      "josephson::plain_escape",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n), kernel);
  space.fence();
  return kernel.escape_steps;
}

}  // namespace portamc::josephson

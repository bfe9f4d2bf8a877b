#pragma once
// Checkerboard update kernels: one thread per link of direction mu and one parity, indexed
// by the half-site index h, so thread h reads and writes slot (2 mu + parity) V/2 + h and
// consecutive threads touch consecutive addresses (link_storage.hpp). Links of one
// direction and parity share no plaquette, so they update concurrently without atomics
// (the heatbath's failure counter aside, which only exhausted retries touch).
//
// Public functors (not lambdas in member functions) so nvcc compiles their device code.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "portamc/fast_math.hpp"
#include "portamc/histogram.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/heatbath_sampling.hpp"
#include "portamc/su2/detail/link_storage.hpp"
#include "portamc/su2/detail/random_su2.hpp"
#include "portamc/su2/detail/reductions.hpp"
#include "portamc/su2/detail/staple.hpp"
#include "portamc/su2/detail/sub_lattice.hpp"
#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

/// Staples with |W|^2 below this are treated as zero: the heatbath draws a Haar element
/// (alpha = 0) and overrelaxation leaves the link alone (its reflection is undefined).
template <class Real>
inline constexpr Real negligible_staple_norm2 = Real(1e-30);

/// Launch policy of the update kernels. The launch bounds (256 threads, >= 3 blocks per
/// multiprocessor) cap registers at 80 per thread: the heatbath otherwise takes ~130 and
/// runs at a quarter occupancy, too few warps in flight to hide the staple loads (H200,
/// 48^4 heatbath: float 15 -> 17, double 9.2 -> 10.1 x 10^9 link updates/s; overrelaxation
/// unchanged). Host backends ignore them.
/// PORTAMC_SU2_UPDATE_MIN_BLOCKS overrides the 3 for tuning on other GPUs.
#ifndef PORTAMC_SU2_UPDATE_MIN_BLOCKS
#define PORTAMC_SU2_UPDATE_MIN_BLOCKS 3
#endif
template <class ExecutionSpace>
using UpdatePolicy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>,
                                         Kokkos::LaunchBounds<256, PORTAMC_SU2_UPDATE_MIN_BLOCKS>>;

/// The direction an update kernel works on: a run-time `int`, or a compile-time constant
/// (std::integral_constant; its own conversion is host-only constexpr for nvcc).
KOKKOS_INLINE_FUNCTION constexpr int direction_value(int mu) {
  return mu;
}
template <int Mu>
KOKKOS_INLINE_FUNCTION constexpr int direction_value(std::integral_constant<int, Mu>) {
  return Mu;
}

/// What one heatbath link update did.
struct LinkUpdateResult {
  int attempts;
  bool accepted;
  bool kennedy_pendleton;
};

/// Heatbath: U = X V^dagger with X = (a0, rotated axis) drawn by heatbath_sampling.hpp and
/// V = W / |W|. The old link is not read (the heatbath forgets it) except when the
/// retries run out, in which case it is not written either and the failure is counted,
/// the kernel's only atomic, on a path that runs with probability ~(1 - 0.71)^max_attempts.
///
/// Embedding (sub_lattice.hpp): WholeLattice on one rank (the code without decomposition);
/// SubLattice on a rank's padded block, where halo sites are skipped and the random numbers
/// are keyed by the global link.
template <class ExecutionSpace, class Real, int D, class Embedding = WholeLattice>
struct HeatbathKernel {
  using memory_space = typename ExecutionSpace::memory_space;

  LinkView<Real, memory_space> links;
  ConstLinkView<Real, memory_space> staple_links;  // the same array, read through the cache
  Kokkos::View<count_type, memory_space> failures;
  Geometry geometry;
  int mu = 0;
  int parity = 0;
  Real beta = 0;
  Real kp_threshold = Real(acceptance_crossover_alpha);
  HeatbathMethod method = HeatbathMethod::automatic;
  int max_attempts = 1;
  std::uint64_t seed = 0;
  std::uint64_t step_base = 0;  ///< heatbath sweep * calls_per_link_update
  Embedding embedding{};

  /// The staple sum of a link and its heatbath strength alpha = beta |W|.
  struct Staple {
    Quaternion<Real> w;
    Real alpha;
    bool nonzero;  ///< |W|^2 above negligible_staple_norm2 (else alpha = 0: a Haar draw)
  };

  KOKKOS_INLINE_FUNCTION Staple staple(const LatticeSite<D>& at, int mu) const {
    const Quaternion<Real> w = staple_sum<D>(staple_links, geometry, at, mu, parity);
    const Real k2 = w.norm2();
    const bool nonzero = k2 > negligible_staple_norm2<Real>;
    return {w, nonzero ? beta * fastmath::sqrt(k2) : Real(0), nonzero};
  }

  /// The random words of the link (site, mu) in this sweep.
  KOKKOS_INLINE_FUNCTION LinkDraws draws(Geometry::index_type site, int mu) const {
    return {seed, static_cast<std::uint64_t>(embedding.global_link(geometry, site, mu)), step_base};
  }
  KOKKOS_INLINE_FUNCTION LinkDraws draws(const LatticeSite<D>& at, int mu) const {
    return {seed, static_cast<std::uint64_t>(embedding.global_link(geometry, at, mu)), step_base};
  }

  KOKKOS_INLINE_FUNCTION bool kennedy_pendleton(Real alpha) const {
    return uses_kennedy_pendleton(method, alpha, kp_threshold);
  }

  /// Writes U = X V^dagger for the accepted draw d of the link at half-site index h.
  KOKKOS_INLINE_FUNCTION void write(std::int64_t h, int mu, const Quaternion<Real>& w, bool nonzero,
                                    const A0Draw<Real>& d) const {
    const Quaternion<Real> x =
        with_random_axis(d.y, d.axis_cos_uniform, d.axis_phi_word);  // X = U V
    // U = X V^dagger = X W^dagger / |W|: normalising the product divides by |W| and puts
    // the link back on the unit sphere to rounding in the same step.
    store_link(links, geometry.group_offset(mu, parity) + h,
               normalised(nonzero ? x * dagger(w) : x));
  }

  /// A link whose retries ran out keeps its value; only the count changes.
  KOKKOS_INLINE_FUNCTION void count_failure() const {
    Kokkos::atomic_add(&failures(), count_type(1));
  }

  /// Updates link (h, direction); `direction` is `mu` or a compile-time constant
  /// (FixedDirection below).
  template <class Direction = int>
  KOKKOS_INLINE_FUNCTION LinkUpdateResult update(const std::int64_t h, Direction direction) const {
    const int m = direction_value(direction);
    const LatticeSite<D> at(geometry, parity, h);
    if (embedding.outside(geometry, at)) return {0, true, false};
    const Staple s = staple(at, m);
    const bool kp = kennedy_pendleton(s.alpha);
    const A0Draw<Real> d = draw_a0(method, s.alpha, kp_threshold, draws(at, m), max_attempts);
    if (!d.accepted) {
      count_failure();
      return {d.attempts, false, kp};
    }
    write(h, m, s.w, s.nonzero, d);
    return {d.attempts, true, kp};
  }
  KOKKOS_INLINE_FUNCTION LinkUpdateResult update(const std::int64_t h) const {
    return update(h, mu);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t h) const { update(h); }
};

/// The heatbath with proposals and methods tallied by a reduction (diagnostics: the
/// reduction's extra registers and block-level sums halve the GPU throughput).
template <class ExecutionSpace, class Real, int D>
struct CountingHeatbathKernel {
  HeatbathKernel<ExecutionSpace, Real, D> heatbath;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t h, HeatbathTally& tally) const {
    const LinkUpdateResult r = heatbath.update(h);
    tally.links += 1;
    tally.attempts += static_cast<std::uint64_t>(r.attempts);
    tally.kennedy_pendleton += r.kennedy_pendleton ? 1 : 0;
  }
};

/// Overrelaxation: U -> V^dagger U^dagger V^dagger with V = W / |W|, the reflection of U
/// that keeps Tr(U W), hence the action, unchanged. Computed as W^dagger U^dagger W^dagger
/// normalised, which divides by |W|^2 and removes rounding drift in one step.
template <class ExecutionSpace, class Real, int D, class Embedding = WholeLattice>
struct OverrelaxationKernel {
  using memory_space = typename ExecutionSpace::memory_space;

  LinkView<Real, memory_space> links;
  ConstLinkView<Real, memory_space> staple_links;
  Geometry geometry;
  int mu = 0;
  int parity = 0;
  Embedding embedding{};  ///< halo sites are skipped (HeatbathKernel)

  /// Reflects link (h, direction); `direction` is `mu` or a compile-time constant.
  template <class Direction = int>
  KOKKOS_INLINE_FUNCTION void update(const std::int64_t h, Direction direction) const {
    const int m = direction_value(direction);
    const LatticeSite<D> at(geometry, parity, h);
    if (embedding.outside(geometry, at)) return;
    const Quaternion<Real> w = staple_sum<D>(staple_links, geometry, at, m, parity);
    if (!(w.norm2() > negligible_staple_norm2<Real>)) return;
    const std::int64_t slot = geometry.group_offset(m, parity) + h;
    const Quaternion<Real> wd = dagger(w);
    store_link(links, slot, normalised((wd * dagger(load_link(links, slot))) * wd));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t h) const { update(h, mu); }
};

/// An update kernel with its direction fixed at compile time (the kernel's `mu` is ignored).
/// With a run-time mu, x[mu] and the neighbour steps were indexed through local memory and
/// the staple loop kept a run-time test for nu == mu; as a constant, the coordinates stay in
/// registers, the skipped direction disappears and the neighbour arithmetic folds. The
/// results are the same bit for bit (test_su2_update_kernels).
template <class Kernel, int Mu>
struct FixedDirection {
  Kernel kernel;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t h) const {
    kernel.update(h, std::integral_constant<int, Mu>{});
  }
};

/// Calls f(std::integral_constant<int, mu>{}) for the run-time direction mu < D.
template <int D, class F>
void dispatch_direction(int mu, F&& f) {
  static_assert(D >= 1 && D <= 4, "su2: 1 to 4 dimensions");
  switch (mu) {
    case 0:
      f(std::integral_constant<int, 0>{});
      break;
    case 1:
      if constexpr (D > 1) f(std::integral_constant<int, 1>{});
      break;
    case 2:
      if constexpr (D > 2) f(std::integral_constant<int, 2>{});
      break;
    default:
      if constexpr (D > 3) f(std::integral_constant<int, 3>{});
      break;
  }
}

}  // namespace portamc::su2

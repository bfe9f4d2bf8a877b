#pragma once
// A heatbath pass whose retries do not hold up whole warps: the same link updates as
// HeatbathKernel, bit for bit, scheduled differently.
//
// Why: in HeatbathKernel a thread that rejects its a0 proposal retries at once, and on a GPU
// the other 31 threads of its warp wait through every retry (Philox block, two logs, a cos).
// At beta = 2.3 a Kennedy–Pendleton proposal is rejected with probability ~0.07, so ~90 % of
// warps retry at least once and a warp pays ~2 proposals for an average of ~1.07 per link.
//
// How: a team of T threads updates T consecutive links (one chunk). Every thread makes its
// link's first proposal; an accepted link is written at once, a rejected one is pushed to a
// team-scratch queue (its team-local index, site parity bit, alpha and staple sum W, which
// is all the rest of the update needs: the staple is not recomputed). After a barrier,
// queue entry i goes to thread i, which makes the remaining proposals (draw_a0_rest) and
// writes the link or counts the failure. Entries are dense from thread 0, so ~T/14 queued
// links fill one warp instead of being spread over all of them: per warp of first
// proposals the retries cost ~1/8 of a warp-proposal (T = 256) instead of ~1.
//
// Only one compaction: a second round (re-queue the links rejected again, barrier, repeat)
// pays only when the queue spans several warps, i.e. at acceptances far below
// Kennedy–Pendleton's at the couplings where speed matters; within one warp a second
// compaction moves nothing.
//
// Identity with HeatbathKernel: each proposal is keyed by (link, sweep, proposal) as
// before and draw_a0_first + draw_a0_rest make exactly draw_a0's proposals, so the accepted
// one, the link written and the failure count are the same, whatever the queue order. The
// arithmetic is the same inline functions on the same values (alpha and W are stored, not
// recomputed), so also the roundings agree.
//
// Team size: 256 on GPUs (the launch bound of the update kernels), 1 on host backends,
// where a thread runs its retries straight away anyway (the queue then holds one link).
// A team walks over chunks league_size apart, so the league stays within int on host
// backends at any lattice size.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/detail/heatbath_sampling.hpp"
#include "portamc/su2/detail/update_kernels.hpp"

namespace portamc::su2 {

template <class ExecutionSpace>
using QueuedUpdatePolicy =
    Kokkos::TeamPolicy<ExecutionSpace, Kokkos::LaunchBounds<256, PORTAMC_SU2_UPDATE_MIN_BLOCKS>>;

template <class ExecutionSpace, class Real, int D>
struct QueuedHeatbathKernel {
  using member_type = typename QueuedUpdatePolicy<ExecutionSpace>::member_type;

  HeatbathKernel<ExecutionSpace, Real, D> heatbath;
  int team_size = 1;        ///< links per chunk; the policy's team size
  std::int64_t chunks = 0;  ///< ceil(half volume / team_size)

  /// Threads per team on ExecutionSpace.
  static constexpr int default_team_size() { return is_device_space_v<ExecutionSpace> ? 256 : 1; }

  /// Team scratch: per queue slot alpha and W (5 reals) and a tag, plus the queue length.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int threads) {
    return static_cast<std::size_t>(threads) * (5 * sizeof(Real) + sizeof(std::uint32_t)) +
           sizeof(std::uint32_t);
  }

  // A queue tag: the team-local index, the site's parity bit b (site = 2h + b) and whether
  // the staple is nonzero. Team-local indices are < 2^10.
  static constexpr std::uint32_t site_bit = 1u << 30;
  static constexpr std::uint32_t nonzero_bit = 1u << 31;
  static constexpr std::uint32_t index_mask = site_bit - 1;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int rank = team.team_rank();
    const int t = team_size;
    Real* const reals =
        assume_team_scratch(static_cast<Real*>(team.team_shmem().get_shmem(scratch_bytes(t))));
    Real* const alpha = reals;  // then W's four components, each T long
    std::uint32_t* const tags = reinterpret_cast<std::uint32_t*>(reals + 5 * t);
    std::uint32_t* const length = tags + t;
    const std::int64_t half_volume = heatbath.geometry.half_volume();

    for (std::int64_t chunk = team.league_rank(); chunk < chunks; chunk += team.league_size()) {
      if (rank == 0) *length = 0;
      team.team_barrier();
      const std::int64_t h = chunk * t + rank;
      if (h < half_volume) {
        const LatticeSite<D> at(heatbath.geometry, heatbath.parity, h);
        const auto s = heatbath.staple(at, heatbath.mu);
        const bool kp = heatbath.kennedy_pendleton(s.alpha);
        const A0Draw<Real> d = draw_a0_first(kp, s.alpha, heatbath.draws(at.site, heatbath.mu));
        if (d.accepted) {
          heatbath.write(h, heatbath.mu, s.w, s.nonzero, d);
        } else {
          const std::uint32_t i = Kokkos::atomic_fetch_add(length, std::uint32_t(1));
          tags[i] = static_cast<std::uint32_t>(rank) | (at.site & 1 ? site_bit : 0u) |
                    (s.nonzero ? nonzero_bit : 0u);
          alpha[i] = s.alpha;
          reals[1 * t + i] = s.w.a0;
          reals[2 * t + i] = s.w.a1;
          reals[3 * t + i] = s.w.a2;
          reals[4 * t + i] = s.w.a3;
        }
      }
      team.team_barrier();
      const int queued = static_cast<int>(*length);
      for (int i = rank; i < queued; i += t) {
        const std::uint32_t tag = tags[i];
        const std::int64_t hq = chunk * t + static_cast<std::int64_t>(tag & index_mask);
        const Geometry::index_type site = 2 * hq + (tag & site_bit ? 1 : 0);
        const Real a = alpha[i];
        const A0Draw<Real> d =
            draw_a0_rest(heatbath.kennedy_pendleton(a), a, heatbath.draws(site, heatbath.mu),
                         heatbath.max_attempts);
        if (d.accepted) {
          const Quaternion<Real> w{reals[1 * t + i], reals[2 * t + i], reals[3 * t + i],
                                   reals[4 * t + i]};
          heatbath.write(hq, heatbath.mu, w, (tag & nonzero_bit) != 0, d);
        } else {
          heatbath.count_failure();
        }
      }
      // Everyone has read the queue length before the next chunk resets it.
      if (chunk + team.league_size() < chunks) team.team_barrier();
    }
  }
};

/// The 2D checkerboard passes of one heatbath sweep with QueuedHeatbathKernel; `heatbath`
/// is set up for the sweep except for mu and parity.
template <class ExecutionSpace, class Real, int D>
void queued_heatbath_passes(const ExecutionSpace& space,
                            const HeatbathKernel<ExecutionSpace, Real, D>& heatbath) {
  using Kernel = QueuedHeatbathKernel<ExecutionSpace, Real, D>;
  Kernel kernel{heatbath};
  kernel.team_size = Kernel::default_team_size();
  const std::int64_t half_volume = heatbath.geometry.half_volume();
  kernel.chunks = (half_volume + kernel.team_size - 1) / kernel.team_size;
  // Enough teams to fill any device; beyond that, teams loop over chunks.
  constexpr std::int64_t max_league = std::int64_t(1) << 24;
  const int league = static_cast<int>(kernel.chunks < max_league ? kernel.chunks : max_league);
  QueuedUpdatePolicy<ExecutionSpace> policy(space, league, kernel.team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(kernel.team_size)));
  for (int mu = 0; mu < D; ++mu) {
    for (int parity = 0; parity < 2; ++parity) {
      kernel.heatbath.mu = mu;
      kernel.heatbath.parity = parity;
      Kokkos::parallel_for("su2::heatbath_queued", policy, kernel);
    }
  }
}

}  // namespace portamc::su2

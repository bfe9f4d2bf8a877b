#pragma once
// Parallel Metropolis update of the bonding variables (the paper's Algorithm 1).
//
// The 6 N variables split into six domains, one per arm: sigma(i, a) interacts with the five
// other arms of cell i and with sigma(j, a ^ 1) of the neighbour j through arm a, none of
// which is in domain a. So one pass updates all sigma(., a) at once, and a sweep is six passes
// in an order drawn per MC step (purpose_cvf_arm_order), which mimics random sequential
// selection and avoids correlation waves from a fixed order.
//
// Kernel design: one thread per cell over a flat 64-bit range, so consecutive threads read
// consecutive bytes of each arm array (coalesced, the point of the arm-major layout) and the
// neighbour's arm too, except at the periodic seam. Coordinates come from FastCoordinates
// (two double-precision multiplies and corrections), cheaper than a 3D MDRange's tiling and
// than 64-bit division. Per cell one Philox block draw(seed, purpose_cvf_sigma, cell,
// 6 s + k): words 0, 1 pick one of the five other states, word 2 is compared with an integer
// threshold (acceptance.hpp). Accepted changes of {N_HB, N_sigma} are summed into a device
// slot of the state and folded into its counters after the sweep.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>

#include "portamc/cvf/counts.hpp"
#include "portamc/cvf/detail/acceptance.hpp"
#include "portamc/cvf/detail/fast_index.hpp"
#include "portamc/cvf/state.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf {

/// The order of the six passes of MC step `step`: a uniform permutation from one draw (its
/// Lehmer code, an index below 6! = 720).
inline std::array<int, arms> arm_order(std::uint64_t seed, std::uint64_t step) {
  const rng::Block w = rng::draw(seed, rng::purpose_cvf_arm_order, 0, step);
  std::uint32_t code = rng::bounded(w[0], w[1], 720);
  std::array<int, arms> pool{0, 1, 2, 3, 4, 5};
  std::array<int, arms> order{};
  for (int k = 0; k < arms; ++k) {
    const int remaining = arms - k;
    const int pick = static_cast<int>(code % remaining);
    code /= remaining;
    order[k] = pool[pick];
    for (int m = pick; m + 1 < remaining; ++m) pool[m] = pool[m + 1];
  }
  return order;
}

/// The proposal and acceptance of one variable, shared by the kernel and the host reference:
/// returns the new value (== old when rejected) and adds the accepted change to `delta`.
/// `others` are the cell's six sigma (arm included), `partner` the neighbour's sigma facing it.
KOKKOS_FORCEINLINE_FUNCTION int metropolis_variable(const int (&others)[arms], int arm, int partner,
                                                    bool allowed, const rng::Block& w,
                                                    const SigmaAcceptance& table, int& delta_hb,
                                                    int& delta_sigma) {
  const int old = others[arm];
  const int r = static_cast<int>(rng::bounded(w[0], w[1], arms - 1));
  const int proposal = r + (r >= old);
  // Summing over all six arms counts arm itself as (0 - 1); the + 1 removes it.
  int ds = 1;
  PORTAMC_UNROLL
  for (int k = 0; k < arms; ++k) ds += (others[k] == proposal) - (others[k] == old);
  const int dh = allowed ? (proposal == partner) - (old == partner) : 0;
  if (table.accept(dh, ds, w[2])) {
    delta_hb = dh;
    delta_sigma = ds;
    return proposal;
  }
  delta_hb = 0;
  delta_sigma = 0;
  return old;
}

namespace detail {

/// The Metropolis update of variable (cell, arm) of every cell, one cell per thread.
template <class Bytes>
struct MetropolisPass {
  FastCoordinates fast;
  Geometry g;
  Bytes sigma, cube_state;
  int arm;
  std::int64_t N, own, facing;
  std::uint64_t seed, draw_step;
  SigmaAcceptance table;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cell, BondCounts& acc) const {
    const Coordinates c = fast.cell(cell);
    int s[arms];
    PORTAMC_UNROLL
    for (int a = 0; a < arms; ++a) s[a] = sigma(a * N + cell);
    const int partner = sigma(facing + g.neighbour(c, arm));
    const bool allowed = edge_allowed(g, cube_state, c, arm);
    const rng::Block w = rng::draw(seed, rng::purpose_cvf_sigma, cell, draw_step);
    int dh, ds;
    const int updated = metropolis_variable(s, arm, partner, allowed, w, table, dh, ds);
    if (updated != s[arm]) {
      sigma(own + cell) = static_cast<std::uint8_t>(updated);
      acc += BondCounts(dh, ds);
    }
  }
};

}  // namespace detail

/// One pass on `space`: updates sigma(., arm) of every cell with draw step `draw_step` and
/// writes the summed change of {N_HB raw, N_sigma} to `delta` (a rank-0 device view),
/// asynchronously.
template <class Space, class Bytes, class DeltaView>
void metropolis_pass(const Space& space, const Geometry& g, const Bytes& sigma,
                     const Bytes& cube_state, int arm, std::uint64_t seed, std::uint64_t draw_step,
                     const SigmaAcceptance& table, const DeltaView& delta) {
  const std::int64_t N = g.cells();
  Kokkos::parallel_reduce(
      "cvf::metropolis_pass",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, N),
      detail::MetropolisPass<Bytes>{FastCoordinates(g), g, sigma, cube_state, arm, N, arm * N,
                                    opposite_arm(arm) * N, seed, draw_step, table},
      Kokkos::Sum<BondCounts, typename Space::memory_space>(delta));
}

/// A full sweep (six passes) of MC step state.step() on the state's execution space instance,
/// counters updated on the device. The step counter is not advanced (the caller composes the
/// MC step).
template <class Space>
void metropolis_sweep(State<Space>& state, const SigmaAcceptance& table, std::uint64_t seed) {
  const std::uint64_t step = state.step();
  const std::array<int, arms> order = arm_order(seed, step);
  for (int k = 0; k < arms; ++k)
    metropolis_pass(state.space(), state.geometry(), state.sigma(), state.cube_state(), order[k],
                    seed, arms * step + k, table, state.delta_slot(k));
  state.fold_deltas(0, arms);
}

}  // namespace portamc::cvf

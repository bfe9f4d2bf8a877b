#pragma once
// Update of the eta variables through the checkerboard cubes (the paper's appendix A).
//
// Each cube covers 12 edges that no other cube covers, and its state decides alone which four
// of them are forbidden, so all N/4 cubes move at once: a cube proposes one of its 8 other
// states uniformly (draw(seed, purpose_cvf_eta, cube, step), words 0, 1) and accepts with the
// integer threshold for Delta N_HB in -4..4 (word 2). Delta N_HB only involves the cube's own
// edges: the hydrogen bonds (sigma_ij == sigma_ji) on edges the old state forbade and the new
// one allows, minus the reverse. One thread per cube; the change of N_HB goes to a device slot.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/cvf/counts.hpp"
#include "portamc/cvf/detail/acceptance.hpp"
#include "portamc/cvf/detail/fast_index.hpp"
#include "portamc/cvf/state.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf {

/// The new state of a cube in `old` whose bonded edges (sigma equal, eta ignored) are the
/// 12-bit mask `bonded`; shared by the kernel and the host reference. Sets delta_hb to the
/// accepted change of N_HB (0 when rejected).
KOKKOS_FORCEINLINE_FUNCTION int eta_cube_move(int old, std::uint32_t bonded, const rng::Block& w,
                                              const EtaAcceptance& table, int& delta_hb) {
  const int r = static_cast<int>(rng::bounded(w[0], w[1], cube_states - 1));
  const int proposal = r + (r >= old);
  const int dh =
      popcount12(bonded & forbidden_mask(old)) - popcount12(bonded & forbidden_mask(proposal));
  if (table.accept(dh, w[2])) {
    delta_hb = dh;
    return proposal;
  }
  delta_hb = 0;
  return old;
}

/// The 12-bit mask of a cube's edges whose two sigma agree. Corner v = bx + 2 by + 4 bz; edge
/// 4 axis + i joins v and v + 2^axis (geometry.hpp's numbering).
template <class Bytes>
KOKKOS_INLINE_FUNCTION std::uint32_t cube_bonded_edges(const Geometry& g, const Bytes& sigma,
                                                       const Coordinates& o) {
  const std::int64_t N = g.cells();
  const int x[2] = {o.x, g.wrap(o.x + 1)};
  const int y[2] = {o.y, g.wrap(o.y + 1)};
  const int z[2] = {o.z, g.wrap(o.z + 1)};
  std::int64_t corner[8];
  PORTAMC_UNROLL
  for (int v = 0; v < 8; ++v) corner[v] = g.cell(x[v & 1], y[(v >> 1) & 1], z[v >> 2]);
  std::uint32_t bonded = 0;
  PORTAMC_UNROLL
  for (int i = 0; i < 4; ++i) {
    // The corners of edge i along each axis: the other two bits of v, in order, are i.
    const int vx = 2 * i;                     // bits (by, bz) = i, bx = 0
    const int vy = (i & 1) | ((i & 2) << 1);  // bits (bx, bz) = i, by = 0
    const int vz = i;                         // bits (bx, by) = i, bz = 0
    bonded |= std::uint32_t(sigma(0 * N + corner[vx]) == sigma(1 * N + corner[vx + 1])) << i;
    bonded |= std::uint32_t(sigma(2 * N + corner[vy]) == sigma(3 * N + corner[vy + 2])) << (4 + i);
    bonded |= std::uint32_t(sigma(4 * N + corner[vz]) == sigma(5 * N + corner[vz + 4])) << (8 + i);
  }
  return bonded;
}

namespace detail {

/// The move of every cube, one cube per thread.
template <class Bytes>
struct EtaUpdate {
  FastCoordinates fast;
  Geometry g;
  Bytes sigma, cube_state;
  std::uint64_t seed, step;
  EtaAcceptance table;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cube, BondCounts& acc) const {
    const std::uint32_t bonded = cube_bonded_edges(g, sigma, fast.cube_corner(cube));
    const int old = cube_state(cube);
    const rng::Block w = rng::draw(seed, rng::purpose_cvf_eta, cube, step);
    int dh;
    const int updated = eta_cube_move(old, bonded, w, table, dh);
    if (updated != old) {
      cube_state(cube) = static_cast<std::uint8_t>(updated);
      acc += BondCounts(dh, 0);
    }
  }
};

}  // namespace detail

/// Moves every cube on `space` with the draws of MC step `step`; the summed change of N_HB raw
/// goes to `delta` (rank-0 device view), asynchronously.
template <class Space, class Bytes, class DeltaView>
void eta_update(const Space& space, const Geometry& g, const Bytes& sigma, const Bytes& cube_state,
                std::uint64_t seed, std::uint64_t step, const EtaAcceptance& table,
                const DeltaView& delta) {
  Kokkos::parallel_reduce(
      "cvf::eta_update",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, g.cubes()),
      detail::EtaUpdate<Bytes>{FastCoordinates(g), g, sigma, cube_state, seed, step, table},
      Kokkos::Sum<BondCounts, typename Space::memory_space>(delta));
}

/// The eta update of MC step state.step() on the state's execution space instance, counters
/// updated on the device.
template <class Space>
void eta_update(State<Space>& state, const EtaAcceptance& table, std::uint64_t seed) {
  constexpr int slot = arms;  // after the six Metropolis slots
  eta_update(state.space(), state.geometry(), state.sigma(), state.cube_state(), seed, state.step(),
             table, state.delta_slot(slot));
  state.fold_deltas(slot, slot + 1);
}

}  // namespace portamc::cvf

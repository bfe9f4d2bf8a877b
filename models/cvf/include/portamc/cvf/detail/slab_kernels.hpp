#pragma once
// The CVF kernels on one rank's slab (decomposition.hpp): the same updates as metropolis.hpp,
// metropolis_packed.hpp, eta_update.hpp and counts.hpp, over the owned cells / cubes of the
// local arrays with halo planes. They share the per-variable and per-cube decisions
// (metropolis_variable, packed::update_group, eta_cube_move) and draw with the GLOBAL cell /
// pair / cube index and the global parity of z, so every decision is the one the one-rank
// kernels make: R ranks give bitwise the configuration of one rank. The one-rank kernels are
// left as they are (their instruction stream is what the one-GPU rate was tuned on); these
// differ in the z arithmetic only: no periodic wrap in z (the halos hold the neighbours), a
// local-to-global offset for the RNG entity, and local cube layers.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>

#include "portamc/cvf/counts.hpp"
#include "portamc/cvf/detail/acceptance.hpp"
#include "portamc/cvf/detail/decomposition.hpp"
#include "portamc/cvf/detail/eta_update.hpp"
#include "portamc/cvf/detail/fast_index.hpp"
#include "portamc/cvf/detail/metropolis.hpp"
#include "portamc/cvf/detail/metropolis_packed.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf::slab {

using Policy = Kokkos::IndexType<std::int64_t>;

// Named functors, not KOKKOS_LAMBDA: docs/design.md, "Kernels in headers are functors".
namespace detail {

template <class Bytes>
struct InitialSigmaKernel {
  Slab s;
  Bytes sigma;
  bool random;
  std::uint64_t seed;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cell) const {
    for (int a = 0; a < arms; ++a) {
      std::uint8_t value = 0;
      if (random) {
        const std::int64_t v = a * s.global_cells + cell + s.cell_offset;
        const rng::Block w = rng::draw(seed, rng::purpose_initial_state, v, 0);
        value = static_cast<std::uint8_t>(rng::bounded(w[0], w[1], arms));
      }
      sigma(a * s.cells + cell) = value;
    }
  }
};

template <class Bytes>
struct InitialCubesKernel {
  Slab s;
  Bytes cubes;
  bool random;
  std::uint64_t seed;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cube) const {
    std::uint8_t value = 0;
    if (random) {
      const std::int64_t e = arms * s.global_cells + cube + s.cube_offset;
      const rng::Block w = rng::draw(seed, rng::purpose_initial_state, e, 0);
      value = static_cast<std::uint8_t>(rng::bounded(w[0], w[1], cube_states));
    }
    cubes(cube) = value;
  }
};

}  // namespace detail

/// Owned sigma and cubes as State's initial configuration, on `space`: variable (global cell,
/// arm) draws entity arm N + cell, cube c entity 6 N + c, at step 0 of purpose_initial_state.
/// Halos are left alone (zero on allocation; an exchange fills them).
template <class Space, class Bytes>
void initialize(const Space& space, const Slab& s, const Bytes& sigma, const Bytes& cubes,
                bool random, std::uint64_t seed) {
  const std::int64_t begin = s.plane, end = s.plane * (s.T + 1);
  Kokkos::parallel_for("cvf::slab_initial_sigma",
                       Kokkos::RangePolicy<Space, Policy>(space, begin, end),
                       detail::InitialSigmaKernel<Bytes>{s, sigma, random, seed});
  const std::int64_t layer = s.plane / 2;
  Kokkos::parallel_for("cvf::slab_initial_cubes",
                       Kokkos::RangePolicy<Space, Policy>(space, layer, layer * (s.T / 2 + 1)),
                       detail::InitialCubesKernel<Bytes>{s, cubes, random, seed});
}

/// Local (x, y, zl) of a local cell.
KOKKOS_INLINE_FUNCTION void coordinates(const FastQuotient& by_L, std::int64_t cell, int& x, int& y,
                                        int& zl) {
  std::int64_t rx, ry;
  const std::int64_t row = by_L.divide(cell, rx);
  zl = static_cast<int>(by_L.divide(row, ry));
  x = static_cast<int>(rx);
  y = static_cast<int>(ry);
}

/// Whether the bond of local (x, y, zl) through `arm` may form (edge_allowed on the slab).
template <class CubeStates>
KOKKOS_INLINE_FUNCTION bool allowed(const Slab& s, const CubeStates& cubes, int x, int y, int zl,
                                    int arm) {
  const int axis = arm_axis(arm);
  if (arm & 1) {
    if (axis == 0) x = s.wrap(x - 1);
    if (axis == 1) y = s.wrap(y - 1);
    if (axis == 2) zl = zl - 1;
  }
  const Geometry::CubeEdge ce = s.cube_edge(x, y, zl, axis);
  return ((forbidden_mask(cubes(ce.cube)) >> ce.edge) & 1u) == 0;
}

/// The local neighbour of local (x, y, zl) through `arm` (periodic in x and y only).
KOKKOS_INLINE_FUNCTION std::int64_t neighbour(const Slab& s, int x, int y, int zl, int arm) {
  const int step = arm_step(arm);
  switch (arm_axis(arm)) {
    case 0:
      return s.cell(s.wrap(x + step), y, zl);
    case 1:
      return s.cell(x, s.wrap(y + step), zl);
    default:
      return s.cell(x, y, zl + step);
  }
}

namespace detail {

template <class Bytes>
struct MetropolisPassKernel {
  FastQuotient by_L;
  Slab s;
  Bytes sigma, cubes;
  int arm;
  std::uint64_t seed, draw_step;
  SigmaAcceptance table;
  std::int64_t N, own, facing;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cell, BondCounts& acc) const {
    int x, y, zl;
    coordinates(by_L, cell, x, y, zl);
    int v[arms];
    PORTAMC_UNROLL
    for (int a = 0; a < arms; ++a) v[a] = sigma(a * N + cell);
    const int partner = sigma(facing + neighbour(s, x, y, zl, arm));
    const bool open = allowed(s, cubes, x, y, zl, arm);
    const rng::Block w = rng::draw(seed, rng::purpose_cvf_sigma, cell + s.cell_offset, draw_step);
    int dh, ds;
    const int updated = metropolis_variable(v, arm, partner, open, w, table, dh, ds);
    if (updated != v[arm]) {
      sigma(own + cell) = static_cast<std::uint8_t>(updated);
      acc += BondCounts(dh, ds);
    }
  }
};

}  // namespace detail

/// metropolis_pass over the owned cells of a slab, on `space`.
template <class Space, class Bytes, class DeltaView>
void metropolis_pass(const Space& space, const Slab& s, const Bytes& sigma, const Bytes& cubes,
                     int arm, std::uint64_t seed, std::uint64_t draw_step,
                     const SigmaAcceptance& table, const DeltaView& delta) {
  const FastQuotient by_L(s.L);
  const std::int64_t N = s.cells;
  const std::int64_t own = arm * N;
  const std::int64_t facing = opposite_arm(arm) * N;
  Kokkos::parallel_reduce("cvf::slab_metropolis_pass",
                          Kokkos::RangePolicy<Space, Policy>(space, s.plane, s.plane * (s.T + 1)),
                          detail::MetropolisPassKernel<Bytes>{by_L, s, sigma, cubes, arm, seed,
                                                              draw_step, table, N, own, facing},
                          Kokkos::Sum<BondCounts, typename Space::memory_space>(delta));
}

/// packed::allowed_bytes on a slab: local cube rows, global parity of z (that of zl + 1).
template <int Arm, class CubeWords>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t allowed_bytes(const Slab& s, const CubeWords& cubes,
                                                        int x0, int y, int zl) {
  constexpr int axis = arm_axis(Arm);
  const int L = s.L;
  const int before = x0 == 0 ? L - 1 : x0 - 1;
  auto row = [&](int cy, int czl) {
    return static_cast<std::int64_t>(L) *
           ((cy >> 1) + static_cast<std::int64_t>(L >> 1) * ((czl + 1) >> 1));
  };
  std::uint32_t state[packed::group_cells];
  int edge[packed::group_cells];
  if constexpr (axis == 0) {
    const int bu0 = y & 1, bw0 = (zl + 1) & 1;
    const int bu1 = bu0 ^ 1, bw1 = bw0 ^ 1;
    const std::int64_t row0 = row(s.wrap(y - bu0), zl - bw0);
    const std::int64_t row1 = row(s.wrap(y - bu1), zl - bw1);
    const std::uint32_t even = cubes((row0 + x0) >> 2);
    const std::uint32_t odd = cubes((row1 + x0) >> 2);
    const int j0 = bu0 + 2 * bw0, j1 = bu1 + 2 * bw1;
    if constexpr (Arm == 0) {
      state[0] = even & 0xFFu, state[1] = (odd >> 8) & 0xFFu;
      state[2] = (even >> 16) & 0xFFu, state[3] = odd >> 24;
      edge[0] = j0, edge[1] = j1, edge[2] = j0, edge[3] = j1;
    } else {
      state[0] = cubes((row1 + before) >> 2) >> 24, state[1] = even & 0xFFu;
      state[2] = (odd >> 8) & 0xFFu, state[3] = (even >> 16) & 0xFFu;
      edge[0] = j1, edge[1] = j0, edge[2] = j1, edge[3] = j0;
    }
  } else {
    // Local coordinate and global parity of the edge's position along `axis` and of the other
    // non-x coordinate.
    int along, along_parity, other_parity;
    if constexpr (axis == 1) {
      along = (Arm & 1) ? s.wrap(y - 1) : y;
      along_parity = along;
      other_parity = zl + 1;
    } else {
      along = (Arm & 1) ? zl - 1 : zl;
      along_parity = along + 1;
      other_parity = y;
    }
    const int bw = (other_parity - along_parity) & 1;
    const std::int64_t start = axis == 1 ? row(along, zl - bw) : row(s.wrap(y - bw), along);
    const int p = along_parity & 1;
    const std::uint64_t before_state = p ? cubes((start + before) >> 2) >> 24 : std::uint32_t{0};
    const std::uint64_t states = (std::uint64_t{cubes((start + x0) >> 2)} << 8) | before_state;
    PORTAMC_UNROLL
    for (int i = 0; i < packed::group_cells; ++i) {
      const int bu = (i + p) & 1;
      state[i] = static_cast<std::uint32_t>(states >> (8 * (i + 1 - bu))) & 0xFFu;
      edge[i] = bu + 2 * bw;
    }
  }
  std::uint32_t mask = 0;
  PORTAMC_UNROLL
  for (int i = 0; i < packed::group_cells; ++i)
    mask |= packed::edge_open<axis>(state[i], edge[i]) << (8 * i);
  return mask;
}

/// packed::partner_word on a slab (no wrap in z: the halo planes are the neighbours).
template <int Arm, class Words>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t partner_word(const Slab& s, const Words& sigma,
                                                       const std::uint32_t (&w)[arms], int x0,
                                                       int y, std::int64_t group,
                                                       std::int64_t facing) {
  const std::int64_t row_groups = s.L / packed::group_cells;
  if constexpr (Arm == 0) {
    const std::int64_t next = x0 + packed::group_cells == s.L ? group + 1 - row_groups : group + 1;
    return (w[1] >> 8) | (sigma(facing + next) << 24);
  } else if constexpr (Arm == 1) {
    const std::int64_t previous = x0 == 0 ? group - 1 + row_groups : group - 1;
    return (w[0] << 8) | (sigma(facing + previous) >> 24);
  } else if constexpr (arm_axis(Arm) == 1) {
    std::int64_t neighbour;
    if constexpr (Arm & 1)
      neighbour = y == 0 ? group + (s.L - 1) * row_groups : group - row_groups;
    else
      neighbour = y == s.L - 1 ? group - (s.L - 1) * row_groups : group + row_groups;
    return sigma(facing + neighbour);
  } else {
    const std::int64_t stride = row_groups * s.L;
    return sigma(facing + ((Arm & 1) ? group - stride : group + stride));
  }
}

namespace detail {

template <int Arm, class Words>
struct PackedPassKernel {
  FastQuotient by_L;
  Slab s;
  Words sigma, cubes;
  std::uint64_t seed, draw_step;
  SigmaAcceptance table;
  std::int64_t groups, own, facing, group_offset;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t group, BondCounts& acc) const {
    int x0, y, zl;
    coordinates(by_L, packed::group_cells * group, x0, y, zl);
    std::uint32_t w[arms];
    PORTAMC_UNROLL
    for (int a = 0; a < arms; ++a) w[a] = sigma(a * groups + group);
    const std::uint32_t partner = partner_word<Arm>(s, sigma, w, x0, y, group, facing);
    const std::uint32_t open = allowed_bytes<Arm>(s, cubes, x0, y, zl);
    const std::uint64_t pair = 2 * (group + group_offset);
    const rng::Block pair0 = rng::draw(seed, rng::purpose_cvf_sigma, pair, draw_step);
    const rng::Block pair1 = rng::draw(seed, rng::purpose_cvf_sigma, pair + 1, draw_step);
    int dh, ds;
    const std::uint32_t updated =
        packed::update_group<Arm>(w, partner, open, pair0, pair1, table, dh, ds);
    if (updated != w[Arm]) {
      sigma(own + group) = updated;
      acc += BondCounts(dh, ds);
    }
  }
};

}  // namespace detail

template <int Arm, class Space, class Words, class DeltaView>
void packed_pass(const Space& space, const Slab& s, const Words& sigma, const Words& cubes,
                 std::uint64_t seed, std::uint64_t draw_step, const SigmaAcceptance& table,
                 const DeltaView& delta) {
  const FastQuotient by_L(s.L);
  const std::int64_t groups = s.cells / packed::group_cells;  // words per local arm
  const std::int64_t own = Arm * groups;
  const std::int64_t facing = opposite_arm(Arm) * groups;
  const std::int64_t group_offset = s.cell_offset / packed::group_cells;
  const std::int64_t plane_groups = s.plane / packed::group_cells;
  Kokkos::parallel_reduce(
      "cvf::slab_metropolis_pass_packed",
      Kokkos::RangePolicy<Space, Policy>(space, plane_groups, plane_groups * (s.T + 1)),
      detail::PackedPassKernel<Arm, Words>{by_L, s, sigma, cubes, seed, draw_step, table, groups,
                                           own, facing, group_offset},
      Kokkos::Sum<BondCounts, typename Space::memory_space>(delta));
}

/// metropolis_pass_packed over the owned groups of a slab (contiguous, aligned local arrays), on
/// `space`.
template <class Space, class Bytes, class DeltaView>
void metropolis_pass_packed(const Space& space, const Slab& s, const Bytes& sigma,
                            const Bytes& cubes, int arm, std::uint64_t seed,
                            std::uint64_t draw_step, const SigmaAcceptance& table,
                            const DeltaView& delta) {
  using Words = Kokkos::View<std::uint32_t*, typename Space::memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const Words words(reinterpret_cast<std::uint32_t*>(sigma.data()),
                    sigma.extent(0) / packed::group_cells);
  const Words cube_words(reinterpret_cast<std::uint32_t*>(cubes.data()),
                         cubes.extent(0) / packed::group_cells);
  switch (arm) {
    case 0:
      return packed_pass<0>(space, s, words, cube_words, seed, draw_step, table, delta);
    case 1:
      return packed_pass<1>(space, s, words, cube_words, seed, draw_step, table, delta);
    case 2:
      return packed_pass<2>(space, s, words, cube_words, seed, draw_step, table, delta);
    case 3:
      return packed_pass<3>(space, s, words, cube_words, seed, draw_step, table, delta);
    case 4:
      return packed_pass<4>(space, s, words, cube_words, seed, draw_step, table, delta);
    default:
      return packed_pass<5>(space, s, words, cube_words, seed, draw_step, table, delta);
  }
}

namespace detail {

template <class Bytes>
struct EtaUpdateKernel {
  FastQuotient by_L, by_half_L;
  Slab s;
  Bytes sigma, cubes;
  std::uint64_t seed, step;
  EtaAcceptance table;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cube, BondCounts& acc) const {
    std::int64_t x, j;
    const std::int64_t row = by_L.divide(cube, x);
    const int kl = static_cast<int>(by_half_L.divide(row, j));
    const int p = static_cast<int>(x & 1);
    const int y0 = 2 * static_cast<int>(j) + p;
    const int z0 = 2 * kl - 1 + p;  // local plane of the lower corner
    const int xs[2] = {static_cast<int>(x), s.wrap(static_cast<int>(x) + 1)};
    const int ys[2] = {y0, s.wrap(y0 + 1)};
    std::int64_t corner[8];
    PORTAMC_UNROLL
    for (int v = 0; v < 8; ++v) corner[v] = s.cell(xs[v & 1], ys[(v >> 1) & 1], z0 + (v >> 2));
    const std::int64_t N = s.cells;
    std::uint32_t bonded = 0;
    PORTAMC_UNROLL
    for (int i = 0; i < 4; ++i) {
      const int vx = 2 * i;
      const int vy = (i & 1) | ((i & 2) << 1);
      const int vz = i;
      bonded |= std::uint32_t(sigma(0 * N + corner[vx]) == sigma(1 * N + corner[vx + 1])) << i;
      bonded |= std::uint32_t(sigma(2 * N + corner[vy]) == sigma(3 * N + corner[vy + 2]))
                << (4 + i);
      bonded |= std::uint32_t(sigma(4 * N + corner[vz]) == sigma(5 * N + corner[vz + 4]))
                << (8 + i);
    }
    const int old = cubes(cube);
    const rng::Block w = rng::draw(seed, rng::purpose_cvf_eta, cube + s.cube_offset, step);
    int dh;
    const int updated = eta_cube_move(old, bonded, w, table, dh);
    if (updated != old) {
      cubes(cube) = static_cast<std::uint8_t>(updated);
      acc += BondCounts(dh, 0);
    }
  }
};

}  // namespace detail

/// eta_update over the owned cubes of a slab, on `space`.
template <class Space, class Bytes, class DeltaView>
void eta_update(const Space& space, const Slab& s, const Bytes& sigma, const Bytes& cubes,
                std::uint64_t seed, std::uint64_t step, const EtaAcceptance& table,
                const DeltaView& delta) {
  const FastQuotient by_L(s.L);
  const FastQuotient by_half_L(s.L / 2);
  const std::int64_t layer = s.plane / 2;
  Kokkos::parallel_reduce(
      "cvf::slab_eta_update",
      Kokkos::RangePolicy<Space, Policy>(space, layer, layer * (s.T / 2 + 1)),
      detail::EtaUpdateKernel<Bytes>{by_L, by_half_L, s, sigma, cubes, seed, step, table},
      Kokkos::Sum<BondCounts, typename Space::memory_space>(delta));
}

namespace detail {

template <class Bytes>
struct CountBondsKernel {
  FastQuotient by_L;
  Slab s;
  Bytes sigma, cubes;
  std::int64_t N;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cell, BondCounts& acc) const {
    int x, y, zl;
    coordinates(by_L, cell, x, y, zl);
    int v[arms];
    for (int a = 0; a < arms; ++a) v[a] = sigma(a * N + cell);
    std::int64_t pairs = 0;
    for (int a = 0; a < arms; ++a)
      for (int b = a + 1; b < arms; ++b) pairs += v[a] == v[b];
    std::int64_t bonds = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const int arm = 2 * axis;
      if (v[arm] == sigma((arm + 1) * N + neighbour(s, x, y, zl, arm)) &&
          allowed(s, cubes, x, y, zl, arm))
        ++bonds;
    }
    acc += BondCounts(bonds, pairs);
  }
};

template <class Bytes>
struct SigmaHistogramKernel {
  Bytes sigma;
  std::int64_t N;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cell, SigmaHistogram& acc) const {
    for (int a = 0; a < arms; ++a) {
      const int v = sigma(a * N + cell);
      for (int q = 0; q < arms; ++q) acc.count[q] += v == q;
    }
  }
};

}  // namespace detail

/// count_bonds over the owned cells, on `space`: each counts its pairs and its three + edges,
/// so every edge of the lattice is counted by exactly one rank.
template <class Space, class Bytes>
BondCounts count_bonds(const Space& space, const Slab& s, const Bytes& sigma, const Bytes& cubes) {
  const FastQuotient by_L(s.L);
  const std::int64_t N = s.cells;
  BondCounts total;
  Kokkos::parallel_reduce("cvf::slab_count_bonds",
                          Kokkos::RangePolicy<Space, Policy>(space, s.plane, s.plane * (s.T + 1)),
                          detail::CountBondsKernel<Bytes>{by_L, s, sigma, cubes, N},
                          Kokkos::Sum<BondCounts>(total));
  return total;
}

/// Histogram of the owned sigma, counted on `space`.
template <class Space, class Bytes>
std::array<std::int64_t, arms> sigma_histogram(const Space& space, const Slab& s,
                                               const Bytes& sigma) {
  const std::int64_t N = s.cells;
  SigmaHistogram total;
  Kokkos::parallel_reduce("cvf::slab_sigma_histogram",
                          Kokkos::RangePolicy<Space, Policy>(space, s.plane, s.plane * (s.T + 1)),
                          detail::SigmaHistogramKernel<Bytes>{sigma, N},
                          Kokkos::Sum<SigmaHistogram>(total));
  std::array<std::int64_t, arms> out{};
  for (int q = 0; q < arms; ++q) out[q] = total.count[q];
  return out;
}

}  // namespace portamc::cvf::slab

#pragma once
// The Metropolis sigma pass with four cells per thread ("packed"), an alternative to the
// one-cell-per-thread pass of metropolis.hpp ("per_cell") with the same physics.
//
// Why: the per-cell pass is bound by instruction issue, not memory (13 % of the copy bandwidth
// on an H200): per variable one Philox4x32-10 block, seven byte loads, coordinates, the eta
// lookup and a reduction. Here a thread owns the group of the four cells 4 g .. 4 g + 3 (one
// row segment along x: L is a multiple of 4) and
//   - loads each arm array as one aligned 32-bit word (N = L^3 is a multiple of 64, so every
//     arm array and every group starts on a word), byte k of the word being cell 4 g + k;
//   - gets the four partners (the neighbours' facing arm) as one word: the word of the shifted
//     row for +-y/+-z; for +-x the facing word it already holds shifted by one byte, plus one
//     byte of the next/previous word of the same row (periodic in x);
//   - reads the four cube states that decide eta from one or two aligned words of the cube
//     array (plus one byte at the row seam) and looks the edges up in a 36-bit constant;
//   - compares the four proposals with all arms at once, byte-wise in registers (SWAR);
//   - draws one Philox block per TWO cells: cells 2 j and 2 j + 1 use the words (0, 1) and
//     (2, 3) of draw(seed, purpose_cvf_sigma, j, draw_step), the first of each pair for the
//     proposal, the second for the acceptance (a pure function of (seed, cell, step), as the
//     per-cell keying, never of thread or backend);
//   - computes the coordinates once per group, writes its own arm word back only if something
//     changed, and contributes once to the reduction of {N_HB, N_sigma}.
//
// Proposal: one of the five other states from one word by Lemire's multiply-shift,
// r = (w * 5) >> 32, proposal = r + (r >= old). Because 2^32 = 5 * 858993459 + 1, four values
// of r have 858993459 preimages and one has 858993460: each proposal probability is within
// 2^-32 of 1/5 (relative bias <= 5 * 2^-32 ~ 1.2e-9), far below any statistical resolution;
// the per-cell pass uses 64 bits (bias 5 * 2^-64) at the cost of one more word per variable.
//
// The two kernels draw different random numbers, so they give different (equally valid)
// chains; each is bitwise identical on every backend, and each has a plain C++ reference in
// the tests.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "portamc/cvf/counts.hpp"
#include "portamc/cvf/detail/acceptance.hpp"
#include "portamc/cvf/detail/fast_index.hpp"
#include "portamc/cvf/detail/metropolis.hpp"
#include "portamc/cvf/state.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"

// Byte k of a loaded word must be the variable at byte address 4 g + k.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the packed CVF Metropolis pass assumes little-endian 32-bit words"
#endif

namespace portamc::cvf {

/// Which Metropolis pass a sweep runs: one cell per thread, or four (this file).
enum class MetropolisKernel { per_cell, packed };

/// The names of names.hpp's table: "per_cell" or "packed".
const char* to_string(MetropolisKernel kernel);
/// std::invalid_argument naming the accepted names for any other.
MetropolisKernel metropolis_kernel_from_string(const std::string& name);

namespace packed {

inline constexpr int group_cells = 4;
inline constexpr std::uint32_t low_bits = 0x01010101u;

/// 0x01 in each byte where a and b hold the same value; byte values must be below 128. With
/// the top bit of every byte set first, subtracting 1 per byte never borrows across bytes and
/// leaves the top bit clear exactly where the byte was 0 (four instructions on a GPU).
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t equal_bytes(std::uint32_t a, std::uint32_t b) {
  const std::uint32_t r = ((a ^ b) | 0x80808080u) - low_bits;
  return (~r >> 7) & low_bits;
}

/// Sum of the four bytes of a word whose bytes add up to less than 256.
KOKKOS_FORCEINLINE_FUNCTION int byte_sum(std::uint32_t x) {
  return static_cast<int>((x * low_bits) >> 24);
}

/// One of the five states other than `old` from one random word (Lemire; bias in the header).
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t propose(std::uint32_t word, std::uint32_t old) {
  const std::uint32_t r = static_cast<std::uint32_t>((std::uint64_t{word} * 5u) >> 32);
  return r + (r >= old);
}

/// The Metropolis update of the four variables sigma(4 g + i, Arm), i = 0..3, of one group.
/// `w` holds the group's six arm words, `partner` the facing variables of the four neighbours,
/// `allowed` 0x01 in byte i when cell i's edge through Arm may bond. Returns the new arm word
/// and the summed accepted change of {N_HB raw, N_sigma}.
template <int Arm>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t update_group(const std::uint32_t (&w)[arms],
                                                       std::uint32_t partner, std::uint32_t allowed,
                                                       const rng::Block& pair0,
                                                       const rng::Block& pair1,
                                                       const SigmaAcceptance& table, int& delta_hb,
                                                       int& delta_sigma) {
  const std::uint32_t old = w[Arm];
  std::uint32_t proposal = 0;
  proposal |= propose(pair0[0], old & 0xFFu);
  proposal |= propose(pair0[2], (old >> 8) & 0xFFu) << 8;
  proposal |= propose(pair1[0], (old >> 16) & 0xFFu) << 16;
  proposal |= propose(pair1[2], old >> 24) << 24;
  // Equal partners among the five other arms, per byte (at most 5), before and after.
  std::uint32_t same_new = 0, same_old = 0;
  PORTAMC_UNROLL
  for (int k = 0; k < arms; ++k) {
    if (k == Arm) continue;
    same_new += equal_bytes(w[k], proposal);
    same_old += equal_bytes(w[k], old);
  }
  const std::uint32_t bond_new = equal_bytes(partner, proposal) & allowed;
  const std::uint32_t bond_old = equal_bytes(partner, old) & allowed;
  // Per byte the table index (dh + 1) * 11 + ds + 5 = 11 dh + ds + 16 with dh = bond_new -
  // bond_old, ds = same_new - same_old: 11 bond_new + same_new + 16 <= 32 fits a byte and is
  // >= 16 >= 11 bond_old + same_old, so the word subtraction never borrows across bytes.
  static_assert(SigmaAcceptance::hb_range == 1 && SigmaAcceptance::sigma_range == 5,
                "the byte-wise table index assumes the 3 x 11 sigma table");
  constexpr std::uint32_t values = SigmaAcceptance::sigma_values;
  constexpr std::uint32_t offset =
      values * SigmaAcceptance::hb_range + SigmaAcceptance::sigma_range;
  const std::uint32_t index =
      (values * bond_new + same_new + offset * low_bits) - (values * bond_old + same_old);
  std::uint32_t accepted = 0;
  const std::uint32_t acceptance[group_cells] = {pair0[1], pair0[3], pair1[1], pair1[3]};
  PORTAMC_UNROLL
  for (int i = 0; i < group_cells; ++i) {
    const std::uint32_t entry = (index >> (8 * i)) & 0xFFu;
    // The same comparison as SigmaAcceptance::accept, with the index computed above.
    if (acceptance[i] < table.threshold[entry]) accepted |= 0xFFu << (8 * i);
  }
  delta_hb = byte_sum(bond_new & accepted) - byte_sum(bond_old & accepted);
  delta_sigma = byte_sum(same_new & accepted) - byte_sum(same_old & accepted);
  return (old & ~accepted) | (proposal & accepted);
}

/// The forbidden-edge bits of the four cube edges 4 axis + j, j = 0..3: bit 9 j + s says whether
/// cube state s forbids edge 4 axis + j (36 bits, so one shift of a constant answers a lookup).
constexpr std::uint64_t axis_forbidden(int axis) {
  std::uint64_t bits = 0;
  for (int j = 0; j < 4; ++j)
    for (int s = 0; s < cube_states; ++s)
      bits |= std::uint64_t{(detail::packed_matchings[s] >> (4 * axis + j)) & 1u} << (9 * j + s);
  return bits;
}
template <int Axis>
inline constexpr std::uint64_t axis_forbidden_bits = axis_forbidden(Axis);

/// 1 when cube state `state` allows edge 4 Axis + j.
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t edge_open(std::uint32_t state, int j) {
  return static_cast<std::uint32_t>(~(axis_forbidden_bits<Axis> >> (9 * j + state)) & 1u);
}

/// 0x01 in byte i when the edge of cell (c0.x + i, c0.y, c0.z) through Arm may bond (the same
/// answer as edge_allowed(), which the tests' reference uses). The cubes of the four edges lie
/// in at most two rows of the cube array, at x positions x0 - 1 .. x0 + 3, so one or two aligned
/// words (cube = x + L (j + L/2 k): rows start on words) and at most one byte before them hold
/// their states, and the edge's number inside its cube only depends on the parity of x.
template <int Arm, class CubeWords>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t allowed_bytes(const Geometry& g, const CubeWords& cubes,
                                                        const Coordinates& c0) {
  constexpr int axis = arm_axis(Arm);
  const int L = g.size();
  const int x0 = c0.x;
  const int before = x0 == 0 ? L - 1 : x0 - 1;  // the x just before the group, periodic
  // Start of the cube row holding corners (., cy, cz): cube_of_corner without the x. Shifts,
  // not divisions: every value is non-negative, which the compiler cannot know.
  auto row = [&](int cy, int cz) {
    return static_cast<std::int64_t>(L) *
           ((cy >> 1) + static_cast<std::int64_t>(L >> 1) * (cz >> 1));
  };
  std::uint32_t state[group_cells];
  int edge[group_cells];
  if constexpr (axis == 0) {
    // The edge starts at x' = x0 + i (- 1 for -x); its cube's corner steps back along y and z
    // where their parity differs from x', so the cube row and the edge depend on x' & 1 only.
    const int bu0 = c0.y & 1, bw0 = c0.z & 1;  // x' even
    const int bu1 = bu0 ^ 1, bw1 = bw0 ^ 1;    // x' odd
    const std::int64_t row0 = row(g.wrap(c0.y - bu0), g.wrap(c0.z - bw0));
    const std::int64_t row1 = row(g.wrap(c0.y - bu1), g.wrap(c0.z - bw1));
    const std::uint32_t even = cubes((row0 + x0) >> 2);
    const std::uint32_t odd = cubes((row1 + x0) >> 2);
    const int j0 = bu0 + 2 * bw0, j1 = bu1 + 2 * bw1;
    if constexpr (Arm == 0) {  // x' = x0, x0 + 1, x0 + 2, x0 + 3
      state[0] = even & 0xFFu, state[1] = (odd >> 8) & 0xFFu;
      state[2] = (even >> 16) & 0xFFu, state[3] = odd >> 24;
      edge[0] = j0, edge[1] = j1, edge[2] = j0, edge[3] = j1;
    } else {  // x' = x0 - 1, x0, x0 + 1, x0 + 2
      state[0] = cubes((row1 + before) >> 2) >> 24, state[1] = even & 0xFFu;
      state[2] = (odd >> 8) & 0xFFu, state[3] = (even >> 16) & 0xFFu;
      edge[0] = j1, edge[1] = j0, edge[2] = j1, edge[3] = j0;
    }
  } else {
    // One cube row (fixed by the edge's y or z and the other coordinate); the corner's x is
    // x0 + i - bu with bu = (i + along) & 1: x0, x0, x0 + 2, x0 + 2 or x0 - 1, x0 + 1, x0 + 1,
    // x0 + 3, read from the 40-bit value (word << 8 | byte before).
    constexpr int other = axis == 1 ? 2 : 1;
    const int c[3] = {c0.x, c0.y, c0.z};
    const int along = (Arm & 1) ? g.wrap(c[axis] - 1) : c[axis];
    const int bw = (c[other] - along) & 1;
    const int corner_other = g.wrap(c[other] - bw);
    const std::int64_t start = axis == 1 ? row(along, corner_other) : row(corner_other, along);
    const int p = along & 1;
    const std::uint64_t before_state = p ? cubes((start + before) >> 2) >> 24 : std::uint32_t{0};
    const std::uint64_t states = (std::uint64_t{cubes((start + x0) >> 2)} << 8) | before_state;
    PORTAMC_UNROLL
    for (int i = 0; i < group_cells; ++i) {
      const int bu = (i + p) & 1;
      state[i] = static_cast<std::uint32_t>(states >> (8 * (i + 1 - bu))) & 0xFFu;
      edge[i] = bu + 2 * bw;
    }
  }
  std::uint32_t mask = 0;
  PORTAMC_UNROLL
  for (int i = 0; i < group_cells; ++i) mask |= edge_open<axis>(state[i], edge[i]) << (8 * i);
  return mask;
}

/// The facing variables of the four neighbours of group `group` through Arm, as one word;
/// `facing` is the start of the facing arm's words. (A function, not inline in the kernel:
/// nvcc does not let an extended lambda capture inside `if constexpr`.)
template <int Arm, class Words>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t partner_word(const Geometry& g, const Words& sigma,
                                                       const std::uint32_t (&w)[arms],
                                                       const Coordinates& c0, std::int64_t group,
                                                       std::int64_t facing) {
  const std::int64_t row_groups = g.size() / group_cells;
  if constexpr (Arm == 0) {
    // Partners at x + 1: bytes 1..3 of the facing word, byte 0 of the next word (periodic in x).
    const std::int64_t next = c0.x + group_cells == g.size() ? group + 1 - row_groups : group + 1;
    return (w[1] >> 8) | (sigma(facing + next) << 24);
  } else if constexpr (Arm == 1) {
    // Partners at x - 1: byte 3 of the previous word, bytes 0..2 of the facing word.
    const std::int64_t previous = c0.x == 0 ? group - 1 + row_groups : group - 1;
    return (w[0] << 8) | (sigma(facing + previous) >> 24);
  } else {
    // +-y, +-z: the same x range in the neighbouring row, L / 4 (y) or L^2 / 4 (z) words away.
    constexpr int axis = arm_axis(Arm);
    const int L = g.size();
    const std::int64_t stride = axis == 1 ? row_groups : row_groups * L;
    const int coordinate = axis == 1 ? c0.y : c0.z;
    std::int64_t neighbour;
    if constexpr (Arm & 1)
      neighbour = coordinate == 0 ? group + (L - 1) * stride : group - stride;
    else
      neighbour = coordinate == L - 1 ? group - (L - 1) * stride : group + stride;
    return sigma(facing + neighbour);
  }
}

/// The update of one arm's four-cell groups, one group per thread.
template <int Arm, class Words>
struct PackedPass {
  FastCoordinates fast;
  Geometry g;
  Words sigma, cube_state;
  std::int64_t groups, own, facing;
  std::uint64_t seed, draw_step;
  SigmaAcceptance table;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t group, BondCounts& acc) const {
    const Coordinates c0 = fast.cell(group_cells * group);
    std::uint32_t w[arms];
    PORTAMC_UNROLL
    for (int a = 0; a < arms; ++a) w[a] = sigma(a * groups + group);
    const std::uint32_t partner = partner_word<Arm>(g, sigma, w, c0, group, facing);
    const std::uint32_t allowed = allowed_bytes<Arm>(g, cube_state, c0);
    const std::uint64_t pair = 2 * group;  // cell pair index of cells 4 g, 4 g + 1
    const rng::Block pair0 = rng::draw(seed, rng::purpose_cvf_sigma, pair, draw_step);
    const rng::Block pair1 = rng::draw(seed, rng::purpose_cvf_sigma, pair + 1, draw_step);
    int dh, ds;
    const std::uint32_t updated =
        update_group<Arm>(w, partner, allowed, pair0, pair1, table, dh, ds);
    if (updated != w[Arm]) {
      sigma(own + group) = updated;
      acc += BondCounts(dh, ds);
    }
  }
};

/// The pass of one arm on `space`; `sigma` (N / 4 per arm) and `cube_state` are the byte arrays
/// seen as words.
template <int Arm, class Space, class Words, class DeltaView>
void pass(const Space& space, const Geometry& g, const Words& sigma, const Words& cube_state,
          std::uint64_t seed, std::uint64_t draw_step, const SigmaAcceptance& table,
          const DeltaView& delta) {
  const std::int64_t groups = g.cells() / group_cells;  // words per arm
  Kokkos::parallel_reduce(
      "cvf::metropolis_pass_packed",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, groups),
      PackedPass<Arm, Words>{FastCoordinates(g), g, sigma, cube_state, groups, Arm * groups,
                             opposite_arm(Arm) * groups, seed, draw_step, table},
      Kokkos::Sum<BondCounts, typename Space::memory_space>(delta));
}

}  // namespace packed

/// One packed pass on `space`: updates sigma(., arm) of every cell with draw step `draw_step`
/// and writes the summed change of {N_HB raw, N_sigma} to `delta` (a rank-0 device view),
/// asynchronously. `sigma` must be contiguous and 4-byte aligned (every Kokkos allocation is);
/// throws std::invalid_argument otherwise.
template <class Space, class Bytes, class CubeStates, class DeltaView>
void metropolis_pass_packed(const Space& space, const Geometry& g, const Bytes& sigma,
                            const CubeStates& cube_state, int arm, std::uint64_t seed,
                            std::uint64_t draw_step, const SigmaAcceptance& table,
                            const DeltaView& delta) {
  using Words = Kokkos::View<std::uint32_t*, typename Space::memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  if (reinterpret_cast<std::uintptr_t>(sigma.data()) % sizeof(std::uint32_t) != 0 ||
      !sigma.span_is_contiguous() || static_cast<std::int64_t>(sigma.extent(0)) != g.variables())
    throw std::invalid_argument(
        "the packed CVF Metropolis pass needs a contiguous, 4-byte aligned sigma of 6 N bytes");
  if (reinterpret_cast<std::uintptr_t>(cube_state.data()) % sizeof(std::uint32_t) != 0 ||
      !cube_state.span_is_contiguous() ||
      static_cast<std::int64_t>(cube_state.extent(0)) != g.cubes())
    throw std::invalid_argument(
        "the packed CVF Metropolis pass needs contiguous, 4-byte aligned cube states of N/4 bytes");
  const Words words(reinterpret_cast<std::uint32_t*>(sigma.data()),
                    g.variables() / packed::group_cells);
  const Words cubes(reinterpret_cast<std::uint32_t*>(cube_state.data()),
                    g.cubes() / packed::group_cells);
  switch (arm) {
    case 0:
      return packed::pass<0>(space, g, words, cubes, seed, draw_step, table, delta);
    case 1:
      return packed::pass<1>(space, g, words, cubes, seed, draw_step, table, delta);
    case 2:
      return packed::pass<2>(space, g, words, cubes, seed, draw_step, table, delta);
    case 3:
      return packed::pass<3>(space, g, words, cubes, seed, draw_step, table, delta);
    case 4:
      return packed::pass<4>(space, g, words, cubes, seed, draw_step, table, delta);
    case 5:
      return packed::pass<5>(space, g, words, cubes, seed, draw_step, table, delta);
    default:
      throw std::invalid_argument("CVF arm must be in 0..5, got " + std::to_string(arm));
  }
}

/// A full sweep (six passes in the order of arm_order()) with the chosen kernel on the state's
/// execution space instance, counters updated on the device; the step counter is not advanced.
template <class Space>
void metropolis_sweep(State<Space>& state, const SigmaAcceptance& table, std::uint64_t seed,
                      MetropolisKernel kernel) {
  if (kernel == MetropolisKernel::per_cell) return metropolis_sweep(state, table, seed);
  const std::uint64_t step = state.step();
  const std::array<int, arms> order = arm_order(seed, step);
  for (int k = 0; k < arms; ++k)
    metropolis_pass_packed(state.space(), state.geometry(), state.sigma(), state.cube_state(),
                           order[k], seed, arms * step + k, table, state.delta_slot(k));
  state.fold_deltas(0, arms);
}

}  // namespace portamc::cvf

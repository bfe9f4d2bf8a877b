#pragma once
// Swendsen-Wang bond placement of the CVF model: step 1 of swendsen_wang.hpp.
//
// One 32-bit word per cell holds the cell's 18 fictitious bonds:
//   bit axis (0..2)     covalent bond on the edge (cell, +axis), between the variables
//                       (2 axis) N + cell and (2 axis + 1) N + neighbour(cell, +axis);
//   bit 3 + p (p 0..14) cooperative bond between arms (k, l), k < l, p counting the pairs in
//                       the order (0,1), (0,2), ..., (0,5), (1,2), ..., (4,5) (the paper's
//                       con_idx - 3).
// Bond j of a cell is decided by the 32-bit word j % 4 of the Philox block
// draw(seed, purpose_cvf_bonds, 8 cell + j / 4, step) (five blocks, 0..4, per cell; the
// entity 8 cell + block leaves room for more bonds without renumbering) and placed when that
// word is below an integer threshold floor(p 2^32) computed once on the host, so the bonds are
// a pure function of (seed, step, sigma, cube states): bitwise identical on every backend.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/cvf/geometry.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf {

inline constexpr int covalent_bonds_per_cell = 3;
inline constexpr int cooperative_pairs = 15;
inline constexpr int bonds_per_cell = covalent_bonds_per_cell + cooperative_pairs;
inline constexpr int bond_blocks_per_cell = (bonds_per_cell + 3) / 4;  ///< Philox blocks
inline constexpr std::uint64_t bond_entities_per_cell = 8;             ///< entity stride

/// The arms (k, l), k < l, of cooperative pair p in 0..14.
KOKKOS_INLINE_FUNCTION constexpr int cooperative_first(int p) {
  return p < 5 ? 0 : p < 9 ? 1 : p < 12 ? 2 : p < 14 ? 3 : 4;
}
KOKKOS_INLINE_FUNCTION constexpr int cooperative_second(int p) {
  // Pairs before row k: 5 + 4 + ... = k (11 - k) / 2.
  return cooperative_first(p) + 1 + p - cooperative_first(p) * (11 - cooperative_first(p)) / 2;
}
KOKKOS_INLINE_FUNCTION constexpr int cooperative_bit(int p) {
  return covalent_bonds_per_cell + p;
}

/// Bond probabilities as integer thresholds: a bond is placed when its random word is below
/// the threshold (2^32 = always, 0 = never).
struct BondThresholds {
  std::uint64_t covalent = 0;     ///< floor((1 - exp(-|J_eff| / t)) 2^32)
  bool covalent_unequal = false;  ///< J_eff < 0: bond unequal pairs (antiferro), else equal
  std::uint64_t cooperative = 0;  ///< floor((1 - exp(-J_sigma / t)) 2^32)
};

/// Thresholds for reduced couplings J_eff (either sign; the caller passes 0 for a gas-like
/// system), J_sigma >= 0 and temperature t > 0. Throws std::invalid_argument otherwise.
BondThresholds bond_thresholds(double J_eff, double J_sigma, double t);

namespace detail {

/// The bond word of every cell, one cell per thread.
template <class SigmaView, class CubeView, class BondView>
struct PlaceBonds {
  Geometry g;
  SigmaView sigma;
  CubeView cube_state;
  BondThresholds th;
  std::uint64_t seed, step;
  BondView bonds;
  std::int64_t N;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t cell) const {
    std::uint32_t words[4 * bond_blocks_per_cell];
    PORTAMC_UNROLL
    for (int block = 0; block < bond_blocks_per_cell; ++block) {
      const rng::Block b =
          rng::draw(seed, rng::purpose_cvf_bonds,
                    static_cast<std::uint64_t>(cell) * bond_entities_per_cell + block, step);
      for (int w = 0; w < 4; ++w) words[4 * block + w] = b[w];
    }
    std::uint8_t s[arms];
    PORTAMC_UNROLL
    for (int arm = 0; arm < arms; ++arm) s[arm] = sigma(arm * N + cell);

    std::uint32_t bits = 0;
    const Coordinates c = g.coordinates(cell);
    PORTAMC_UNROLL
    for (int axis = 0; axis < 3; ++axis) {
      const int arm = 2 * axis;
      const std::uint8_t partner = sigma((arm + 1) * N + g.neighbour(c, arm));
      const bool equal = s[arm] == partner;
      if (equal != th.covalent_unequal && words[axis] < th.covalent &&
          g.allowed(cube_state, c, arm)) {
        bits |= std::uint32_t{1} << axis;
      }
    }
    PORTAMC_UNROLL
    for (int p = 0; p < cooperative_pairs; ++p) {
      const int bit = cooperative_bit(p);
      if (s[cooperative_first(p)] == s[cooperative_second(p)] && words[bit] < th.cooperative) {
        bits |= std::uint32_t{1} << bit;
      }
    }
    bonds(cell) = bits;
  }
};

}  // namespace detail

/// Places the fictitious bonds of every cell into `bonds` (N words), on `space`. `sigma` has
/// 6 N entries in 0..5 (arm-major), `cube_state` N / 4 entries in 0..8.
template <class Space, class SigmaView, class CubeView, class BondView>
void place_bonds(const Space& space, const Geometry& geometry, const SigmaView& sigma,
                 const CubeView& cube_state, const BondThresholds& thresholds, std::uint64_t seed,
                 std::uint64_t step, const BondView& bonds) {
  const std::int64_t N = geometry.cells();
  Kokkos::parallel_for("cvf::place_bonds",
                       Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, N),
                       detail::PlaceBonds<SigmaView, CubeView, BondView>{
                           geometry, sigma, cube_state, thresholds, seed, step, bonds, N});
}

}  // namespace portamc::cvf

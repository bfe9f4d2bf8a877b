#pragma once
// The elementary moves of bibone tilings and their colour classes.
//
// A move is an alternating cycle: a closed walk v0 v1 ... v_{2k-1} v0 of region sites whose
// matching holds either the edges v0v1, v2v3, ... (state A) or v1v2, v3v4, ..., v_{2k-1}v0
// (state B); the move swaps A and B. Kenyon-Remila (Discrete Math. 1996): the matchings of a
// simply connected region of the triangular lattice (the region and its complement connected)
// are connected by local moves involving at most 4 dimers. The families used here:
//   rhombi      4-cycles around two adjacent triangles, three orientations: anchor a, a + e_r,
//               a + e_r + e_{r+1}, a + e_{r+1} (two parallel dimers turn by 60 degrees);
//   triangles   6-cycles around a triangle of side 2 (4 unit triangles), up and down: the
//               three dimers on its sides rotate; no rhombus lies inside, so rhombi alone never
//               connect its two matchings;
//   butterflies 8-cycles around the hourglass of rows of 3, 2 and 3 sites (6 unit triangles),
//               three orientations: four dimers rotate. 4- and 6-cycles alone do not suffice:
//               the 10-site region ".###/..##/..###/....##" has three matchings, one of which
//               differs from the others only by a butterfly and a longer cycle.
// Other 6-cycles (2x1 bars, chevrons) were not needed: breadth-first search over all matchings
// of several hundred small regions (test_bibone_moves) finds every region connected by these 8
// families, and needs each kind.
//
// Colour classes: the anchors of one family are coloured periodically by a sublattice L of
// Z^2, anchors in one coset of L form a class. L is the sublattice of smallest index containing
// no nonzero difference of two of the cycle's site offsets, so two cycles of one class never
// share a site (found by search over Hermite normal forms): index 4 for each rhombus family
// (the 2x2 blocks (x mod 2, y mod 2)), 7 for each triangle family and 8 for each butterfly
// family (a lattice tiling by butterflies); 50 (family, class) pairs in all. Cycles of one class
// touch disjoint sites, so a step updates them all in parallel with no race, each by an independent
// heat-bath choice. That is MoveColouring::periodic; MoveColouring::kokkos_kernels (the default
// where Kokkos Kernels is linked, move_colouring.hpp) instead colours each family's conflict
// graph in the given domain (anchors adjacent iff their cycles share a site): classes = colours,
// no empty classes, typically fewer pairs than 50 (a family without candidates gets none).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/engine/detail/move_colouring.hpp"

namespace portamc::tilings {

/// A cycle family as the directions of its closed walk from the anchor (length 4, 6 or 8).
struct BiboneCycle {
  std::string name;
  std::vector<int> directions;
  /// Site offsets (dx, dy) of v0 .. v_{len-1} from the anchor v0.
  std::vector<std::array<int, 2>> offsets() const;
};

/// Rhombi 0, 1, 2, the up and the down triangle of side 2, butterflies 0, 1, 2.
std::vector<BiboneCycle> bibone_cycles();

/// Colouring of Z^2 by the cosets of the lattice with basis (a, 0), (b, c), 0 <= b < a.
struct PeriodicColouring {
  int a = 1, b = 0, c = 1;
  int classes() const { return a * c; }
  int class_of(int x, int y) const;
};

/// Smallest-index periodic colouring under which translates of the cycle in one class are
/// site-disjoint.
PeriodicColouring periodic_colouring(const BiboneCycle& cycle);

/// A cycle family in the form the kernel reads: site index offsets for a box of given width.
struct BiboneCycleShape {
  std::int32_t length = 0;
  std::int32_t offset[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::uint8_t direction[8] = {0, 0, 0, 0, 0, 0, 0, 0};
};
BiboneCycleShape cycle_shape(const BiboneCycle& cycle, int width);

/// Every candidate cycle of a region (all its sites in the region), grouped by (family, class)
/// pair: pair p = family_first_pair[f] + class holds anchors[pair_offset[p] .. pair_offset[p+1]).
/// The RNG entity of the cycle of family f at anchor site a is f * box_sites + a.
/// kokkos_kernels: pairs run over families, then colours 0, 1, ...; anchors increasing in each
/// pair; a domain without any candidate cycle gets one empty pair so that steps stay defined.
struct BiboneMoveSet {
  MoveColouring colouring = MoveColouring::periodic;
  std::vector<BiboneCycle> cycles;
  std::vector<PeriodicColouring> colourings;  ///< per family (periodic only; else empty)
  std::vector<BiboneCycleShape> shapes;
  std::vector<int> pair_family;
  std::vector<std::int32_t> pair_offset;
  std::vector<std::int32_t> anchors;
  int box_sites = 0;
  int pairs() const { return static_cast<int>(pair_family.size()); }
  std::int64_t candidates() const { return static_cast<std::int64_t>(anchors.size()); }
};

/// Throws std::invalid_argument for kokkos_kernels in a build without Kokkos Kernels.
BiboneMoveSet bibone_move_set(const BiboneDomain& domain,
                              MoveColouring colouring = default_move_colouring);

/// 0: the matching holds the cycle's state A, 1: state B, -1: the cycle does not alternate.
int bibone_cycle_state(const std::vector<std::uint8_t>& bytes, const BiboneCycleShape& shape,
                       int anchor);
/// Writes state (0 = A, 1 = B) on the cycle's sites.
void bibone_set_cycle(std::vector<std::uint8_t>& bytes, const BiboneCycleShape& shape, int anchor,
                      int state);

}  // namespace portamc::tilings

#pragma once
// Exact sampling of domino tilings of the Aztec diamond AD(n) by (generalised) domino shuffling
// (Elkies-Kuperberg-Larsen-Propp 1992; Propp, "Generalized domino-shuffling", Theoret. Comput.
// Sci. 303 (2003)): a tiling of AD(k-1) is turned into an exact sample of AD(k) by deleting
// "bad" blocks, sliding every domino one step and filling the holes with random 2x2 blocks.
// n steps give an exact sample of AD(n) in O(n^3) work but only n parallel kernels, with no
// coupling from the past (H100, Kokkos 4.6 CUDA: uniform AD(1000) in 6 ms, AD(4000) in 0.16 s).
//
// Geometry. Put AD(k) around the origin: face (x, y) is the unit square with lower-left corner
// (x, y), in AD(k) iff |x + 1/2| + |y + 1/2| <= k. In the 2n x 2n box of
// SquareDomain::aztec_diamond(n) it is face (r, c) = (n - 1 - y, x + n), for every k <= n
// (the diamonds are concentric). In AD(k) every domino has a type fixed by its position:
//   horizontal, left face (x, y):   N if x + y + k is even, S if odd;
//   vertical, bottom face (x, y):   E if x + y + k is even, W if odd.
// Shuffling moves every domino one unit in its direction (N up, ...); the parities are chosen
// so that a moved domino keeps its type in AD(k+1).
//
// Cell encoding. The k^2 "cells" of AD(k) (Propp's faces of the Aztec diamond graph) are the
// 2x2 blocks centred at the lattice points (X, Y) with |X| + |Y| <= k - 1 and X + Y = k - 1
// (mod 2). Index them by (a, b) in [0, k)^2 with X = a + b - (k - 1), Y = a - b, so a grows to
// the north-east and b to the south-east. Every domino of AD(k) lies in exactly one cell, where
// it is that cell's top (T = N type), bottom (B = S), left (L = W) or right (R = E) pair of
// faces: within a cell the dominoes point away from its centre. A tiling is one byte of bits
// T|B|L|R per cell. Cell (a, b) shares its four corner faces with the cells (a, b-1) (its TL
// face), (a+1, b) (TR), (a-1, b) (BL) and (a, b+1) (BR).
//
// One shuffling step AD(k-1) -> AD(k) in this encoding, for cell (a, b) of AD(k):
//   slide    the dominoes that can land in it are T of (a-1, b), B of (a, b-1), L of (a, b) and
//            R of (a-1, b-1) of AD(k-1) (same byte, same bit): the four edges of the AD(k-1)
//            2x2 block at the same place, each moved across it. Two arrivals are exactly EKLP's
//            bad blocks (an N below an S, or an E left of a W); they annihilate. N+W, N+E, S+W,
//            S+E cannot both arrive (they would share a face of AD(k-1)).
//   create   a cell into which nothing slides is a hole and gets T|B with its creation
//            probability, else L|R. Why these: with s cells receiving one domino and d
//            annihilations, AD(k-1) has k(k-1) = s + 2d dominoes and AD(k) has k(k+1), so there
//            are h = k + d holes, exactly the number of cells into which nothing slides
//            (k^2 - s - d). A cell where a pair annihilated is empty but never a hole: its faces
//            belong to the holes around it (it can be the centre of a 4x4 hole made of four hole
//            cells, all four of its faces uncovered). So "all four faces empty" is not a local
//            test for a hole, "nothing arrived" is. The host reference finds the holes
//            geometrically instead, and the tests compare the two bit for bit.
// A cell's new byte is a function of four bytes of the previous level, so each step is one
// parallel_for over the k^2 cells from one buffer into the other, with no order between threads.
//
// Weights (generalised shuffling, Propp 2003, urban renewal): with edge weights t, b, l, r on
// the four dominoes of each cell of AD(k), the weight of an AD(k-1) domino is the weight of the
// domino it slides to, divided by that cell's D = t b + l r; the hole at a cell of AD(k) becomes
// T|B with probability t b / D. For a weighting periodic in the faces with period P x Q, every
// level is periodic in (a, b) with period M = lcm(P, Q) in both indices, so the creation
// probabilities of all n levels fit in n M^2 entries. Each level is rescaled by one constant
// (which changes no ratio, hence no probability) to keep the doubles in range.
//
// Randomness: the hole at cell (a, b) of AD(k) draws rng::draw(seed, purpose_tiling_shuffle,
// a * k + b, k)[0] and takes T|B iff that word is below the cell's threshold (computed once on
// the host from doubles, glauber_weights.hpp's probability_threshold), so every backend and the
// host reference make the same decisions: the sample is a function of (n, weights, seed).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/fast_division.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/domino/square_domain.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"

namespace portamc::tilings {

/// Largest order: the 2n x 2n box of AD(n) keeps 32-bit face indices (4 n^2 < 2^31).
inline constexpr int aztec_shuffling_max_order = 23170;

namespace aztec_cell {
inline constexpr std::uint8_t top = 1;     // N domino: the cell's two upper faces
inline constexpr std::uint8_t bottom = 2;  // S domino: the two lower faces
inline constexpr std::uint8_t left = 4;    // W domino: the two left faces
inline constexpr std::uint8_t right = 8;   // E domino: the two right faces
}  // namespace aztec_cell

/// Creation thresholds of every level of the shuffle for AD(order): the hole at cell (a, b) of
/// AD(k) becomes a horizontal (T|B) pair iff the random word u < thresholds[index(k, a, b)].
struct AztecCreationTable {
  int order = 0;
  int period = 1;  ///< M: the thresholds are periodic in a and b with period M
  std::vector<std::uint64_t> thresholds;
  static std::size_t index(int k, int a, int b, int period) {
    return (static_cast<std::size_t>(k - 1) * static_cast<std::size_t>(period) +
            static_cast<std::size_t>(a % period)) *
               static_cast<std::size_t>(period) +
           static_cast<std::size_t>(b % period);
  }
};

/// Throws std::invalid_argument for n < 1, n > aztec_shuffling_max_order, invalid weights
/// (validate), a period table too large (n M^2 > 2^24 entries), or weights so extreme that the
/// urban-renewal recursion leaves the range of doubles.
AztecCreationTable aztec_creation_table(int n, const DominoWeights& weights);

/// The n x n cell bytes (index a * n + b, bits aztec_cell) of AD(n) as a DominoTiling of
/// SquareDomain::aztec_diamond(n). Throws std::invalid_argument for a size mismatch.
DominoTiling aztec_cells_to_tiling(int n, const std::vector<std::uint8_t>& cells);

/// Host reference: plain sequential shuffling on the face array of the 2n x 2n box, written in
/// the geometric picture (delete bad 2x2 blocks, move dominoes, fill 2x2 holes) independently of
/// the cell encoding, with the same random decisions. Throws std::logic_error if the algorithm's
/// invariants fail (a collision while sliding, a face left uncovered).
DominoTiling aztec_shuffle_reference(int n, const DominoWeights& weights, std::uint64_t seed);

namespace aztec_kernels {

using Index = std::int32_t;

/// One step AD(k-1) -> AD(k) for cell (a, b): deletion, sliding and creation at once, since a
/// cell's fate depends only on the four AD(k-1) dominoes that can slide into it.
///
/// Layout: cell (a, b) lives at (a + 1) * (n + 1) + (b + 1) for every level. Row 0 and column
/// 0 are a border that stays zero, and the buffers are zeroed before each run, so the AD(k-1)
/// neighbours (a-1, .), (., b-1) outside [0, k-1)^2 read as empty without a bounds test (within
/// a run a buffer only ever holds levels no larger than the current one).
template <class Space>
struct Shuffle {
  Kokkos::View<const std::uint8_t*, Space> previous;  // AD(k-1)
  Kokkos::View<std::uint8_t*, Space> next;            // AD(k)
  Kokkos::View<const std::uint64_t*, Space> thresholds;
  FastDivisor k_divisor;       // k: thread index -> (a, b)
  FastDivisor period_divisor;  // M: (a, b) -> entry of the creation table
  Index stride;                // n + 1
  Index k;
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(Index i) const {
    std::uint32_t b = 0;
    const std::uint32_t a = k_divisor.divide(static_cast<std::uint32_t>(i), b);
    const Index at = (static_cast<Index>(a) + 1) * stride + static_cast<Index>(b) + 1;
    // The same bit in the same relative cell: T of (a-1, b), B of (a, b-1), L of (a, b),
    // R of (a-1, b-1) of AD(k-1).
    std::uint8_t s = static_cast<std::uint8_t>(
        (previous(at - stride) & aztec_cell::top) | (previous(at - 1) & aztec_cell::bottom) |
        (previous(at) & aztec_cell::left) | (previous(at - stride - 1) & aztec_cell::right));
    if (s == 0) {
      // Nothing arrives: a hole. (Cells where a bad pair annihilates end up empty too but are
      // never holes; see the header comment.)
      const std::uint64_t entity =
          static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(k) + b;
      const std::uint32_t u =
          rng::draw(seed, rng::purpose_tiling_shuffle, entity, static_cast<std::uint64_t>(k))[0];
      std::uint32_t a_mod = 0, b_mod = 0;
      period_divisor.divide(a, a_mod);
      period_divisor.divide(b, b_mod);
      const std::size_t m = period_divisor.divisor();
      const std::uint64_t t =
          thresholds(((static_cast<std::size_t>(k) - 1) * m + a_mod) * m + b_mod);
      s = std::uint64_t{u} < t ? std::uint8_t(aztec_cell::top | aztec_cell::bottom)
                               : std::uint8_t(aztec_cell::left | aztec_cell::right);
    } else {
      // Two arrivals are a bad block of AD(k-1) (N under S, or E left of W): both vanish.
      constexpr std::uint8_t horizontal = aztec_cell::top | aztec_cell::bottom;
      constexpr std::uint8_t vertical = aztec_cell::left | aztec_cell::right;
      if ((s & horizontal) == horizontal) s = static_cast<std::uint8_t>(s & ~horizontal);
      if ((s & vertical) == vertical) s = static_cast<std::uint8_t>(s & ~vertical);
    }
    next(at) = s;
  }
};

}  // namespace aztec_kernels

/// Domino shuffling of AD(n) on one Kokkos execution space. Construction computes the creation
/// table on the host and allocates 2 (n+1)^2 bytes of cell state; each run() is n kernels.
template <class Space>
class AztecShuffler {
 public:
  using Cells = Kokkos::View<std::uint8_t*, Space>;

  /// Throws std::invalid_argument as aztec_creation_table does, or when the state does not fit
  /// in the memory of `space` (where all kernels run).
  explicit AztecShuffler(const Space& space, int n,
                         const DominoWeights& weights = DominoWeights::uniform())
      : space_(space), table_(aztec_creation_table(n, weights)), n_(n) {
    const std::size_t cells = static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1);
    require_memory<Space>(2 * cells + table_.thresholds.size() * sizeof(std::uint64_t),
                          "Aztec diamond shuffling of order " + std::to_string(n));
    buffers_[0] = Cells("portamc::tilings::aztec_cells_even", cells);
    buffers_[1] = Cells("portamc::tilings::aztec_cells_odd", cells);
    Kokkos::View<std::uint64_t*, Space> t("portamc::tilings::aztec_thresholds",
                                          table_.thresholds.size());
    Kokkos::deep_copy(t, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace,
                                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                             table_.thresholds.data(), table_.thresholds.size()));
    thresholds_ = t;
  }

  const Space& space() const { return space_; }
  int order() const { return n_; }
  const AztecCreationTable& creation_table() const { return table_; }

  /// Runs the shuffle AD(0) -> AD(n) for seed; the tiling stays on the device (cells()).
  void run(std::uint64_t seed) {
    using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<aztec_kernels::Index>>;
    Kokkos::deep_copy(buffers_[0], std::uint8_t{0});
    Kokkos::deep_copy(buffers_[1], std::uint8_t{0});
    const FastDivisor period(static_cast<std::uint32_t>(table_.period));
    // Ping-pong: level k reads buffer (k - 1) % 2 and writes k % 2. Level 1 reads only zeros.
    for (int k = 1; k <= n_; ++k) {
      Kokkos::parallel_for(
          "portamc::tilings::aztec_shuffle", Policy(space_, 0, k * k),
          aztec_kernels::Shuffle<Space>{buffers_[(k - 1) % 2], buffers_[k % 2], thresholds_,
                                        FastDivisor(static_cast<std::uint32_t>(k)), period, n_ + 1,
                                        k, seed});
    }
  }
  /// Cell bytes of the last run on the device: cell (a, b) at (a + 1) * (n + 1) + b + 1.
  const Cells& cells() const { return buffers_[n_ % 2]; }
  /// The last run's cells on the host, compact: cell (a, b) at a * n + b (bits aztec_cell).
  std::vector<std::uint8_t> host_cells() const {
    const auto padded = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cells());
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_));
    for (int a = 0; a < n_; ++a) {
      for (int b = 0; b < n_; ++b) {
        bytes[static_cast<std::size_t>(a) * n_ + b] =
            padded((static_cast<std::size_t>(a) + 1) * (n_ + 1) + b + 1);
      }
    }
    return bytes;
  }
  /// The last run's tiling of SquareDomain::aztec_diamond(n).
  DominoTiling tiling() const { return aztec_cells_to_tiling(n_, host_cells()); }
  /// An exact sample for seed (run + tiling).
  DominoTiling sample(std::uint64_t seed) {
    run(seed);
    return tiling();
  }

 private:
  Space space_;
  AztecCreationTable table_;
  int n_;
  Cells buffers_[2];
  Kokkos::View<const std::uint64_t*, Space> thresholds_;
};

}  // namespace portamc::tilings

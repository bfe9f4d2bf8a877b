#pragma once
// How an N_0 x ... x N_{D-1} lattice is split into blocks over MPI ranks: a rank grid
// P_0 x ... x P_{D-1} (product = ranks), rank r at grid coordinates c with
// r = c_0 + P_0 (c_1 + P_1 (c_2 + P_2 c_3)), owning the block of sites
// origin_mu <= x_mu < origin_mu + L_mu, L_mu = N_mu / P_mu, origin_mu = c_mu L_mu.
//
// A rank stores its block padded by one halo layer on each side of every split direction
// (P_mu > 1): padded extents L_mu + 2 there, L_mu elsewhere (periodic inside the rank as on
// one rank). Padded coordinate y_mu = x_mu - origin_mu + 1 in split directions, x_mu otherwise.
//
// Parity: with even origins (L_mu even), sum_mu y_mu = sum_mu x_mu - origin sum + (number of
// split directions), so padded parity = global parity xor (split directions mod 2) on every
// rank alike, and the checkerboard passes of one rank match those of the whole lattice.
//
// Host-only value type without MPI: the rank grid is pure arithmetic.
#include <cstdint>
#include <string>
#include <vector>

namespace portamc::su2 {

class Decomposition {
 public:
  /// One rank owning the whole lattice given (no halos).
  explicit Decomposition(const std::vector<int>& extents);
  /// Rank `rank` of `ranks` on `grid` (P_0 .. P_{D-1}); an empty grid chooses one
  /// (automatic_grid). Throws std::invalid_argument naming the direction and sizes for a grid
  /// of the wrong length or product, an extent not divisible by its P_mu, or a local extent
  /// that is odd or < 2 in a split direction.
  Decomposition(const std::vector<int>& extents, int ranks, int rank,
                const std::vector<int>& grid = {});

  /// The grid with the fewest halo sites per rank among the valid ones, ties going to the one
  /// split in the slowest directions (D-1 first: there a face is one contiguous range of each
  /// link group, sent without packing). Throws std::invalid_argument if none is valid.
  static std::vector<int> automatic_grid(const std::vector<int>& extents, int ranks);
  /// Throws std::invalid_argument if `grid` does not decompose `extents` over `ranks` ranks.
  static void check_grid(const std::vector<int>& extents, const std::vector<int>& grid, int ranks);

  int dimensions() const { return static_cast<int>(extents_.size()); }
  int ranks() const { return ranks_; }
  int rank() const { return rank_; }
  const std::vector<int>& global_extents() const { return extents_; }
  const std::vector<int>& grid() const { return grid_; }
  int grid(int mu) const { return grid_[mu]; }
  bool split(int mu) const { return grid_[mu] > 1; }
  int split_count() const;
  /// 1 when padded parity and global parity differ (an odd number of split directions).
  int parity_flip() const { return split_count() & 1; }
  /// Bit mu set for every split direction.
  unsigned split_mask() const;

  /// This rank's grid coordinate, block origin and local (unpadded) extent in direction mu.
  int coordinate(int mu) const { return coords_[mu]; }
  int origin(int mu) const { return coords_[mu] * local_extent(mu); }
  int local_extent(int mu) const { return extents_[mu] / grid_[mu]; }
  /// Halo layers on each side in direction mu: 1 in split directions, else 0.
  int halo(int mu) const { return split(mu) ? 1 : 0; }
  std::vector<int> local_extents() const;
  std::vector<int> padded_extents() const;
  std::int64_t local_volume() const;
  std::int64_t global_volume() const;

  /// The grid coordinates of `rank`, and the rank at grid coordinates `coords` (taken
  /// periodically).
  std::vector<int> coordinates_of(int rank) const;
  int rank_at(std::vector<int> coords) const;
  /// The rank one block forward (step +1) or backward (step -1) in direction mu.
  int neighbour(int mu, int step) const;

  /// "8x8x4x4".
  static std::string text(const std::vector<int>& extents);
  /// "1x1x2x2" style texts of the grid, the local and the global extents.
  std::string grid_text() const;
  std::string local_text() const;
  std::string global_text() const;

 private:
  std::vector<int> extents_;
  std::vector<int> grid_;
  std::vector<int> coords_;
  int ranks_ = 1;
  int rank_ = 0;
};

}  // namespace portamc::su2

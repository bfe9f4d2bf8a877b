#pragma once
// Bibone tilings: tilings of a region of the hexagonal lattice by pairs of adjacent hexagons,
// i.e. perfect matchings (dimers) of a region of the TRIANGULAR lattice, whose sites are the
// hexagonal cells. The graph is not bipartite, so there is no height function (and no monotone
// coupling); see bibone_moves.hpp for the moves that connect the matchings.
//
// Skewed coordinates: site (x, y) sits at x e1 + y e2 with e1 = (1, 0), e2 = (1/2, sqrt(3)/2).
// Its six neighbours, counter-clockwise, are in the directions
//   0: (+1, 0)  1: (0, +1)  2: (-1, +1)  3: (-1, 0)  4: (0, -1)  5: (+1, -1)
// and direction d + 3 (mod 6) is the opposite of d. A region lives in the box 0 <= x < width,
// 0 <= y < height; site (x, y) has index x + width * y.
//
// Mask text (from_mask / to_mask): one line per row, the FIRST line is the TOP row y = height-1
// (the text looks like the region, sheared); character x is site (x, y): '#' = in the region,
// '.' = not. All lines have the same length; a trailing '\r' is ignored.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace bibone {
inline constexpr int dx[6] = {1, 0, -1, -1, 0, 1};
inline constexpr int dy[6] = {0, 1, 1, 0, -1, -1};
/// Byte of a site that is not in the region.
inline constexpr std::uint8_t outside = 6;
constexpr int opposite(int d) {
  return (d + 3) % 6;
}
}  // namespace bibone

class BiboneDomain {
 public:
  BiboneDomain() = default;
  /// inside: width*height flags (index x + width*y). Throws std::invalid_argument, naming a
  /// site, unless the region is non-empty, connected and simply connected (no hole): the moves
  /// of bibone_moves.hpp connect all matchings only of simply connected regions.
  BiboneDomain(int width, int height, std::vector<unsigned char> inside);

  /// width x height sites, sides along e1 and e2.
  static BiboneDomain parallelogram(int width, int height);
  /// Hexagon-shaped region with a, b, c >= 1 sites on its sides (a along e1, b along e2, c along
  /// e2 - e1, then a, b, c again): 0 <= x <= a+c-2, 0 <= y <= b+c-2, c-1 <= x+y <= a+b+c-3.
  static BiboneDomain hexagon(int a, int b, int c);
  /// Triangle with n >= 1 sites per side: x, y >= 0, x + y < n.
  static BiboneDomain triangle(int n);
  /// Parses the mask format above; malformed text throws naming line and column.
  static BiboneDomain from_mask(const std::string& text);
  std::string to_mask() const;

  int width() const { return width_; }
  int height() const { return height_; }
  int box_sites() const { return width_ * height_; }  ///< bytes of a matching
  int site_count() const { return sites_; }           ///< sites in the region
  int index(int x, int y) const { return x + width_ * y; }
  bool contains(int x, int y) const {
    return x >= 0 && y >= 0 && x < width_ && y < height_ && inside_[index(x, y)] != 0;
  }
  bool contains(int site) const { return inside_[site] != 0; }
  /// Index of the neighbour of site in direction d, or -1 if it is not in the region.
  int neighbour(int site, int d) const;
  /// "(x, y)" of a site index, for messages.
  std::string name(int site) const;
  const std::vector<unsigned char>& flags() const { return inside_; }

 private:
  void check_shape() const;

  int width_ = 0;
  int height_ = 0;
  int sites_ = 0;
  std::vector<unsigned char> inside_;
};

/// A perfect matching: one byte per box site, the direction 0..5 of its partner, or
/// bibone::outside for sites not in the region (plain bytes so a Kokkos View mirrors them).
class BiboneMatching {
 public:
  BiboneMatching() = default;
  explicit BiboneMatching(std::vector<std::uint8_t> partner) : partner_(std::move(partner)) {}
  std::uint8_t at(int site) const { return partner_[site]; }
  void set(int site, std::uint8_t d) { partner_[site] = d; }
  const std::vector<std::uint8_t>& bytes() const { return partner_; }
  bool operator==(const BiboneMatching& o) const { return partner_ == o.partner_; }
  bool operator<(const BiboneMatching& o) const { return partner_ < o.partner_; }

 private:
  std::vector<std::uint8_t> partner_;
};

/// Throws std::invalid_argument naming the first offending site unless every region site points
/// to a region neighbour that points back, and every other box site holds bibone::outside.
void validate_matching(const BiboneDomain& domain, const BiboneMatching& matching);

}  // namespace portamc::tilings

#pragma once
// A domino tiling as one byte per face of the bounding box: the direction in which the face's
// partner lies.  Plain bytes (no pointers) so that the array maps 1:1 onto a Kokkos View later.
//
// Elementary rotations act on an interior vertex v = (i, j) whose four faces NW = (i-1, j-1),
// NE = (i-1, j), SW = (i, j-1), SE = (i, j) form two parallel dominoes; they swap two horizontal
// dominoes for two vertical ones or back.  Only the height at v changes, by +-4 (see
// domino_heights.hpp): the "up" configuration is the vertical pair when NE is black and the
// horizontal pair when NE is white.  Two vertices of the same colour never share an edge, and
// two same-coloured vertices that share a face can never both be rotatable (that face would have
// to lie in both 2x2 blocks' dominoes), so all vertices of one colour can be rotated at once.
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/tilings/domino/square_domain.hpp"

namespace portamc::tilings {

namespace direction {
inline constexpr std::uint8_t north = 0;  // partner at (r-1, c)
inline constexpr std::uint8_t east = 1;   // partner at (r, c+1)
inline constexpr std::uint8_t south = 2;  // partner at (r+1, c)
inline constexpr std::uint8_t west = 3;   // partner at (r, c-1)
inline constexpr std::uint8_t none = 4;   // face outside the domain (or not yet matched)
inline constexpr int row_offset(std::uint8_t d) {
  return d == north ? -1 : (d == south ? 1 : 0);
}
inline constexpr int col_offset(std::uint8_t d) {
  return d == west ? -1 : (d == east ? 1 : 0);
}
inline constexpr std::uint8_t opposite(std::uint8_t d) {
  return static_cast<std::uint8_t>((d + 2) & 3);
}
}  // namespace direction

struct DominoTiling {
  int rows = 0;
  int cols = 0;
  std::vector<std::uint8_t> partner;  // rows * cols directions, row-major

  /// All faces set to direction::none.
  static DominoTiling empty_for(const SquareDomain& domain);
  std::uint8_t at(int r, int c) const {
    return partner[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
                   static_cast<std::size_t>(c)];
  }
  void set(int r, int c, std::uint8_t d) {
    partner[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
            static_cast<std::size_t>(c)] = d;
  }
  bool operator==(const DominoTiling& other) const {
    return rows == other.rows && cols == other.cols && partner == other.partner;
  }
  bool operator!=(const DominoTiling& other) const { return !(*this == other); }
};

/// Places a domino on faces (r, c) and its neighbour in direction d (no checks).
void place_domino(DominoTiling& tiling, int r, int c, std::uint8_t d);

/// Empty when the tiling is valid for the domain; otherwise says what is wrong and where (size
/// mismatch, face of the domain without partner, partner outside the domain, partner not
/// pointing back, empty face with a partner).
std::string domino_tiling_error(const SquareDomain& domain, const DominoTiling& tiling);
inline bool is_valid_domino_tiling(const SquareDomain& domain, const DominoTiling& tiling) {
  return domino_tiling_error(domain, tiling).empty();
}
/// Throws std::invalid_argument with domino_tiling_error's message.
void require_valid_domino_tiling(const SquareDomain& domain, const DominoTiling& tiling);

/// +1 if an up-rotation is possible at vertex (i, j), -1 if a down-rotation is, 0 if the vertex
/// is not rotatable (not interior, or its four faces are not two parallel dominoes).
int rotation_direction(const SquareDomain& domain, const DominoTiling& tiling, int i, int j);
/// Rotates at (i, j) if that raises (sign = +1) or lowers (sign = -1) the height there; returns
/// whether it did.  Throws for another sign.
bool rotate(const SquareDomain& domain, DominoTiling& tiling, int i, int j, int sign);

}  // namespace portamc::tilings

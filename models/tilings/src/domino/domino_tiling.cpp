#include "portamc/tilings/domino/domino_tiling.hpp"

#include <stdexcept>

namespace portamc::tilings {
namespace {

std::string at_face(int r, int c) {
  return "face (" + std::to_string(r) + ", " + std::to_string(c) + ")";
}

}  // namespace

DominoTiling DominoTiling::empty_for(const SquareDomain& domain) {
  DominoTiling t;
  t.rows = domain.rows();
  t.cols = domain.cols();
  t.partner.assign(static_cast<std::size_t>(t.rows) * static_cast<std::size_t>(t.cols),
                   direction::none);
  return t;
}

void place_domino(DominoTiling& tiling, int r, int c, std::uint8_t d) {
  tiling.set(r, c, d);
  tiling.set(r + direction::row_offset(d), c + direction::col_offset(d), direction::opposite(d));
}

std::string domino_tiling_error(const SquareDomain& domain, const DominoTiling& tiling) {
  if (tiling.rows != domain.rows() || tiling.cols != domain.cols() ||
      tiling.partner.size() != domain.face_flags().size()) {
    return "tiling of size " + std::to_string(tiling.rows) + " x " + std::to_string(tiling.cols) +
           " does not match the domain's " + std::to_string(domain.rows()) + " x " +
           std::to_string(domain.cols()) + " bounding box";
  }
  for (int r = 0; r < domain.rows(); ++r) {
    for (int c = 0; c < domain.cols(); ++c) {
      const std::uint8_t d = tiling.at(r, c);
      if (!domain.contains(r, c)) {
        if (d != direction::none) return at_face(r, c) + " is outside the domain but has a partner";
        continue;
      }
      if (d > direction::west) return at_face(r, c) + " of the domain has no partner";
      const int pr = r + direction::row_offset(d);
      const int pc = c + direction::col_offset(d);
      if (!domain.contains(pr, pc)) {
        return at_face(r, c) + " is matched with " + at_face(pr, pc) + " outside the domain";
      }
      if (tiling.at(pr, pc) != direction::opposite(d)) {
        return at_face(r, c) + " is matched with " + at_face(pr, pc) +
               ", which does not point back";
      }
    }
  }
  return {};
}

void require_valid_domino_tiling(const SquareDomain& domain, const DominoTiling& tiling) {
  const std::string error = domino_tiling_error(domain, tiling);
  if (!error.empty()) throw std::invalid_argument("invalid domino tiling: " + error);
}

int rotation_direction(const SquareDomain& domain, const DominoTiling& tiling, int i, int j) {
  if (i <= 0 || j <= 0 || i >= domain.rows() || j >= domain.cols() ||
      !domain.is_interior_vertex(i, j)) {
    return 0;
  }
  const bool horizontal =
      tiling.at(i - 1, j - 1) == direction::east && tiling.at(i, j - 1) == direction::east;
  const bool vertical =
      tiling.at(i - 1, j - 1) == direction::south && tiling.at(i - 1, j) == direction::south;
  if (!horizontal && !vertical) return 0;
  // Walking from the vertex north of v down to v, the black face is on the left (east) exactly
  // when NE is black; that edge is a domino's middle (step -3 instead of +1 along its
  // orientation) for the horizontal pair.  Hence v is higher with the vertical pair when NE is
  // black, and with the horizontal pair otherwise.
  const bool vertical_is_up = SquareDomain::is_black(i - 1, j);
  return (vertical == vertical_is_up) ? -1 : +1;
}

bool rotate(const SquareDomain& domain, DominoTiling& tiling, int i, int j, int sign) {
  if (sign != 1 && sign != -1) {
    throw std::invalid_argument("rotate: sign " + std::to_string(sign) + " must be +1 or -1");
  }
  if (rotation_direction(domain, tiling, i, j) != sign) return false;
  if (tiling.at(i - 1, j - 1) == direction::east) {
    place_domino(tiling, i - 1, j - 1, direction::south);
    place_domino(tiling, i - 1, j, direction::south);
  } else {
    place_domino(tiling, i - 1, j - 1, direction::east);
    place_domino(tiling, i, j - 1, direction::east);
  }
  return true;
}

}  // namespace portamc::tilings

#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"

#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_enumeration.hpp"

namespace portamc::tilings {
namespace rt = rect_triangle;
namespace {

std::string face_name(int cx, int cy, bool up) {
  return std::string(up ? "U(" : "D(") + std::to_string(cx) + ", " + std::to_string(cy) + ")";
}

std::string point(int x, int y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

std::string step_to(int x, int y, int d) {
  return point(x + rt::direction_dx(d), y + rt::direction_dy(d));
}

// Does `code` have the part the tile puts into star face part.j of its vertex?
bool code_has_part(int code, const RectTriangleTile& tile, const RectTriangleTilePart& part) {
  const int expected = part_code(tile, part);
  if (part.full) return code == expected;
  const int centre = rt::star_centre_corner(part.j);
  return rt::is_split_code(code) && rt::split_start(code) == rt::split_start(expected) &&
         rt::half_is_rect(code, centre) == (tile.kind == RectTriangleTile::rectangle ? 1 : 0);
}

int direction_of(int dx, int dy) {
  for (int d = 0; d < 6; ++d) {
    if (rt::direction_dx(d) == dx && rt::direction_dy(d) == dy) return d;
  }
  throw std::logic_error("rect-triangle tiling: no lattice direction (" + std::to_string(dx) +
                         ", " + std::to_string(dy) + ")");
}

RectTriangleTiling from_lozenges(const TriangularDomain& domain, const LozengeTiling& lozenges) {
  std::vector<RectTriangleTile> tiles;
  for (int y = 0; y < domain.height(); ++y) {
    for (int x = 0; x < domain.width(); ++x) {
      if (!domain.has_up(x, y)) continue;
      // Ends p, q of the edge U(x, y) shares with its partner (lozenge_tiling.hpp); the lozenge
      // is cut along its long diagonal into the triangles with apex p and apex q.
      const int k = lozenges.partner(x, y);
      const int px = k == 0 ? x + 1 : x, py = k == 1 ? y + 1 : y;
      const int qx = k == 2 ? x + 1 : x, qy = k == 0 ? y + 1 : y;
      tiles.push_back({RectTriangleTile::triangle, px, py, direction_of(qx - px, qy - py)});
      tiles.push_back({RectTriangleTile::triangle, qx, qy, direction_of(px - qx, py - qy)});
    }
  }
  return tiling_from_tiles(domain, tiles);
}

}  // namespace

std::string to_string(const RectTriangleTile& tile) {
  if (tile.kind == RectTriangleTile::triangle) {
    return "triangle T" + point(tile.x, tile.y) + " with apex " + point(tile.x, tile.y) +
           " across the edge to " + step_to(tile.x, tile.y, tile.direction);
  }
  return "rectangle R" + point(tile.x, tile.y) + " centred at " + point(tile.x, tile.y) +
         " across the edges to " + step_to(tile.x, tile.y, tile.direction) + " and " +
         step_to(tile.x, tile.y, tile.direction + 3);
}

std::vector<RectTriangleTilePart> tile_parts(const RectTriangleTile& tile) {
  const int d = tile.direction;
  if (tile.kind == RectTriangleTile::triangle) {
    return {{d, false, 0}, {(d + 5) % 6, false, 1}};
  }
  return {{d + 1, true, 0},  {(d + 4) % 6, true, 0},  {d, false, 0},
          {d + 3, false, 0}, {(d + 5) % 6, false, 1}, {d + 2, false, 1}};
}

int part_code(const RectTriangleTile& tile, const RectTriangleTilePart& part) {
  if (part.full) return rt::full_code(rt::star_centre_corner(part.j));
  return rt::star_split_code(part.j, part.side, tile.kind == RectTriangleTile::rectangle ? 1 : 0,
                             0);
}

std::vector<RectTriangleTile> tiles_claimed_by_face(int cx, int cy, bool up, int code) {
  std::vector<RectTriangleTile> out;
  if (rt::is_full_code(code)) {
    const int k = code - 1, j = rt::star_of_corner(up, k);
    out.push_back({RectTriangleTile::rectangle, rt::face_corner_x(cx, up, k),
                   rt::face_corner_y(cy, up, k), (j + 2) % 3});
  } else if (rt::is_split_code(code)) {
    const int s = rt::split_start(code);
    for (int end = 0; end < 2; ++end) {
      // The bisected edge runs a -> b = a + d_{j_a} (side 0 of a's star face j_a) and
      // b -> a = b + d_{j_b + 1} (side 1 of b's star face j_b).
      const int corner = (s + 1 + end) % 3, j = rt::star_of_corner(up, corner);
      const bool rect = rt::half_is_rect(code, corner) != 0;
      const int d = (j + end) % 6;
      out.push_back({rect ? RectTriangleTile::rectangle : RectTriangleTile::triangle,
                     rt::face_corner_x(cx, up, corner), rt::face_corner_y(cy, up, corner),
                     rect ? d % 3 : d});
    }
  }
  return out;
}

RectTriangleTiling::RectTriangleTiling(int width, int height, std::vector<std::uint8_t> codes)
    : width_(width), height_(height), codes_(std::move(codes)) {
  if (width < 0 || height < 0 ||
      codes_.size() != 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    throw std::invalid_argument("rect-triangle tiling: " + std::to_string(codes_.size()) +
                                " face codes for a " + std::to_string(width) + " x " +
                                std::to_string(height) + " box; expected 2 * width * height");
  }
}

int RectTriangleTiling::vertex_configuration(int x, int y) const {
  if (x < 1 || y < 1 || x >= width_ || y >= height_) return -1;
  int star[6];
  for (int j = 0; j < 6; ++j) star[j] = codes_[rt::star_face_index(width_, x, y, j)];
  return rt::vertex_configuration(star);
}

void RectTriangleTiling::set_vertex_configuration(int x, int y, int config) {
  if (vertex_configuration(x, y) < 0 || config < 0 || config >= rt::vertex_configs) {
    throw std::invalid_argument("rect-triangle tiling: no vertex move to configuration " +
                                std::to_string(config) + " at " + point(x, y));
  }
  for (int j = 0; j < 6; ++j) {
    codes_[rt::star_face_index(width_, x, y, j)] =
        static_cast<std::uint8_t>(rt::vertex_config_code(config, j));
  }
}

void validate_tiling(const TriangularDomain& domain, const RectTriangleTiling& tiling) {
  if (tiling.width() != domain.width() || tiling.height() != domain.height()) {
    throw std::invalid_argument(
        "rect-triangle tiling: the tiling's box " + std::to_string(tiling.width()) + " x " +
        std::to_string(tiling.height()) + " differs from the domain's " +
        std::to_string(domain.width()) + " x " + std::to_string(domain.height()));
  }
  auto in_domain = [&](int cx, int cy, bool up) {
    return up ? domain.has_up(cx, cy) : domain.has_down(cx, cy);
  };
  // Messages are built only on failure: valid tilings of big domains are checked quickly.
  auto here = [](int cx, int cy, bool up) {
    return "rect-triangle tiling: face " + face_name(cx, cy, up);
  };
  for (int cy = 0; cy < domain.height(); ++cy) {
    for (int cx = 0; cx < domain.width(); ++cx) {
      for (const bool up : {true, false}) {
        const int code = tiling.code(cx, cy, up);
        if (code > 15) {
          throw std::invalid_argument(here(cx, cy, up) + " has the invalid code " +
                                      std::to_string(code));
        }
        if (!in_domain(cx, cy, up) && code != 0) {
          throw std::invalid_argument(here(cx, cy, up) + " is outside the domain but has code " +
                                      std::to_string(code));
        }
        if (in_domain(cx, cy, up) && code == 0) {
          throw std::invalid_argument(here(cx, cy, up) + " of the domain is not covered");
        }
      }
    }
  }
  // Every face has a code now; check that each tile a face claims is all there.
  for (int cy = 0; cy < domain.height(); ++cy) {
    for (int cx = 0; cx < domain.width(); ++cx) {
      for (const bool up : {true, false}) {
        const int code = tiling.code(cx, cy, up);
        for (const RectTriangleTile& tile : tiles_claimed_by_face(cx, cy, up, code)) {
          for (const RectTriangleTilePart& part : tile_parts(tile)) {
            const int px = tile.x + rt::star_cell_dx(part.j);
            const int py = tile.y + rt::star_cell_dy(part.j);
            const bool pup = rt::star_is_up(part.j);
            auto claim = [&] {
              return here(cx, cy, up) + " (code " + std::to_string(code) + ") is part of the " +
                     to_string(tile) + ", whose part in face " + face_name(px, py, pup);
            };
            if (!in_domain(px, py, pup)) {
              throw std::invalid_argument(claim() + " lies outside the domain");
            }
            const int other = tiling.code(px, py, pup);
            if (!code_has_part(other, tile, part)) {
              throw std::invalid_argument(claim() + " is missing: that face has code " +
                                          std::to_string(other));
            }
          }
        }
      }
    }
  }
}

bool is_valid_tiling(const TriangularDomain& domain, const RectTriangleTiling& tiling) {
  try {
    validate_tiling(domain, tiling);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::vector<RectTriangleTile> tiles_of(const RectTriangleTiling& tiling) {
  std::set<RectTriangleTile> tiles;
  for (int cy = 0; cy < tiling.height(); ++cy) {
    for (int cx = 0; cx < tiling.width(); ++cx) {
      for (const bool up : {true, false}) {
        for (const auto& tile : tiles_claimed_by_face(cx, cy, up, tiling.code(cx, cy, up))) {
          tiles.insert(tile);
        }
      }
    }
  }
  return {tiles.begin(), tiles.end()};
}

RectTriangleTiling tiling_from_tiles(const TriangularDomain& domain,
                                     const std::vector<RectTriangleTile>& tiles) {
  const int w = domain.width(), h = domain.height();
  std::vector<std::uint8_t> codes(2 * static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  std::vector<std::uint8_t> taken(codes.size(), 0);  // bit k: half at corner k; 8: whole face
  for (const RectTriangleTile& tile : tiles) {
    for (const RectTriangleTilePart& part : tile_parts(tile)) {
      const int j = part.j;
      const int px = tile.x + rt::star_cell_dx(j), py = tile.y + rt::star_cell_dy(j);
      const bool pup = rt::star_is_up(j);
      const bool inside = pup ? domain.has_up(px, py) : domain.has_down(px, py);
      if (!inside) {
        throw std::invalid_argument("rect-triangle tiling: the " + to_string(tile) +
                                    " leaves the domain at face " + face_name(px, py, pup));
      }
      const std::size_t f = static_cast<std::size_t>(rt::face_index(w, px, py, pup));
      const int code = part_code(tile, {j, part.full, part.side});
      const int centre_bit = 1 << rt::star_centre_corner(j);
      const bool clash =
          part.full ? taken[f] != 0
                    : (taken[f] & (8 | centre_bit)) != 0 ||
                          (taken[f] != 0 && rt::split_start(codes[f]) != rt::split_start(code));
      if (clash) {
        throw std::invalid_argument("rect-triangle tiling: the " + to_string(tile) +
                                    " overlaps another tile in face " + face_name(px, py, pup));
      }
      codes[f] = static_cast<std::uint8_t>(part.full ? code : (codes[f] | code));
      taken[f] = static_cast<std::uint8_t>(taken[f] | (part.full ? 8 : centre_bit));
    }
  }
  RectTriangleTiling tiling(w, h, std::move(codes));
  validate_tiling(domain, tiling);  // names any face left (partly) uncovered
  return tiling;
}

void validate(const RectTriangleWeights& weights) {
  const std::pair<const char*, double> all[3] = {
      {"t (faces covered by triangles only)", weights.t},
      {"c (faces shared by a triangle and a rectangle)", weights.c},
      {"r (faces covered by rectangles only)", weights.r}};
  for (const auto& [name, w] : all) {
    if (!(w > 0) || !std::isfinite(w)) {
      throw std::invalid_argument(std::string("rect-triangle weights: ") + name + " is " +
                                  std::to_string(w) + "; weights must be finite and positive");
    }
  }
}

std::array<std::int64_t, 3> face_type_counts(const RectTriangleTiling& tiling) {
  std::array<std::int64_t, 3> counts{0, 0, 0};
  for (const std::uint8_t code : tiling.codes()) {
    const int type = rt::face_type(code);
    if (type >= 0) ++counts[static_cast<std::size_t>(type)];
  }
  return counts;
}

double log_weight(const RectTriangleWeights& weights, const RectTriangleTiling& tiling) {
  validate(weights);
  const auto n = face_type_counts(tiling);
  return static_cast<double>(n[0]) * std::log(weights.t) +
         static_cast<double>(n[1]) * std::log(weights.c) +
         static_cast<double>(n[2]) * std::log(weights.r);
}

double weight(const RectTriangleWeights& weights, const RectTriangleTiling& tiling) {
  return std::exp(log_weight(weights, tiling));
}

double vertex_config_weight(const RectTriangleWeights& weights, int config) {
  validate(weights);
  if (config < 2) return std::pow(weights.t, 6);
  return weights.r * weights.r * std::pow(weights.c, 4);
}

std::vector<std::array<int, 2>> rect_triangle_move_vertices(const TriangularDomain& domain) {
  std::vector<std::array<int, 2>> out;
  for (int y = 1; y < domain.height(); ++y) {
    for (int x = 1; x < domain.width(); ++x) {
      if (domain.is_interior_vertex(x, y)) out.push_back({x, y});
    }
  }
  return out;
}

RectTriangleTiling rect_triangle_initial_tiling(const TriangularDomain& domain) {
  std::string lozenge_failure;
  try {
    return from_lozenges(domain, maximal_tiling(domain));
  } catch (const std::invalid_argument& e) {
    lozenge_failure = e.what();
  }
  constexpr std::uint64_t node_limit = 20'000'000;
  auto found = find_rect_triangle_tiling(domain, node_limit);
  if (!found) {
    throw std::invalid_argument(
        "rect-triangle tiling: the domain is not tileable: an exhaustive search found no "
        "rectangle-triangle tiling (and it has no lozenge tiling: " +
        lozenge_failure + ")");
  }
  return *found;
}

}  // namespace portamc::tilings

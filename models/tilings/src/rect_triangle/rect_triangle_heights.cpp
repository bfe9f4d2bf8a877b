#include "portamc/tilings/rect_triangle/rect_triangle_heights.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {
namespace rt = rect_triangle;
namespace {

std::string point(int x, int y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

std::string vertex_name(const TriangularDomain& domain, int v) {
  return "vertex " + point(v % (domain.width() + 1), v / (domain.width() + 1));
}

// Height step of the lattice vector (dx, dy) between two corners of one tile: +-1 for the six
// unit directions (+1 for d_0, d_2, d_4), 0 for the six sqrt 3 vectors d_k + d_{k+1}.
int step_of(int dx, int dy) {
  for (int d = 0; d < 6; ++d) {
    if (dx == rt::direction_dx(d) && dy == rt::direction_dy(d)) return d % 2 == 0 ? 1 : -1;
    if (dx == rt::direction_dx(d) + rt::direction_dx((d + 1) % 6) &&
        dy == rt::direction_dy(d) + rt::direction_dy((d + 1) % 6))
      return 0;
  }
  throw std::logic_error("rect-triangle heights: " + point(dx, dy) + " is no tile side");
}

RectTriangleHeights empty_heights(const TriangularDomain& domain) {
  return {domain.width(), domain.height(),
          std::vector<int>(static_cast<std::size_t>(domain.vertex_count()), no_height)};
}

// The sides of all tiles; every corner checked to be a domain vertex.
std::vector<RectTriangleTileEdge> all_edges(const TriangularDomain& domain,
                                            const std::vector<RectTriangleTile>& tiles) {
  std::vector<RectTriangleTileEdge> edges;
  for (const RectTriangleTile& tile : tiles) {
    for (const RectTriangleTileEdge& e : tile_edges(domain, tile)) {
      const int x = e.from % (domain.width() + 1), y = e.from / (domain.width() + 1);
      if (!domain.contains_vertex(x, y)) {
        throw std::invalid_argument("rect-triangle heights: the corner " + point(x, y) + " of " +
                                    to_string(tile) + " is outside the domain");
      }
      edges.push_back(e);
    }
  }
  return edges;
}

}  // namespace

std::vector<RectTriangleTileEdge> tile_edges(const TriangularDomain& domain,
                                             const RectTriangleTile& tile) {
  // Corners counter-clockwise: T(v, d) has v, v + d_{d-1}, v + d_{d+1}; R(v, o) has
  // v + d_{o+1}, v + d_{o+2}, v + d_{o+4}, v + d_{o+5} (rect_triangle_geometry.hpp).
  std::vector<int> offsets;
  if (tile.kind == RectTriangleTile::triangle) {
    offsets = {-1, (tile.direction + 5) % 6, (tile.direction + 1) % 6};
  } else {
    for (int k : {1, 2, 4, 5}) offsets.push_back((tile.direction + k) % 6);
  }
  std::vector<int> xs, ys;
  for (int d : offsets) {
    const int x = tile.x + (d < 0 ? 0 : rt::direction_dx(d));
    const int y = tile.y + (d < 0 ? 0 : rt::direction_dy(d));
    if (x < 0 || y < 0 || x > domain.width() || y > domain.height()) {
      throw std::invalid_argument("rect-triangle heights: the corner " + point(x, y) + " of " +
                                  to_string(tile) + " is outside the domain's box");
    }
    xs.push_back(x);
    ys.push_back(y);
  }
  std::vector<RectTriangleTileEdge> edges;
  const std::size_t n = xs.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    edges.push_back({domain.vertex_index(xs[i], ys[i]), domain.vertex_index(xs[j], ys[j]),
                     step_of(xs[j] - xs[i], ys[j] - ys[i])});
  }
  return edges;
}

RectTriangleHeights rect_triangle_boundary_heights(const TriangularDomain& domain) {
  // Boundary edges are unit tile edges of every tiling, with the lozenge rule's +1 steps.
  return boundary_heights(domain);
}

RectTriangleHeights heights_from_tiles(const TriangularDomain& domain,
                                       const std::vector<RectTriangleTile>& tiles) {
  const std::vector<RectTriangleTileEdge> edges = all_edges(domain, tiles);
  std::vector<std::vector<int>> incident(static_cast<std::size_t>(domain.vertex_count()));
  for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
    incident[static_cast<std::size_t>(edges[e].from)].push_back(e);
    incident[static_cast<std::size_t>(edges[e].to)].push_back(e);
  }
  RectTriangleHeights heights = empty_heights(domain);
  const int base = base_vertex(domain);
  if (incident[static_cast<std::size_t>(base)].empty()) {
    throw std::invalid_argument("rect-triangle heights: the base " + vertex_name(domain, base) +
                                " is no tile corner");
  }
  heights.values[static_cast<std::size_t>(base)] = base_height(domain);
  std::vector<int> queue{base};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int v = queue[head];
    for (int e : incident[static_cast<std::size_t>(v)]) {
      const RectTriangleTileEdge& edge = edges[static_cast<std::size_t>(e)];
      const int other = edge.from == v ? edge.to : edge.from;
      const int value =
          heights.values[static_cast<std::size_t>(v)] + (edge.from == v ? edge.step : -edge.step);
      int& h = heights.values[static_cast<std::size_t>(other)];
      if (h == no_height) {
        h = value;
        queue.push_back(other);
      } else if (h != value) {
        throw std::logic_error("rect-triangle heights: two paths from the base give " +
                               vertex_name(domain, other) + " the heights " + std::to_string(h) +
                               " and " + std::to_string(value) + " (the tiles are no tiling)");
      }
    }
  }
  for (int v = 0; v < domain.vertex_count(); ++v) {
    if (!incident[static_cast<std::size_t>(v)].empty() &&
        heights.values[static_cast<std::size_t>(v)] == no_height) {
      throw std::logic_error("rect-triangle heights: the tile corner " + vertex_name(domain, v) +
                             " is not connected to the base through tile sides");
    }
  }
  return heights;
}

RectTriangleHeights heights_from_tiling(const TriangularDomain& domain,
                                        const RectTriangleTiling& tiling) {
  validate_tiling(domain, tiling);
  return heights_from_tiles(domain, tiles_of(tiling));
}

void validate_heights(const TriangularDomain& domain, const RectTriangleTiling& tiling,
                      const RectTriangleHeights& heights) {
  validate_tiling(domain, tiling);
  if (heights.width != domain.width() || heights.height != domain.height() ||
      heights.values.size() != static_cast<std::size_t>(domain.vertex_count())) {
    throw std::invalid_argument(
        "rect-triangle heights: a box of " + std::to_string(heights.width) + " x " +
        std::to_string(heights.height) + " cells with " + std::to_string(heights.values.size()) +
        " values does not match the domain's " + std::to_string(domain.width()) + " x " +
        std::to_string(domain.height()));
  }
  const std::vector<RectTriangleTile> tiles = tiles_of(tiling);
  const std::vector<RectTriangleTileEdge> edges = all_edges(domain, tiles);
  std::vector<char> corner(static_cast<std::size_t>(domain.vertex_count()), 0);
  for (const RectTriangleTileEdge& e : edges) corner[static_cast<std::size_t>(e.from)] = 1;
  for (int v = 0; v < domain.vertex_count(); ++v) {
    const bool has = heights.values[static_cast<std::size_t>(v)] != no_height;
    if (corner[static_cast<std::size_t>(v)] != 0 && !has) {
      throw std::invalid_argument("rect-triangle heights: the tile corner " +
                                  vertex_name(domain, v) + " has no height");
    }
    if (corner[static_cast<std::size_t>(v)] == 0 && has) {
      const int x = v % (domain.width() + 1), y = v / (domain.width() + 1);
      throw std::invalid_argument(
          "rect-triangle heights: " + vertex_name(domain, v) + " has a height but is " +
          (domain.contains_vertex(x, y) ? "a rectangle centre" : "outside the domain"));
    }
  }
  const RectTriangleHeights boundary = rect_triangle_boundary_heights(domain);
  for (int v = 0; v < domain.vertex_count(); ++v) {
    const int expected = boundary.values[static_cast<std::size_t>(v)];
    const int got = heights.values[static_cast<std::size_t>(v)];
    if (expected != no_height && got != expected) {
      throw std::invalid_argument("rect-triangle heights: the boundary " + vertex_name(domain, v) +
                                  " has height " + std::to_string(got) + " instead of " +
                                  std::to_string(expected));
    }
  }
  for (const RectTriangleTileEdge& e : edges) {
    const int step = heights.values[static_cast<std::size_t>(e.to)] -
                     heights.values[static_cast<std::size_t>(e.from)];
    if (step != e.step) {
      throw std::invalid_argument("rect-triangle heights: the step " + std::to_string(step) +
                                  " from " + vertex_name(domain, e.from) + " to " +
                                  vertex_name(domain, e.to) + " along a tile side is not " +
                                  std::to_string(e.step));
    }
  }
}

bool is_valid_heights(const TriangularDomain& domain, const RectTriangleTiling& tiling,
                      const RectTriangleHeights& heights) {
  try {
    validate_heights(domain, tiling, heights);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace portamc::tilings

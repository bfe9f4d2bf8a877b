#pragma once
// Rectangle-triangle tilings (Nienhuis; Keating & Sridhar, "Random tilings with the GPU",
// II.B.3) of a TriangularDomain: the tiles, the face codes that store a tiling, its validity,
// face types and weight, an initial tiling and the elementary vertex move. The geometry and the
// code are documented in rect_triangle_geometry.hpp.
//
// Domains are the lozenge ones (TriangularDomain: simply connected unions of unit triangles
// with as many up as down triangles); every tile covers as much up as down area, so nothing
// else could be tiled. Every lozenge tiling cut along the long diagonals is a rectangle-triangle
// tiling, which gives the deterministic initial tiling (the maximal lozenge tiling: the full
// a x b x c box for hexagons, like the paper's maxHex); a domain without lozenge tilings is
// searched exhaustively instead.
#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_geometry.hpp"

namespace portamc::tilings {

/// A tile: T(v, d) (kind triangle, direction d = 0..5) or R(v, o) (kind rectangle, direction
/// o = 0..2), v = (x, y); see rect_triangle_geometry.hpp.
struct RectTriangleTile {
  enum Kind : int { triangle = 0, rectangle = 1 };
  int kind = triangle;
  int x = 0;
  int y = 0;
  int direction = 0;

  friend bool operator<(const RectTriangleTile& a, const RectTriangleTile& b) {
    return std::tie(a.kind, a.y, a.x, a.direction) < std::tie(b.kind, b.y, b.x, b.direction);
  }
  friend bool operator==(const RectTriangleTile& a, const RectTriangleTile& b) {
    return !(a < b) && !(b < a);
  }
};
std::string to_string(const RectTriangleTile& tile);

/// One part of a tile: star face j of the tile's vertex, covered whole (full) or the half at the
/// vertex when the face is cut across the edge v -> v + d_{j+side}.
struct RectTriangleTilePart {
  int j = 0;
  bool full = false;
  int side = 0;
};
/// The tile's parts (2 for a triangle, 6 for a rectangle).
std::vector<RectTriangleTilePart> tile_parts(const RectTriangleTile& tile);
/// The code the part's face must have (for halves: with the other half a triangle; the other
/// half's bit is free).
int part_code(const RectTriangleTile& tile, const RectTriangleTilePart& part);

/// The tiles that the face in cell (cx, cy) (up or down) with `code` says cover it: none for
/// code 0, one rectangle for a whole face, the two tiles of the halves of a cut face.
std::vector<RectTriangleTile> tiles_claimed_by_face(int cx, int cy, bool up, int code);

class RectTriangleTiling {
 public:
  RectTriangleTiling() = default;
  /// codes: 2 * width * height bytes, face index 2 * (x + width * y) + (0 up, 1 down). Only the
  /// size is checked here; validate_tiling checks the rest.
  RectTriangleTiling(int width, int height, std::vector<std::uint8_t> codes);

  int width() const { return width_; }
  int height() const { return height_; }
  std::uint8_t code(int x, int y, bool up) const {
    return codes_[rect_triangle::face_index(width_, x, y, up)];
  }
  const std::vector<std::uint8_t>& codes() const { return codes_; }
  std::vector<std::uint8_t>& codes() { return codes_; }

  /// The hexagon configuration (0..4) at vertex (x, y), -1 if no vertex move applies there.
  int vertex_configuration(int x, int y) const;
  /// Re-tiles the hexagon of (x, y) with `config`; the vertex must have a configuration.
  void set_vertex_configuration(int x, int y, int config);

  friend bool operator==(const RectTriangleTiling& a, const RectTriangleTiling& b) {
    return a.width_ == b.width_ && a.height_ == b.height_ && a.codes_ == b.codes_;
  }
  friend bool operator!=(const RectTriangleTiling& a, const RectTriangleTiling& b) {
    return !(a == b);
  }
  friend bool operator<(const RectTriangleTiling& a, const RectTriangleTiling& b) {
    return std::tie(a.width_, a.height_, a.codes_) < std::tie(b.width_, b.height_, b.codes_);
  }

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint8_t> codes_;
};

/// Throws std::invalid_argument naming the first face that is wrongly covered: a code outside
/// the domain, a domain face without a code, or a tile claimed by a face whose other parts are
/// outside the domain or not where its face codes say.
void validate_tiling(const TriangularDomain& domain, const RectTriangleTiling& tiling);
bool is_valid_tiling(const TriangularDomain& domain, const RectTriangleTiling& tiling);

/// The tiles of a valid tiling, sorted.
std::vector<RectTriangleTile> tiles_of(const RectTriangleTiling& tiling);
/// The tiling made of `tiles`; throws std::invalid_argument if they overlap, leave the domain
/// or leave a gap.
RectTriangleTiling tiling_from_tiles(const TriangularDomain& domain,
                                     const std::vector<RectTriangleTile>& tiles);

/// Face weights t, c, r of the types (A), (B), (C).
struct RectTriangleWeights {
  double t = 1.0;
  double c = 1.0;
  double r = 1.0;
};
/// Throws std::invalid_argument naming the weight that is not finite and positive.
void validate(const RectTriangleWeights& weights);
/// Number of faces of type (A), (B), (C).
std::array<std::int64_t, 3> face_type_counts(const RectTriangleTiling& tiling);
double log_weight(const RectTriangleWeights& weights, const RectTriangleTiling& tiling);
double weight(const RectTriangleWeights& weights, const RectTriangleTiling& tiling);
/// Weight of the hexagon configuration `config` (t^6 or r^2 c^4).
double vertex_config_weight(const RectTriangleWeights& weights, int config);

/// Interior vertices of the domain (all six star faces inside), the only places where a
/// vertex move can apply, as (x, y) pairs in row order.
std::vector<std::array<int, 2>> rect_triangle_move_vertices(const TriangularDomain& domain);

/// The maximal lozenge tiling cut into triangles; for a domain without lozenge tilings the first
/// tiling of an exhaustive search. Throws std::invalid_argument if the domain has no tiling.
RectTriangleTiling rect_triangle_initial_tiling(const TriangularDomain& domain);

}  // namespace portamc::tilings

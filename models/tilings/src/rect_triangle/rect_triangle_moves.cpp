#include "portamc/tilings/rect_triangle/detail/rect_triangle_moves.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "portamc/tilings/engine/glauber_weights.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_enumeration.hpp"

namespace portamc::tilings {
namespace rt = rect_triangle;
namespace {

using Face = std::array<int, 3>;  // cell dx, cell dy, up

std::vector<Face> star_faces(int vx, int vy) {
  std::vector<Face> out;
  for (int j = 0; j < 6; ++j) {
    out.push_back({vx + rt::star_cell_dx(j), vy + rt::star_cell_dy(j), rt::star_is_up(j) ? 1 : 0});
  }
  return out;
}

// All tilings of the region, as the codes of its faces in order.
RectTriangleRegion region_with_tilings(std::vector<Face> faces) {
  int min_x = std::numeric_limits<int>::max(), min_y = min_x, max_x = -min_x, max_y = -min_x;
  for (const Face& f : faces) {
    min_x = std::min(min_x, f[0]), max_x = std::max(max_x, f[0]);
    min_y = std::min(min_y, f[1]), max_y = std::max(max_y, f[1]);
  }
  const int w = max_x - min_x + 1, h = max_y - min_y + 1;
  std::vector<unsigned char> up(static_cast<std::size_t>(w * h), 0), down(up);
  for (const Face& f : faces) {
    (f[2] ? up : down)[static_cast<std::size_t>(f[0] - min_x + w * (f[1] - min_y))] = 1;
  }
  const TriangularDomain domain(w, h, up, down);
  RectTriangleRegion region{std::move(faces), {}};
  for (const RectTriangleTiling& t : list_rect_triangle_tilings(domain, 1000)) {
    std::vector<std::uint8_t> codes;
    for (const Face& f : region.faces) codes.push_back(t.code(f[0] - min_x, f[1] - min_y, f[2]));
    region.tilings.push_back(std::move(codes));
  }
  std::sort(region.tilings.begin(), region.tilings.end());
  return region;
}

// The star of v with the ear at v + d_k replaced by the rectangle R(v + d_k, k mod 3) that
// lies against the star: the two star tilings with that ear (configs k mod 2 and 2 + k mod 3),
// with the far halves of the two faces next to edge k covered by the rectangle instead.
RectTriangleRegion open_ear_region(int k) {
  RectTriangleRegion region{star_faces(0, 0), {}};
  for (const int config : {k % 2, 2 + k % 3}) {
    std::vector<std::uint8_t> codes;
    for (int j = 0; j < 6; ++j) {
      const int centre_rect = config >= 2 ? 1 : 0;
      const int code = j == k             ? rt::star_split_code(j, 0, centre_rect, 1)
                       : j == (k + 5) % 6 ? rt::star_split_code(j, 1, centre_rect, 1)
                                          : rt::vertex_config_code(config, j);
      codes.push_back(static_cast<std::uint8_t>(code));
    }
    region.tilings.push_back(std::move(codes));
  }
  std::sort(region.tilings.begin(), region.tilings.end());
  return region;
}

double face_weight(const RectTriangleWeights& w, int code) {
  const int type = rt::face_type(code);
  return type == rt::face_a_triangles ? w.t : (type == rt::face_b_mixed ? w.c : w.r);
}

RectTriangleMoveShape shape_for(const RectTriangleRegion& region, int width,
                                const RectTriangleWeights& weights) {
  RectTriangleMoveShape shape;
  shape.faces = static_cast<std::int32_t>(region.faces.size());
  shape.configs = static_cast<std::int32_t>(region.tilings.size());
  if (shape.faces > rect_triangle_max_region_faces ||
      shape.configs > rect_triangle_max_region_configs) {
    throw std::logic_error("rect-triangle moves: a region exceeds the shape tables");
  }
  for (int i = 0; i < shape.faces; ++i) {
    const Face& f = region.faces[static_cast<std::size_t>(i)];
    shape.offset[i] = 2 * (f[0] + width * f[1]) + (f[2] ? 0 : 1);
  }
  std::vector<double> w(region.tilings.size(), 1.0);
  double total = 0;
  for (std::size_t c = 0; c < w.size(); ++c) {
    for (int i = 0; i < shape.faces; ++i) {
      shape.code[c][i] = region.tilings[c][static_cast<std::size_t>(i)];
      w[c] *= face_weight(weights, region.tilings[c][static_cast<std::size_t>(i)]);
    }
    total += w[c];
  }
  double cumulative = 0;
  for (int c = 0; c + 1 < shape.configs; ++c) {
    cumulative += w[static_cast<std::size_t>(c)];
    shape.cumulative[c] = probability_threshold(std::min(1.0, cumulative / total));
  }
  return shape;
}

}  // namespace

std::vector<RectTriangleRegion> rect_triangle_regions(RectTriangleMoves moves) {
  std::vector<RectTriangleRegion> out{region_with_tilings(star_faces(0, 0))};
  if (moves != RectTriangleMoves::vertex_only) {
    for (int k = 0; k < 6; ++k) out.push_back(open_ear_region(k));
  }
  return out;
}

RectTriangleColouring rect_triangle_colouring(const RectTriangleRegion& region) {
  std::set<std::array<int, 2>> conflicts;  // anchor differences whose regions share a face
  for (const Face& a : region.faces) {
    for (const Face& b : region.faces) {
      if (a[2] == b[2] && (a[0] != b[0] || a[1] != b[1]))
        conflicts.insert({a[0] - b[0], a[1] - b[1]});
    }
  }
  for (int m = 1; m <= 64; ++m) {
    for (int alpha = 0; alpha < m; ++alpha) {
      for (int beta = 0; beta < m; ++beta) {
        const RectTriangleColouring colouring{alpha, beta, m};
        const bool separates = std::all_of(conflicts.begin(), conflicts.end(), [&](const auto& d) {
          return colouring.of(d[0], d[1]) != 0;
        });
        if (separates) return colouring;
      }
    }
  }
  throw std::logic_error("rect-triangle moves: no periodic colouring with at most 64 classes");
}

RectTriangleMoveSet rect_triangle_move_set(const TriangularDomain& domain,
                                           const RectTriangleWeights& weights,
                                           RectTriangleMoves moves, MoveColouring colouring) {
  validate(weights);
  require_available(colouring);
  RectTriangleMoveSet set;
  set.colouring = colouring;
  set.width = domain.width();
  set.height = domain.height();
  set.regions = rect_triangle_regions(moves);
  set.pair_offset.push_back(0);
  for (std::size_t f = 0; f < set.regions.size(); ++f) {
    const RectTriangleRegion& region = set.regions[f];
    set.shapes.push_back(shape_for(region, set.width, weights));
    std::vector<std::int32_t> candidates;  // increasing vertex index x + (width + 1) y
    for (int y = 0; y <= set.height; ++y) {
      for (int x = 0; x <= set.width; ++x) {
        const bool inside =
            std::all_of(region.faces.begin(), region.faces.end(), [&](const Face& q) {
              return q[2] ? domain.has_up(x + q[0], y + q[1]) : domain.has_down(x + q[0], y + q[1]);
            });
        if (inside) candidates.push_back(x + (set.width + 1) * y);
      }
    }
    std::vector<std::vector<std::int32_t>> by_class;
    if (colouring == MoveColouring::periodic) {
      set.colourings.push_back(rect_triangle_colouring(region));
      const RectTriangleColouring& periodic = set.colourings.back();
      by_class.resize(static_cast<std::size_t>(periodic.classes));
      for (const std::int32_t v : candidates) {
        by_class[static_cast<std::size_t>(periodic.of(v % (set.width + 1), v / (set.width + 1)))]
            .push_back(v);
      }
    } else {
      const RectTriangleMoveShape& shape = set.shapes.back();
      std::vector<std::int64_t> touched;  // the face bytes of each candidate's region
      for (const std::int32_t v : candidates) {
        for (int i = 0; i < shape.faces; ++i) touched.push_back(set.base_of(v) + shape.offset[i]);
      }
      by_class = kokkos_kernels_classes(candidates, shape.faces, touched,
                                        2 * std::int64_t{set.width} * set.height);
    }
    for (std::size_t c = 0; c < by_class.size(); ++c) {
      const auto& anchors = by_class[c];
      set.anchors.insert(set.anchors.end(), anchors.begin(), anchors.end());
      set.pair_family.push_back(static_cast<int>(f));
      set.pair_class.push_back(static_cast<int>(c));
      set.pair_offset.push_back(static_cast<std::int32_t>(set.anchors.size()));
    }
  }
  if (set.anchors.empty()) {
    throw std::invalid_argument(
        "rect-triangle moves: the domain is too small: no vertex has all six triangles around it "
        "inside the domain, so no local move can change a tiling");
  }
  return set;
}

std::vector<RectTriangleTiling> tilings_reachable_by_moves(const TriangularDomain& domain,
                                                           const RectTriangleMoveSet& moves,
                                                           const RectTriangleTiling& start,
                                                           std::size_t max_tilings) {
  validate_tiling(domain, start);
  std::set<RectTriangleTiling> seen{start};
  std::deque<RectTriangleTiling> queue{start};
  while (!queue.empty()) {
    const RectTriangleTiling current = queue.front();
    queue.pop_front();
    for (int p = 0; p < moves.pairs(); ++p) {
      const RectTriangleMoveShape& shape =
          moves.shapes[static_cast<std::size_t>(moves.pair_family[static_cast<std::size_t>(p)])];
      for (std::int32_t k = moves.pair_offset[static_cast<std::size_t>(p)];
           k < moves.pair_offset[static_cast<std::size_t>(p) + 1]; ++k) {
        const std::int32_t base = moves.base_of(moves.anchors[static_cast<std::size_t>(k)]);
        const int config = shape.config_at(current.codes().data(), base);
        if (config < 0) continue;
        for (int next = 0; next < shape.configs; ++next) {
          if (next == config) continue;
          RectTriangleTiling moved = current;
          shape.set_config(moved.codes().data(), base, next);
          if (!seen.insert(moved).second) continue;
          if (seen.size() > max_tilings) {
            throw std::invalid_argument("rect-triangle moves: more than " +
                                        std::to_string(max_tilings) + " reachable tilings");
          }
          queue.push_back(std::move(moved));
        }
      }
    }
  }
  return {seen.begin(), seen.end()};
}

}  // namespace portamc::tilings

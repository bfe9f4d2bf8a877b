#include "portamc/tilings/rect_triangle/rect_triangle_enumeration.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace portamc::tilings {
namespace rt = rect_triangle;
namespace {

constexpr std::uint8_t whole_face = 0x3F;

// Small triangles of a face: bits 2k and 2k+1 touch corner k (the halves of its two edges).
// The half at corner c of a face cut by the median from s holds both of c's small triangles and
// one of s's: bit 2s if c = s+1 (mod 3), else bit 2s+1, so the two halves are complementary.
std::uint8_t part_mask(const RectTriangleTilePart& part) {
  if (part.full) return whole_face;
  const int c = rt::star_centre_corner(part.j);
  const int far = (c + 1 + part.side) % 3, s = 3 - c - far;
  return static_cast<std::uint8_t>((3 << (2 * c)) | (1 << (2 * s + (c == (s + 1) % 3 ? 0 : 1))));
}

struct Placement {
  std::int32_t face;
  std::uint8_t mask;
};

class ExactCover {
 public:
  ExactCover(const TriangularDomain& domain,
             const std::function<bool(const std::vector<RectTriangleTile>&)>& visit,
             std::uint64_t node_limit)
      : domain_(domain), visit_(visit), node_limit_(node_limit) {
    const int w = domain.width(), h = domain.height();
    covered_.assign(2 * static_cast<std::size_t>(w) * static_cast<std::size_t>(h), whole_face);
    for (int cy = 0; cy < h; ++cy) {
      for (int cx = 0; cx < w; ++cx) {
        for (const bool up : {true, false}) {
          if (!(up ? domain.has_up(cx, cy) : domain.has_down(cx, cy))) continue;
          const std::int32_t f = rt::face_index(w, cx, cy, up);
          covered_[static_cast<std::size_t>(f)] = 0;
          order_.push_back(f);
          candidates_.push_back(face_candidates(cx, cy, up));
        }
      }
    }
  }

  void run() { search(0); }

 private:
  // The 15 tiles with a part in this face: one per code 1..15's claims, deduplicated.
  static std::vector<RectTriangleTile> face_candidates(int cx, int cy, bool up) {
    std::set<RectTriangleTile> all;
    for (int code = 1; code <= 15; ++code) {
      for (const auto& tile : tiles_claimed_by_face(cx, cy, up, code)) all.insert(tile);
    }
    return {all.begin(), all.end()};
  }

  // The tile's parts as (face, mask), or false if one leaves the domain or is taken.
  bool placements(const RectTriangleTile& tile, Placement out[6], int& count) const {
    count = 0;
    for (const RectTriangleTilePart& part : tile_parts(tile)) {
      const int px = tile.x + rt::star_cell_dx(part.j), py = tile.y + rt::star_cell_dy(part.j);
      if (px < 0 || py < 0 || px >= domain_.width() || py >= domain_.height()) return false;
      const std::int32_t f = rt::face_index(domain_.width(), px, py, rt::star_is_up(part.j));
      const std::uint8_t mask = part_mask(part);
      if ((covered_[static_cast<std::size_t>(f)] & mask) != 0) return false;
      out[count++] = {f, mask};
    }
    return true;
  }

  bool search(std::size_t pos) {  // false: stop
    while (pos < order_.size() && covered_[static_cast<std::size_t>(order_[pos])] == whole_face) {
      ++pos;
    }
    if (pos == order_.size()) return visit_(stack_);
    if (node_limit_ > 0 && ++nodes_ > node_limit_) {
      throw std::invalid_argument("rect-triangle enumeration: gave up after " +
                                  std::to_string(node_limit_) + " search steps");
    }
    const std::size_t f = static_cast<std::size_t>(order_[pos]);
    int bit = 0;
    while ((covered_[f] >> bit) & 1) ++bit;
    for (const RectTriangleTile& tile : candidates_[pos]) {
      Placement parts[6];
      int count = 0;
      if (!placements(tile, parts, count)) continue;
      bool covers_bit = false;
      for (int i = 0; i < count; ++i) {
        covers_bit = covers_bit ||
                     (static_cast<std::size_t>(parts[i].face) == f && ((parts[i].mask >> bit) & 1));
      }
      if (!covers_bit) continue;
      for (int i = 0; i < count; ++i)
        covered_[static_cast<std::size_t>(parts[i].face)] |= parts[i].mask;
      stack_.push_back(tile);
      const bool go_on = search(pos);
      stack_.pop_back();
      for (int i = 0; i < count; ++i) {
        covered_[static_cast<std::size_t>(parts[i].face)] &=
            static_cast<std::uint8_t>(~parts[i].mask);
      }
      if (!go_on) return false;
    }
    return true;
  }

  const TriangularDomain& domain_;
  const std::function<bool(const std::vector<RectTriangleTile>&)>& visit_;
  std::uint64_t node_limit_;
  std::uint64_t nodes_ = 0;
  std::vector<std::uint8_t> covered_;  // small-triangle masks; faces outside count as covered
  std::vector<std::int32_t> order_;    // the domain's faces
  std::vector<std::vector<RectTriangleTile>> candidates_;  // per entry of order_
  std::vector<RectTriangleTile> stack_;
};

}  // namespace

void for_each_rect_triangle_tiling(
    const TriangularDomain& domain,
    const std::function<bool(const std::vector<RectTriangleTile>&)>& visit,
    std::uint64_t node_limit) {
  ExactCover(domain, visit, node_limit).run();
}

std::uint64_t count_rect_triangle_tilings(const TriangularDomain& domain) {
  std::uint64_t n = 0;
  for_each_rect_triangle_tiling(domain, [&](const std::vector<RectTriangleTile>&) {
    ++n;
    return true;
  });
  return n;
}

std::vector<RectTriangleTiling> list_rect_triangle_tilings(const TriangularDomain& domain,
                                                           std::size_t max_tilings) {
  std::vector<RectTriangleTiling> out;
  for_each_rect_triangle_tiling(domain, [&](const std::vector<RectTriangleTile>& tiles) {
    if (out.size() == max_tilings) {
      throw std::invalid_argument("rect-triangle enumeration: more than " +
                                  std::to_string(max_tilings) + " tilings");
    }
    out.push_back(tiling_from_tiles(domain, tiles));
    return true;
  });
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<RectTriangleTiling> find_rect_triangle_tiling(const TriangularDomain& domain,
                                                            std::uint64_t node_limit) {
  std::optional<RectTriangleTiling> found;
  for_each_rect_triangle_tiling(
      domain,
      [&](const std::vector<RectTriangleTile>& tiles) {
        found = tiling_from_tiles(domain, tiles);
        return false;
      },
      node_limit);
  return found;
}

}  // namespace portamc::tilings

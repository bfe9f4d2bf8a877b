#pragma once
// One Glauber step of rectangle-triangle tilings on the device: every anchor of the chosen
// (family, class) pair whose region is tiled on its own (its face codes match one of the
// family's configurations) is re-tiled by heat bath, from one word
// u = draw(seed, purpose_tiling_update, family * vertex_count + anchor, step)[0] compared with
// the host-made integer thresholds. Regions of one class share no face (rect_triangle_moves.hpp)
// and a move reads and writes only its region's bytes, so threads never touch the same byte and
// all backends agree bit for bit.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/rect_triangle/detail/rect_triangle_moves.hpp"

namespace portamc::tilings {

template <class Space>
struct RectTriangleGlauberStep {
  Kokkos::View<std::uint8_t*, Space> codes;
  Kokkos::View<const std::int32_t*, Space> anchors;  ///< all pairs' anchors (vertex indices)
  std::int32_t first = 0;                            ///< the chosen pair's first anchor
  std::int32_t width = 0;                            ///< cells per row of the box
  RectTriangleMoveShape shape;
  std::uint64_t entity_base = 0;  ///< family * vertex_count
  std::uint64_t seed = 0;
  std::uint64_t step = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const {
    const std::int32_t vertex = anchors(first + k);
    const std::int32_t x = vertex % (width + 1), y = vertex / (width + 1);
    const std::int32_t base = 2 * (x + width * y);
    const int current = shape.config_at(codes.data(), base);
    if (current < 0) return;
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update,
                                      entity_base + static_cast<std::uint64_t>(vertex), step)[0];
    const int next = shape.choose(u);
    if (next != current) shape.set_config(codes.data(), base, next);
  }
};

}  // namespace portamc::tilings

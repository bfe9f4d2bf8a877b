#pragma once
// One Glauber step of lozenge tilings on the device: every vertex of the chosen colour class
// (vertex_colour in lozenge_tiling.hpp) surrounded by a hexagon of three lozenges gets the
// cube (partners (2, 0, 1)) or not ((1, 2, 0)) by the rule of glauber_weights.hpp. The three up
// triangles at a vertex have one corner in each class, so two vertices of one class never
// read or write the same byte: the step is free of races. Coupled = true moves CFTP's two
// chains with one random word per vertex.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/engine/detail/vertex_runs.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"
#include "portamc/tilings/lozenge/lozenge_tiling.hpp"

namespace portamc::tilings {

struct LozengeGeometry {
  std::int32_t width = 0;  ///< cells per row; vertex (x, y) has RNG entity x + (width + 1) y
  std::int32_t height = 0;
};

template <class Space, bool Coupled>
struct LozengeGlauberStep {
  Kokkos::View<std::uint8_t*, Space> upper;
  Kokkos::View<std::uint8_t*, Space> lower;              ///< used only when Coupled
  VertexRuns<Space> runs;                                ///< row = y, column = x
  Kokkos::View<const std::uint64_t*, Space> thresholds;  ///< lozenge_move_thresholds
  LozengeGeometry geometry;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;
  int colour = 0;  ///< the step's class (runs holds its vertices)

  /// Threads of one step: one per interior vertex of the class.
  static std::int32_t threads(const VertexRuns<Space>& runs, const LozengeGeometry&) {
    return runs.vertices;
  }

  /// -1: no hexagon at (x, y); 0: without the cube; 1: with it (lozenge_tiling.hpp's
  /// rotation_direction, on the raw bytes).
  KOKKOS_INLINE_FUNCTION int hexagon_state(const Kokkos::View<std::uint8_t*, Space>& t,
                                           std::int32_t x, std::int32_t y) const {
    const int d = rotation_direction(t.data(), geometry.width, geometry.height, x, y);
    return d > 0 ? 0 : (d < 0 ? 1 : -1);
  }

  KOKKOS_INLINE_FUNCTION void set_hexagon(const Kokkos::View<std::uint8_t*, Space>& t,
                                          std::int32_t x, std::int32_t y, int state,
                                          bool cube) const {
    if (cube == (state == 1)) return;
    rotate(t.data(), geometry.width, geometry.height, x, y, cube ? 1 : -1);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const {
    std::int32_t y = 0, x = 0;
    runs.locate(k, y, x);
    const int upper_state = hexagon_state(upper, x, y);
    const int lower_state = Coupled ? hexagon_state(lower, x, y) : -1;
    if (upper_state < 0 && lower_state < 0) return;
    const std::uint64_t entity =
        static_cast<std::uint64_t>(x) +
        static_cast<std::uint64_t>(geometry.width + 1) * static_cast<std::uint64_t>(y);
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update, entity, step)[0];
    if (upper_state >= 0)
      set_hexagon(upper, x, y, upper_state, ends_in_b(u, thresholds(upper_state)));
    if (Coupled && lower_state >= 0) {
      set_hexagon(lower, x, y, lower_state, ends_in_b(u, thresholds(lower_state)));
    }
  }
};

}  // namespace portamc::tilings

#pragma once
// Exact enumeration of the rectangle-triangle tilings of small domains, the reference for the
// Glauber sampler and for the connectivity of the vertex moves.
//
// Exact cover: the three medians cut every face into six small triangles, and every tile part
// (a whole face or a half cut by a median) is a union of them; so a tiling is exactly a set of
// tiles covering every small triangle of the domain once. The search always covers the first
// uncovered small triangle (faces in index order) with each of the tiles that can, so every
// tiling is produced once.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"

namespace portamc::tilings {

/// Calls visit with the tiles of every tiling (in placement order) until it returns false.
/// node_limit > 0 bounds the search steps; exceeding it throws std::invalid_argument.
void for_each_rect_triangle_tiling(
    const TriangularDomain& domain,
    const std::function<bool(const std::vector<RectTriangleTile>&)>& visit,
    std::uint64_t node_limit = 0);
std::uint64_t count_rect_triangle_tilings(const TriangularDomain& domain);
/// All tilings, sorted; throws std::invalid_argument once there are more than max_tilings.
std::vector<RectTriangleTiling> list_rect_triangle_tilings(const TriangularDomain& domain,
                                                           std::size_t max_tilings);
/// The first tiling the search finds, or nothing if there is none; throws
/// std::invalid_argument when the search needs more than node_limit steps.
std::optional<RectTriangleTiling> find_rect_triangle_tiling(const TriangularDomain& domain,
                                                            std::uint64_t node_limit);

}  // namespace portamc::tilings

#include "portamc/tilings/domino/domino_heights.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "domino_edges.hpp"

namespace portamc::tilings {
namespace {

std::string at_vertex(int i, int j) {
  return "vertex (" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

}  // namespace

namespace {

// Heights by walking edges from the reference vertex (h = 0) over the edges that step() accepts
// (it returns the height change, or kSkip): the boundary alone, or every edge of a tiling.
// A vertex reached twice with different heights means the walk is not path independent.
constexpr int kSkip = 1 << 30;

template <class Step>
std::vector<int> integrate_heights(const SquareDomain& domain, Step step, const char* who) {
  std::vector<int> h(domain.vertex_count(), 0);
  std::vector<std::uint8_t> seen(domain.vertex_count(), 0);
  const int i0 = domain.reference_row();
  const int j0 = domain.reference_col();
  seen[domain.vertex_index(i0, j0)] = 1;
  std::vector<std::pair<int, int>> stack{{i0, j0}};
  while (!stack.empty()) {
    const auto [i, j] = stack.back();
    stack.pop_back();
    const int hv = h[domain.vertex_index(i, j)];
    detail::for_each_domain_edge(domain, i, j, [&](const detail::Edge& e) {
      const int dh = step(e);
      if (dh == kSkip) return;
      const std::size_t k = domain.vertex_index(e.i, e.j);
      if (!seen[k]) {
        seen[k] = 1;
        h[k] = hv + dh;
        stack.push_back({e.i, e.j});
      } else if (h[k] != hv + dh) {
        // Cannot happen for a simply connected domain (and a valid tiling); kept as a guard.
        throw std::logic_error(std::string(who) + ": inconsistent heights at " +
                               at_vertex(e.i, e.j));
      }
    });
  }
  return h;
}

}  // namespace

std::vector<int> domino_boundary_heights(const SquareDomain& domain) {
  if (domain.black_count() != domain.white_count()) {
    throw std::invalid_argument(
        "domain is not tileable by dominoes: it has " + std::to_string(domain.black_count()) +
        " black and " + std::to_string(domain.white_count()) +
        " white faces (colour imbalance), so its boundary heights do not close up");
  }
  return integrate_heights(
      domain, [](const detail::Edge& e) { return e.inside_a && e.inside_b ? kSkip : e.plain_step; },
      "domino_boundary_heights");
}

std::vector<int> heights_from_tiling(const SquareDomain& domain, const DominoTiling& tiling) {
  require_valid_domino_tiling(domain, tiling);
  return integrate_heights(
      domain,
      [&](const detail::Edge& e) {
        return detail::is_domino_middle(tiling, e) ? -3 * e.plain_step : e.plain_step;
      },
      "heights_from_tiling");
}

std::string height_function_error(const SquareDomain& domain, const std::vector<int>& heights) {
  if (heights.size() != domain.vertex_count()) {
    return "height array has " + std::to_string(heights.size()) + " entries, the domain has " +
           std::to_string(domain.vertex_count()) + " vertices";
  }
  if (heights[domain.vertex_index(domain.reference_row(), domain.reference_col())] != 0) {
    return "height at the reference " + at_vertex(domain.reference_row(), domain.reference_col()) +
           " is not 0";
  }
  for (int i = 0; i < domain.vertex_rows(); ++i) {
    for (int j = 0; j < domain.vertex_cols(); ++j) {
      const int hv = heights[domain.vertex_index(i, j)];
      if (!domain.has_vertex(i, j)) {
        if (hv != 0)
          return at_vertex(i, j) + " is outside the domain but has height " + std::to_string(hv);
        continue;
      }
      std::string error;
      detail::for_each_domain_edge(domain, i, j, [&](const detail::Edge& e) {
        if (!error.empty()) return;
        // Step measured along the edge's orientation.
        const int along = (heights[domain.vertex_index(e.i, e.j)] - hv) * e.plain_step;
        const bool interior = e.inside_a && e.inside_b;
        if (along != 1 && !(along == -3 && interior)) {
          error = "height step " + std::to_string(along) + " along the edge from " +
                  at_vertex(i, j) + " to " + at_vertex(e.i, e.j) + " (allowed: +1" +
                  (interior ? " or -3)" : ", boundary edge)");
        }
      });
      if (!error.empty()) return error;
    }
  }
  return {};
}

DominoTiling tiling_from_heights(const SquareDomain& domain, const std::vector<int>& heights) {
  const std::string error = height_function_error(domain, heights);
  if (!error.empty()) throw std::invalid_argument("not a domino height function: " + error);
  DominoTiling tiling = DominoTiling::empty_for(domain);
  const auto h = [&](int i, int j) { return heights[domain.vertex_index(i, j)]; };
  for (int r = 0; r < domain.rows(); ++r) {
    for (int c = 0; c < domain.cols(); ++c) {
      if (!domain.contains(r, c)) continue;
      // The face's edges with their orientation steps; the one whose step is -3 is shared with
      // the partner.
      if ((h(r, c + 1) - h(r, c)) * east_step(r, c) == -3) {
        tiling.set(r, c, direction::north);
      } else if ((h(r + 1, c + 1) - h(r, c + 1)) * south_step(r, c + 1) == -3) {
        tiling.set(r, c, direction::east);
      } else if ((h(r + 1, c + 1) - h(r + 1, c)) * east_step(r + 1, c) == -3) {
        tiling.set(r, c, direction::south);
      } else {
        tiling.set(r, c, direction::west);
      }
    }
  }
  return tiling;
}

}  // namespace portamc::tilings

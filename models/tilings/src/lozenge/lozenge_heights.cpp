#include "portamc/tilings/lozenge/lozenge_heights.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

std::string point(int x, int y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

std::string vertex_name(const TriangularDomain& domain, int v) {
  return "vertex " + point(v % (domain.width() + 1), v / (domain.width() + 1));
}

LozengeHeights empty_heights(const TriangularDomain& domain) {
  return {domain.width(), domain.height(),
          std::vector<int>(static_cast<std::size_t>(domain.vertex_count()), no_height)};
}

// Spreads heights from the base vertex along the given edges, with step(edge) in the positive
// direction. The caller guarantees consistency (validated tiling, or boundary of a checked
// domain) except where noted.
template <class Step>
LozengeHeights integrate(const TriangularDomain& domain, const std::vector<DomainEdge>& edges,
                         Step step) {
  const int n = domain.vertex_count();
  std::vector<std::vector<int>> incident(static_cast<std::size_t>(n));
  for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
    incident[edges[e].from].push_back(e);
    incident[edges[e].to].push_back(e);
  }
  LozengeHeights heights = empty_heights(domain);
  const int base = base_vertex(domain);
  heights.values[base] = base_height(domain);
  std::vector<int> stack{base};
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int e : incident[v]) {
      const DomainEdge& edge = edges[e];
      const int other = edge.from == v ? edge.to : edge.from;
      const int value = heights.values[v] + (edge.from == v ? step(edge) : -step(edge));
      if (heights.values[other] == no_height) {
        heights.values[other] = value;
        stack.push_back(other);
      } else if (heights.values[other] != value) {
        throw std::invalid_argument("lozenge heights: the steps do not close at " +
                                    vertex_name(domain, other));
      }
    }
  }
  return heights;
}

}  // namespace

std::vector<DomainEdge> domain_edges(const TriangularDomain& domain) {
  std::vector<DomainEdge> edges;
  const int w = domain.width(), h = domain.height();
  // Every lattice edge is side k of exactly one up triangle, possibly outside the box: x = w
  // or y = h are reached through the down triangles of the last column and row.
  for (int y = 0; y <= h; ++y) {
    for (int x = 0; x <= w; ++x) {
      for (int k = 0; k < 3; ++k) {
        const bool up = domain.has_up(x, y);
        const bool down = domain.has_down(x + partner_dx(k), y + partner_dy(k));
        if (!up && !down) continue;
        static constexpr int fx[3] = {1, 0, 0}, fy[3] = {0, 1, 0};
        static constexpr int tx[3] = {0, 0, 1}, ty[3] = {1, 0, 0};
        edges.push_back({domain.vertex_index(x + fx[k], y + fy[k]),
                         domain.vertex_index(x + tx[k], y + ty[k]), x, y, k, up && down});
      }
    }
  }
  return edges;
}

int base_vertex(const TriangularDomain& domain) {
  for (int v = 0; v < domain.vertex_count(); ++v) {
    if (domain.contains_vertex(v % (domain.width() + 1), v / (domain.width() + 1))) return v;
  }
  throw std::invalid_argument("lozenge heights: the domain has no vertex");
}

int base_height(const TriangularDomain& domain) {
  const int v = base_vertex(domain);
  return v % (domain.width() + 1) - v / (domain.width() + 1);
}

LozengeHeights boundary_heights(const TriangularDomain& domain) {
  std::vector<DomainEdge> boundary;
  for (const DomainEdge& edge : domain_edges(domain)) {
    if (!edge.interior) boundary.push_back(edge);
  }
  return integrate(domain, boundary, [](const DomainEdge&) { return 1; });
}

LozengeHeights heights_from_tiling(const TriangularDomain& domain, const LozengeTiling& tiling) {
  validate_tiling(domain, tiling);
  return integrate(domain, domain_edges(domain), [&tiling](const DomainEdge& edge) {
    return edge.interior && tiling.partner(edge.up_x, edge.up_y) == edge.k ? -2 : 1;
  });
}

void validate_heights(const TriangularDomain& domain, const LozengeHeights& heights) {
  if (heights.width != domain.width() || heights.height != domain.height() ||
      heights.values.size() != static_cast<std::size_t>(domain.vertex_count())) {
    throw std::invalid_argument(
        "lozenge heights: a box of " + std::to_string(heights.width) + " x " +
        std::to_string(heights.height) + " cells with " + std::to_string(heights.values.size()) +
        " values does not match the domain's " + std::to_string(domain.width()) + " x " +
        std::to_string(domain.height()));
  }
  for (int v = 0; v < domain.vertex_count(); ++v) {
    const bool in = domain.contains_vertex(v % (domain.width() + 1), v / (domain.width() + 1));
    if (in != (heights.values[v] != no_height)) {
      throw std::invalid_argument(
          "lozenge heights: " + vertex_name(domain, v) +
          (in ? " is in the domain but has no height" : " is outside the domain but has a height"));
    }
  }
  const int base = base_vertex(domain);
  if (heights.values[base] != base_height(domain)) {
    throw std::invalid_argument("lozenge heights: the base " + vertex_name(domain, base) +
                                " has height " + std::to_string(heights.values[base]) +
                                " instead of " + std::to_string(base_height(domain)));
  }
  for (const DomainEdge& edge : domain_edges(domain)) {
    const int step = heights.values[edge.to] - heights.values[edge.from];
    if (step == 1 || (edge.interior && step == -2)) continue;
    throw std::invalid_argument(
        "lozenge heights: the step " + std::to_string(step) + " from " +
        vertex_name(domain, edge.from) + " to " + vertex_name(domain, edge.to) + " on " +
        (edge.interior ? "an interior edge is not +1 or -2" : "a boundary edge is not +1"));
  }
}

bool is_valid_heights(const TriangularDomain& domain, const LozengeHeights& heights) {
  try {
    validate_heights(domain, heights);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

LozengeTiling tiling_from_heights(const TriangularDomain& domain, const LozengeHeights& heights) {
  validate_heights(domain, heights);
  std::vector<std::uint8_t> partners(
      static_cast<std::size_t>(domain.width()) * static_cast<std::size_t>(domain.height()),
      no_lozenge);
  for (const DomainEdge& edge : domain_edges(domain)) {
    if (edge.interior && heights.values[edge.to] - heights.values[edge.from] == -2) {
      partners[edge.up_x + domain.width() * edge.up_y] = static_cast<std::uint8_t>(edge.k);
    }
  }
  LozengeTiling tiling(domain.width(), domain.height(), std::move(partners));
  validate_tiling(domain, tiling);  // steps around every triangle sum to 0, so this holds
  return tiling;
}

std::int64_t volume_between(const TriangularDomain& domain, const LozengeHeights& lower,
                            const LozengeHeights& upper) {
  validate_heights(domain, lower);
  validate_heights(domain, upper);
  std::int64_t sum = 0;
  for (std::size_t v = 0; v < lower.values.size(); ++v) {
    if (lower.values[v] != no_height) sum += upper.values[v] - lower.values[v];
  }
  return sum / 3;  // every difference is a multiple of 3 (h = x - y mod 3)
}

}  // namespace portamc::tilings

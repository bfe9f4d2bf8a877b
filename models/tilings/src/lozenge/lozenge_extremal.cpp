#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"

#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

std::string vertex_name(const TriangularDomain& domain, int v) {
  return "(" + std::to_string(v % (domain.width() + 1)) + ", " +
         std::to_string(v / (domain.width() + 1)) + ")";
}

// Largest function g with g = sign * (boundary heights) on the boundary and
// g(to) - g(from) <= forward, g(from) - g(to) <= backward on every positive edge: multi-source
// Dijkstra from the boundary. sign = -1 with costs (2, 1) yields -h_min.
std::vector<int> largest(const TriangularDomain& domain, const LozengeHeights& boundary, int sign,
                         int forward, int backward) {
  const int n = domain.vertex_count();
  std::vector<std::vector<std::pair<int, int>>> out(static_cast<std::size_t>(n));
  for (const DomainEdge& edge : domain_edges(domain)) {
    out[edge.from].push_back({edge.to, forward});
    out[edge.to].push_back({edge.from, backward});
  }
  std::vector<int> value(static_cast<std::size_t>(n), no_height);
  std::vector<int> source(static_cast<std::size_t>(n), -1);
  using Item = std::pair<int, std::pair<int, int>>;  // value, (vertex, source)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (int v = 0; v < n; ++v) {
    if (boundary.values[v] != no_height) queue.push({sign * boundary.values[v], {v, v}});
  }
  while (!queue.empty()) {
    const auto [d, vs] = queue.top();
    queue.pop();
    if (value[vs.first] != no_height) continue;
    value[vs.first] = d;
    source[vs.first] = vs.second;
    for (const auto& [w, cost] : out[vs.first]) {
      if (value[w] == no_height) queue.push({d + cost, {w, vs.second}});
    }
  }
  for (int v = 0; v < n; ++v) {
    if (boundary.values[v] != no_height && value[v] != sign * boundary.values[v]) {
      throw std::invalid_argument(
          "lozenge tilings: the domain is not tileable: the boundary heights at vertices " +
          vertex_name(domain, source[v]) + " and " + vertex_name(domain, v) +
          " differ by more than the lozenges between them allow (Thurston's condition fails "
          "at vertex " +
          vertex_name(domain, v) + ")");
    }
  }
  return value;
}

LozengeHeights extremal(const TriangularDomain& domain, bool maximal) {
  const LozengeHeights boundary = boundary_heights(domain);
  LozengeHeights heights = boundary;
  heights.values =
      maximal ? largest(domain, boundary, 1, 1, 2) : largest(domain, boundary, -1, 2, 1);
  if (!maximal) {
    for (int& h : heights.values) {
      if (h != no_height) h = -h;
    }
  }
  validate_heights(domain, heights);  // guaranteed by the construction; cheap to confirm
  return heights;
}

}  // namespace

LozengeHeights maximal_heights(const TriangularDomain& domain) {
  return extremal(domain, true);
}
LozengeHeights minimal_heights(const TriangularDomain& domain) {
  return extremal(domain, false);
}

LozengeTiling maximal_tiling(const TriangularDomain& domain) {
  return tiling_from_heights(domain, maximal_heights(domain));
}
LozengeTiling minimal_tiling(const TriangularDomain& domain) {
  return tiling_from_heights(domain, minimal_heights(domain));
}

bool is_tileable(const TriangularDomain& domain) {
  try {
    maximal_heights(domain);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::int64_t volume_above_minimum(const TriangularDomain& domain, const LozengeTiling& tiling) {
  return volume_between(domain, minimal_heights(domain), heights_from_tiling(domain, tiling));
}

}  // namespace portamc::tilings

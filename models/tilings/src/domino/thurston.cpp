#include "portamc/tilings/domino/thurston.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "domino_edges.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"

namespace portamc::tilings {
namespace {

std::string at_vertex(int i, int j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

struct Envelope {
  std::vector<int> heights;  // h_max (sign = +1) or h_min (sign = -1)
  DominoTileability report;
};

// sign = +1: h_max; sign = -1: h_min computed as -max of -h with the costs swapped.  Works on
// g = sign * h, for which walking u -> w with plain step s costs 2 - sign * s.
Envelope envelope(const SquareDomain& domain, int sign) {
  Envelope out;
  std::vector<int> boundary;
  try {
    boundary = domino_boundary_heights(domain);
  } catch (const std::invalid_argument& error) {
    out.report.reason = error.what();
    return out;
  }
  const std::size_t nv = domain.vertex_count();
  std::vector<int> label(nv, INT_MAX);
  std::vector<int> origin(nv, -1);  // boundary vertex that set the label, for error reports
  int lowest = INT_MAX;
  for (int i = 0; i < domain.vertex_rows(); ++i) {
    for (int j = 0; j < domain.vertex_cols(); ++j) {
      if (!domain.is_boundary_vertex(i, j)) continue;
      const std::size_t k = domain.vertex_index(i, j);
      label[k] = sign * boundary[k];
      origin[k] = static_cast<int>(k);
      lowest = std::min(lowest, label[k]);
    }
  }
  // Dial's bucket queue: bucket b holds vertices with tentative label lowest + b.
  std::vector<std::vector<int>> buckets;
  const auto push = [&](std::size_t k) {
    const std::size_t b = static_cast<std::size_t>(label[k] - lowest);
    if (b >= buckets.size()) buckets.resize(b + 1);
    buckets[b].push_back(static_cast<int>(k));
  };
  for (std::size_t k = 0; k < nv; ++k) {
    if (origin[k] >= 0) push(k);
  }
  const int vc = domain.vertex_cols();
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    for (std::size_t n = 0; n < buckets[b].size(); ++n) {
      const int k = buckets[b][n];
      if (label[k] - lowest != static_cast<int>(b)) continue;  // stale entry
      const int i = k / vc;
      const int j = k % vc;
      detail::for_each_domain_edge(domain, i, j, [&](const detail::Edge& e) {
        const std::size_t w = domain.vertex_index(e.i, e.j);
        const int candidate = label[k] + 2 - sign * e.plain_step;
        if (candidate < label[w]) {
          label[w] = candidate;
          origin[w] = origin[k];
          push(w);
        }
      });
    }
  }
  out.heights.assign(nv, 0);
  for (std::size_t k = 0; k < nv; ++k) {
    if (label[k] != INT_MAX) out.heights[k] = sign * label[k];
  }
  for (int i = 0; i < domain.vertex_rows(); ++i) {
    for (int j = 0; j < domain.vertex_cols(); ++j) {
      if (!domain.is_boundary_vertex(i, j)) continue;
      const std::size_t k = domain.vertex_index(i, j);
      if (out.heights[k] == boundary[k]) continue;
      const int o = origin[k];
      out.report.vertex_row = i;
      out.report.vertex_col = j;
      out.report.reason = "domain is not tileable by dominoes: boundary vertex " + at_vertex(i, j) +
                          " has fixed height " + std::to_string(boundary[k]) +
                          ", but boundary vertex " + at_vertex(o / vc, o % vc) + " (height " +
                          std::to_string(boundary[o]) + ") forces it to be at " +
                          (sign > 0 ? "most " : "least ") + std::to_string(out.heights[k]);
      return out;
    }
  }
  out.report.tileable = true;
  return out;
}

std::vector<int> checked(const SquareDomain& domain, int sign) {
  Envelope e = envelope(domain, sign);
  if (!e.report.tileable) throw std::invalid_argument(e.report.reason);
  return std::move(e.heights);
}

}  // namespace

DominoTileability domino_tileability(const SquareDomain& domain) {
  return envelope(domain, +1).report;
}

std::vector<int> maximal_domino_heights(const SquareDomain& domain) {
  return checked(domain, +1);
}

std::vector<int> minimal_domino_heights(const SquareDomain& domain) {
  return checked(domain, -1);
}

DominoTiling maximal_domino_tiling(const SquareDomain& domain) {
  return tiling_from_heights(domain, maximal_domino_heights(domain));
}

DominoTiling minimal_domino_tiling(const SquareDomain& domain) {
  return tiling_from_heights(domain, minimal_domino_heights(domain));
}

}  // namespace portamc::tilings

#include "portamc/tilings/engine/detail/move_colouring.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/tilings/engine/detail/move_colouring_kokkos_kernels.hpp"

namespace portamc::tilings {

bool move_colouring_available(MoveColouring colouring) {
#ifdef PORTAMC_HAVE_KOKKOSKERNELS
  (void)colouring;
  return true;
#else
  return colouring == MoveColouring::periodic;
#endif
}

void require_available(MoveColouring colouring) {
  if (!move_colouring_available(colouring))
    throw std::invalid_argument(
        "move colouring kokkos_kernels: this portamc was built without Kokkos Kernels "
        "(PORTAMC_ENABLE_KOKKOSKERNELS=OFF or not found); use the periodic colouring");
}

int ConflictGraph::max_degree() const {
  std::size_t degree = 0;
  for (std::size_t v = 0; v + 1 < row_map.size(); ++v)
    degree = std::max(degree, row_map[v + 1] - row_map[v]);
  return static_cast<int>(degree);
}

ConflictGraph conflict_graph(int per_vertex, const std::vector<std::int64_t>& touched,
                             std::int64_t resources) {
  if (per_vertex <= 0 || touched.size() % static_cast<std::size_t>(per_vertex) != 0)
    throw std::logic_error("conflict graph: touched is not a whole number of moves");
  const std::size_t n = touched.size() / static_cast<std::size_t>(per_vertex);
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("conflict graph: more than 2^31 - 1 moves in one family");
  // Resource -> the moves touching it (counting sort, moves in increasing order).
  std::vector<std::size_t> first(static_cast<std::size_t>(resources) + 1, 0);
  for (const std::int64_t r : touched) {
    if (r < 0 || r >= resources) throw std::logic_error("conflict graph: resource out of range");
    ++first[static_cast<std::size_t>(r) + 1];
  }
  for (std::size_t r = 0; r < static_cast<std::size_t>(resources); ++r) first[r + 1] += first[r];
  std::vector<int> users(touched.size());
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (std::size_t k = 0; k < touched.size(); ++k)
    users[next[static_cast<std::size_t>(touched[k])]++] =
        static_cast<int>(k / static_cast<std::size_t>(per_vertex));
  ConflictGraph g;
  g.row_map.reserve(n + 1);
  std::vector<int> row;
  for (std::size_t v = 0; v < n; ++v) {
    row.clear();
    for (int i = 0; i < per_vertex; ++i) {
      const auto r = static_cast<std::size_t>(
          touched[v * static_cast<std::size_t>(per_vertex) + static_cast<std::size_t>(i)]);
      for (std::size_t j = first[r]; j < first[r + 1]; ++j)
        if (users[j] != static_cast<int>(v)) row.push_back(users[j]);
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    g.entries.insert(g.entries.end(), row.begin(), row.end());
    g.row_map.push_back(g.entries.size());
  }
  return g;
}

void check_colouring(const ConflictGraph& g, const std::vector<int>& colours) {
  if (colours.size() != static_cast<std::size_t>(g.vertices()))
    throw std::logic_error("move colouring: " + std::to_string(colours.size()) + " colours for " +
                           std::to_string(g.vertices()) + " moves");
  for (int v = 0; v < g.vertices(); ++v) {
    const int c = colours[static_cast<std::size_t>(v)];
    if (c < 0)
      throw std::logic_error("move colouring: move " + std::to_string(v) + " left uncoloured");
    for (std::size_t j = g.row_map[static_cast<std::size_t>(v)];
         j < g.row_map[static_cast<std::size_t>(v) + 1]; ++j) {
      if (colours[static_cast<std::size_t>(g.entries[j])] == c)
        throw std::logic_error("move colouring: conflicting moves " + std::to_string(v) + " and " +
                               std::to_string(g.entries[j]) + " share colour " + std::to_string(c));
    }
  }
}

std::vector<int> colour_conflict_graph(const ConflictGraph& g) {
  require_available(MoveColouring::kokkos_kernels);
  // On the host memory space's execution space whatever the run's backend, so that every
  // backend gets the same classes (move_colouring.hpp).
  return kokkos_kernels_colours(Kokkos::HostSpace::execution_space(), g);
}

std::vector<std::vector<std::int32_t>> kokkos_kernels_classes(
    const std::vector<std::int32_t>& anchors, int per_vertex,
    const std::vector<std::int64_t>& touched, std::int64_t resources) {
  if (touched.size() != anchors.size() * static_cast<std::size_t>(per_vertex))
    throw std::logic_error("move colouring: touched does not match the anchors");
  const std::vector<int> colours =
      colour_conflict_graph(conflict_graph(per_vertex, touched, resources));
  std::vector<std::vector<std::int32_t>> classes;
  for (std::size_t k = 0; k < anchors.size(); ++k) {
    const auto c = static_cast<std::size_t>(colours[k]);
    if (classes.size() <= c) classes.resize(c + 1);
    classes[c].push_back(anchors[k]);
  }
  return classes;
}

}  // namespace portamc::tilings

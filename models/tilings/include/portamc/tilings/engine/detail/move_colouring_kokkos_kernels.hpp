#pragma once
// The Kokkos Kernels call behind colour_conflict_graph (move_colouring.hpp), templated on the
// execution space so a test can colour on every backend of the build and compare. Only
// move_colouring.cpp and tests include it (it pulls in Kokkos Kernels).
//
// Algorithm: COLORING_VBDBIT, the bit-array form of the deterministic vertex-based colouring
// (VBD). Both forms visit the vertices in the same dependency order and give each the smallest
// colour its already coloured neighbours lack, so they return the same colouring; plain
// COLORING_VBD (Kokkos Kernels 3.4 and 4.6) sizes its banned-colour table by the maximum degree
// and only tries colours below it, so it leaves vertices uncoloured (colour 0) on graphs of
// maximum degree 0 or 1 (a lone move, two conflicting ones) and whenever greedy needs a colour
// >= the maximum degree. VBDBIT has no such table but loops forever if a vertex needs more
// than 64 colours, which greedy cannot when the maximum degree is below 64; beyond that (no
// family here comes close) VBD is used and the result checked.
#ifdef PORTAMC_HAVE_KOKKOSKERNELS
#include <KokkosGraph_Distance1Color.hpp>
#include <KokkosKernels_Handle.hpp>
#endif
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "portamc/tilings/engine/detail/move_colouring.hpp"

namespace portamc::tilings {

/// Colours (0-based) of g by Kokkos Kernels on `space`; checked to be proper. Kokkos Kernels'
/// graph_color (3.4 and 4.6) takes no execution space instance: it runs on Space's default
/// instance, once the work queued on `space` is done (space.fence()).
template <class Space>
std::vector<int> kokkos_kernels_colours(const Space& space, const ConflictGraph& g) {
#ifdef PORTAMC_HAVE_KOKKOSKERNELS
  space.fence();
  using Memory = typename Space::memory_space;
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<std::size_t, int, double, Space,
                                                                  Memory, Memory>;
  const int n = g.vertices();
  if (n == 0) return {};
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  Kokkos::View<std::size_t*, Space> row_map("portamc::tilings::conflict_row_map", g.row_map.size());
  Kokkos::deep_copy(row_map, Kokkos::View<const std::size_t*, Kokkos::HostSpace, Unmanaged>(
                                 g.row_map.data(), g.row_map.size()));
  Kokkos::View<int*, Space> entries("portamc::tilings::conflict_entries", g.entries.size());
  Kokkos::deep_copy(entries, Kokkos::View<const int*, Kokkos::HostSpace, Unmanaged>(
                                 g.entries.data(), g.entries.size()));
  Handle handle;
  handle.create_graph_coloring_handle(g.max_degree() < 64 ? KokkosGraph::COLORING_VBDBIT
                                                          : KokkosGraph::COLORING_VBD);
  KokkosGraph::Experimental::graph_color(&handle, n, n, row_map, entries);
  const auto colours = handle.get_graph_coloring_handle()->get_vertex_colors();
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), colours);
  handle.destroy_graph_coloring_handle();
  std::vector<int> out(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) out[static_cast<std::size_t>(v)] = static_cast<int>(host(v)) - 1;
  check_colouring(g, out);
  return out;
#else
  (void)space;
  (void)g;
  require_available(MoveColouring::kokkos_kernels);
  return {};
#endif
}

}  // namespace portamc::tilings

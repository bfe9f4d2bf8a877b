#pragma once
// How the anchors of one move family (bibone cycles, rectangle-triangle regions) are split into
// colour classes whose moves touch pairwise disjoint bytes, so that a Glauber step may update a
// whole class in parallel without races.
//   periodic        a sublattice colouring of Z^2 found once per family shape (bibone_moves.hpp,
//                   rect_triangle_moves.hpp): the same classes in every domain, empty ones
//                   included;
//   kokkos_kernels  the conflict graph of the family's candidate anchors IN THE DOMAIN (two
//                   anchors adjacent iff their moves share a byte: a site, a face) coloured by
//                   Kokkos Kernels' deterministic vertex-based distance-1 colouring (VBDBIT, see
//                   move_colouring_kokkos_kernels.hpp), so
//                   irregular domains get no empty classes and the colouring adapts to the
//                   boundary.
// The colouring runs on the host memory space's execution space (Kokkos::HostSpace::
// execution_space), so samplers on every backend get the same classes (and the same chain:
// steps pick pairs by index). The VBD result depends only on the graph: a vertex is coloured
// once all its neighbours of higher degree (equal degree: higher index) are, with the smallest
// colour none of them has, so neither thread count nor backend changes it (test_move_colouring
// checks every backend of the build against Serial).
// Cost: greedy colours are not minimal on the regular interior; on large hexagons kokkos_kernels
// gives about 69-70 bibone pairs (periodic: 50) and 28 rectangle-triangle pairs (periodic: 21),
// i.e. more, smaller launches per sweep; small irregular domains get fewer pairs than periodic.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace portamc::tilings {

enum class MoveColouring { periodic, kokkos_kernels };

/// kokkos_kernels where Kokkos Kernels is linked (core defines PORTAMC_HAVE_KOKKOSKERNELS),
/// else periodic.
inline constexpr MoveColouring default_move_colouring =
#ifdef PORTAMC_HAVE_KOKKOSKERNELS
    MoveColouring::kokkos_kernels;
#else
    MoveColouring::periodic;
#endif

/// The names of move_colouring_names() (names.hpp), which also parses them.
const char* to_string(MoveColouring colouring);
/// Whether this build can colour that way (kokkos_kernels needs Kokkos Kernels).
bool move_colouring_available(MoveColouring colouring);
/// Throws std::invalid_argument with the reason when this build cannot colour that way.
void require_available(MoveColouring colouring);

/// A symmetric graph without self-loops in CRS form: the neighbours of vertex v are
/// entries[row_map[v] .. row_map[v + 1]), increasing.
struct ConflictGraph {
  std::vector<std::size_t> row_map{0};
  std::vector<int> entries;
  int vertices() const { return static_cast<int>(row_map.size()) - 1; }
  int max_degree() const;
};

/// Vertex v touches the resources touched[v * per_vertex .. (v + 1) * per_vertex), indices in
/// [0, resources); two vertices are adjacent iff they touch a common resource.
ConflictGraph conflict_graph(int per_vertex, const std::vector<std::int64_t>& touched,
                             std::int64_t resources);

/// Colours 0 .. k-1 of the vertices, a proper colouring of g (throws std::logic_error if the
/// colouring library returned anything else). The Kokkos Kernels VBD colouring on the host
/// execution space; throws std::invalid_argument in a build without Kokkos Kernels.
std::vector<int> colour_conflict_graph(const ConflictGraph& g);

/// Checks that colours (0-based) is a proper colouring of g; throws std::logic_error naming the
/// first defect.
void check_colouring(const ConflictGraph& g, const std::vector<int>& colours);

/// A family's anchors (increasing; anchor k touches touched[k * per_vertex ..]) split into
/// colour classes by colour_conflict_graph: classes[c] holds the anchors of colour c, in
/// increasing order. No anchors: no classes.
std::vector<std::vector<std::int32_t>> kokkos_kernels_classes(
    const std::vector<std::int32_t>& anchors, int per_vertex,
    const std::vector<std::int64_t>& touched, std::int64_t resources);

}  // namespace portamc::tilings

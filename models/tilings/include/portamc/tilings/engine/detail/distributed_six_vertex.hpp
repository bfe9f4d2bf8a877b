#pragma once
// The forward heat-bath chain of the six-vertex model (SixVertexGlauber with one chain) over
// the ranks of a Communicator. The height function's face rows are split into slabs
// (slab_decomposition.hpp's row_slab over rows + 1 face rows of cols + 1 faces). A face move
// reads its four side and four diagonal neighbours (rows i - 1 .. i + 1) and writes face i
// only, so each rank updates the interior faces of its own rows, reading one halo row on
// each side, and sends its boundary rows to its neighbours after every pass (halo_rows.hpp).
// The class of step t and the word of face f are drawn as on one rank (rng keyed by (seed,
// t) and (seed, global face, t)): the slabs put together are bitwise SixVertexGlauber's
// state, whatever the number of ranks (row_slab_chain.hpp, with the family below). Coupling
// from the past stays on one rank.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/parallel.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/row_slab_chain.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_colouring.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_kernels.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_local.hpp"
#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"
#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"
#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

namespace portamc::tilings {

/// The faces of a colour class in face rows [first_row, end_row).
inline SixVertexColourClass restrict_class(const SixVertexColourClass& c, int first_row,
                                           int end_row) {
  SixVertexColourClass out;
  for (int p = 0; p < 2; ++p) {
    const SixVertexSublattice& s = c.part[p];
    SixVertexSublattice& r = out.part[p];
    if (s.size() == 0) continue;
    // Rows s.first_row + 2 a, 0 <= a < s.rows, inside [first_row, end_row).
    const auto up = [&](int row) { return std::max(0, (row - s.first_row + 1) / 2); };
    const int a0 = std::min(s.rows, up(first_row)), a1 = std::min(s.rows, up(end_row));
    if (a1 <= a0) continue;
    r.first_row = s.first_row + 2 * a0;
    r.first_col = s.first_col;
    r.rows = a1 - a0;
    r.cols = s.cols;
  }
  if (out.part[0].size() == 0 && out.part[1].size() != 0) std::swap(out.part[0], out.part[1]);
  out.size = out.part[0].size() + out.part[1].size();
  return out;
}

/// SixVertexHeatBathStep for one chain on a slab whose local row 0 is face row first_row.
template <class MemorySpace>
struct SixVertexSlabStep {
  Kokkos::View<six_vertex_height*, MemorySpace> heights;
  HeatBathTable table;
  SixVertexColourClass colour;
  std::int32_t face_cols = 0;
  std::int32_t first_row = 0;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int32_t k) const {
    std::int32_t member = k;
    const int part = member < colour.part[0].size() ? 0 : 1;
    if (part == 1) member -= colour.part[0].size();
    const SixVertexSublattice& lattice = colour.part[part];
    const std::int32_t i = lattice.first_row + 2 * (member / lattice.cols);
    const std::int32_t j = lattice.first_col + 2 * (member % lattice.cols);
    const std::int32_t face = i * face_cols + j;  // global: the RNG entity of one chain
    const std::int32_t at = (i - first_row) * face_cols + j;
    six_vertex_height* h = heights.data();
    const FlipSite site = flip_site(h, at, 1, face_cols);
    if (!site.movable) return;
    const std::uint32_t word =
        rng::draw(seed, rng::purpose_tiling_update, static_cast<std::uint64_t>(face), step)[0];
    h[at] = static_cast<six_vertex_height>(heat_bath_height(site, table, word));
  }
};

/// The slab chain's family (row_slab_chain.hpp) of the six-vertex model with one chain: the
/// elements are face heights, a rank runs the faces of its owned rows.
struct SixVertexSlabFamily : ClassStepFamily<SixVertexSlabFamily> {
  using Element = six_vertex_height;
  SixVertexBoundary boundary;
  HeatBathTable table;
  std::vector<SixVertexColourClass> whole;  ///< the classes of the whole block

  int rows() const { return boundary.face_rows(); }
  int row_length() const { return boundary.face_cols(); }
  int halo() const { return 1; }
  int classes() const { return static_cast<int>(whole.size()); }

  template <class Space>
  struct Moves {
    std::vector<SixVertexColourClass> local;  ///< restricted to the owned rows
    std::vector<std::int32_t> sizes;          ///< of the whole block
    std::int64_t size(int c) const { return sizes[static_cast<std::size_t>(c)]; }
  };
  template <class Space>
  Moves<Space> slab_moves(const Space& /*space*/, const RowSlab& slab) const {
    Moves<Space> m;
    for (const SixVertexColourClass& c : whole) {
      m.local.push_back(restrict_class(c, slab.own_begin, slab.own_end));
      m.sizes.push_back(c.size);
    }
    return m;
  }
  template <class Space>
  void launch_class(const Space& space, const Kokkos::View<six_vertex_height*, Space>& heights,
                    const Moves<Space>& m, int c, const RowSlab& slab, std::uint64_t seed,
                    std::uint64_t t) const {
    const SixVertexColourClass& colour = m.local[static_cast<std::size_t>(c)];
    if (colour.size == 0) return;
    Kokkos::parallel_for(
        "portamc::tilings::six_vertex_slab_heat_bath",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space, 0, colour.size),
        SixVertexSlabStep<typename Space::memory_space>{
            heights, table, colour, boundary.face_cols(), slab.local_begin, seed, t});
  }
};

template <class ExecutionSpace>
class DistributedSixVertexGlauber : public RowSlabChain<SixVertexSlabFamily, ExecutionSpace> {
  using Chain = RowSlabChain<SixVertexSlabFamily, ExecutionSpace>;

 public:
  /// Collective. Throws std::invalid_argument (on every rank alike) for bad weights, heights
  /// beyond int16, or fewer face rows than ranks. All kernels run on `space`.
  DistributedSixVertexGlauber(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                              const SixVertexWeights& weights, std::uint64_t seed,
                              const SixVertexHeights& initial, const parallel::Communicator& comm)
      : Chain(space, make_family(boundary, weights), seed, comm, "six-vertex model") {
    set_state(initial);
  }

  int class_count() const { return this->family().classes(); }
  std::uint64_t step_count() const { return this->steps_done(); }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_step_count(std::uint64_t steps) { this->set_steps_done(steps); }

  void set_state(const SixVertexHeights& state) {
    validate_six_vertex_heights(this->family().boundary, state);
    this->set_whole_state(
        std::vector<six_vertex_height>(state.values().begin(), state.values().end()));
  }

  /// Collective: the whole height function on rank 0; an empty SixVertexHeights elsewhere.
  SixVertexHeights state_on_root() const {
    const std::vector<six_vertex_height> all = Chain::state_on_root();
    if (!this->communicator().is_root()) return {};
    const SixVertexBoundary& b = this->family().boundary;
    return SixVertexHeights(b.rows(), b.cols(), std::vector<int>(all.begin(), all.end()));
  }

 private:
  static SixVertexSlabFamily make_family(const SixVertexBoundary& boundary,
                                         const SixVertexWeights& weights) {
    if (boundary.max_abs_height() > 32767) {
      throw std::invalid_argument("six-vertex dynamics: heights up to " +
                                  std::to_string(boundary.max_abs_height()) +
                                  " do not fit the int16 height arrays (|h| <= 32767)");
    }
    SixVertexSlabFamily f{{}, boundary, heat_bath_thresholds(weights), {}};
    f.whole =
        six_vertex_colour_classes(boundary.rows(), boundary.cols(), is_diagonal_free(f.table));
    return f;
  }
};

}  // namespace portamc::tilings

#pragma once
// The forward heat-bath chain of the six-vertex model (SixVertexGlauber with one chain) over
// the ranks of a Communicator. The height function's face rows are split into slabs
// (slab_decomposition.hpp's row_slab over rows + 1 face rows of cols + 1 faces). A face move
// reads its four side and four diagonal neighbours (rows i - 1 .. i + 1) and writes face i
// only, so each rank updates the interior faces of its own rows, reading one halo row on
// each side, and sends its boundary rows to its neighbours after every pass (halo_rows.hpp).
// The class of step t and the word of face f are drawn as on one rank (rng keyed by (seed,
// t) and (seed, global face, t)): the slabs put together are bitwise SixVertexGlauber's
// state, whatever the number of ranks. Coupling from the past stays on one rank.
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
#include "portamc/tilings/engine/detail/halo_rows.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_colouring.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_kernels.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_local.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
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

template <class ExecutionSpace>
class DistributedSixVertexGlauber {
 public:
  using memory_space = typename ExecutionSpace::memory_space;
  using HeightView = Kokkos::View<six_vertex_height*, memory_space>;

  /// Collective. Throws std::invalid_argument (on every rank alike) for bad weights, heights
  /// beyond int16, or fewer face rows than ranks. All kernels run on `space`.
  DistributedSixVertexGlauber(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                              const SixVertexWeights& weights, std::uint64_t seed,
                              const SixVertexHeights& initial, const parallel::Communicator& comm)
      : space_(space),
        boundary_(boundary),
        table_(heat_bath_thresholds(weights)),
        seed_(seed),
        comm_(comm),
        slab_(row_slab(boundary.face_rows(), boundary.face_cols(), comm.rank(), comm.size(),
                       "six-vertex model")) {
    if (boundary.max_abs_height() > 32767) {
      throw std::invalid_argument("six-vertex dynamics: heights up to " +
                                  std::to_string(boundary.max_abs_height()) +
                                  " do not fit the int16 height arrays (|h| <= 32767)");
    }
    for (const SixVertexColourClass& c :
         six_vertex_colour_classes(boundary.rows(), boundary.cols(), is_diagonal_free(table_))) {
      classes_.push_back(restrict_class(c, slab_.own_begin, slab_.own_end));
      class_sizes_.push_back(c.size);
    }
    require_memory<ExecutionSpace>(
        static_cast<std::size_t>(slab_.local_cells()) * sizeof(six_vertex_height),
        "six-vertex slab of the distributed chain");
    heights_ = HeightView("portamc::tilings::six_vertex_slab",
                          static_cast<std::size_t>(slab_.local_cells()));
    set_state(initial);
    halo_ = RowHaloExchange<memory_space, six_vertex_height>(comm_, slab_);
  }

  const ExecutionSpace& space() const { return space_; }
  const RowSlab& slab() const { return slab_; }
  int class_count() const { return static_cast<int>(classes_.size()); }
  std::uint64_t step_count() const { return steps_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_step_count(std::uint64_t steps) { steps_ = steps; }
  std::string transport() const { return halo_.transport(); }
  /// Order of the classes over the steps (class_order.hpp), as on one rank.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  /// Collective: halos travel as `transport` says from now on (parallel.halo_transport).
  void set_halo_transport(parallel::HaloTransport transport) {
    halo_ = RowHaloExchange<memory_space, six_vertex_height>(comm_, slab_, transport);
  }

  void set_state(const SixVertexHeights& state) {
    validate_six_vertex_heights(boundary_, state);
    auto host = Kokkos::create_mirror_view(heights_);
    const std::size_t first =
        static_cast<std::size_t>(slab_.local_begin) * static_cast<std::size_t>(slab_.row_length);
    for (std::size_t f = 0; f < host.extent(0); ++f)
      host(f) = static_cast<six_vertex_height>(state.values()[first + f]);
    Kokkos::deep_copy(heights_, host);
  }

  /// Collective: steps step_count() + 1 .. step_count() + n.
  void run_steps(std::uint64_t n) {
    using Policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int32_t>>;
    for (std::uint64_t s = 0; s < n; ++s) {
      const std::uint64_t t = ++steps_;
      const int c = step_class(class_order_, seed_, t, static_cast<int>(classes_.size()));
      const SixVertexColourClass& colour = classes_[static_cast<std::size_t>(c)];
      if (colour.size > 0) {
        Kokkos::parallel_for(
            "portamc::tilings::six_vertex_slab_heat_bath", Policy(space_, 0, colour.size),
            SixVertexSlabStep<memory_space>{heights_, table_, colour, boundary_.face_cols(),
                                            slab_.local_begin, seed_, t});
      }
      if (class_sizes_[static_cast<std::size_t>(c)] > 0) halo_.run(heights_);  // else no writes
    }
  }
  void run_sweeps(std::uint64_t sweeps) {
    run_steps(sweeps * static_cast<std::uint64_t>(class_count()));
  }

  /// Collective: the whole height function on rank 0; an empty SixVertexHeights elsewhere.
  SixVertexHeights state_on_root() const {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), heights_);
    const auto first = static_cast<std::size_t>(slab_.local_offset(slab_.own_begin));
    std::vector<int> own(static_cast<std::size_t>(slab_.own_cells()));
    for (std::size_t f = 0; f < own.size(); ++f) own[f] = host(first + f);
    std::vector<int> all = comm_.gather(own);
    if (!comm_.is_root()) return {};
    return SixVertexHeights(boundary_.rows(), boundary_.cols(), std::move(all));
  }

 private:
  ExecutionSpace space_;
  SixVertexBoundary boundary_;
  HeatBathTable table_;
  std::uint64_t seed_;
  ClassOrder class_order_ = ClassOrder::random;
  parallel::Communicator comm_;
  RowSlab slab_;
  std::vector<SixVertexColourClass> classes_;  ///< restricted to the owned rows
  std::vector<std::int32_t> class_sizes_;      ///< of the whole domain
  HeightView heights_;
  RowHaloExchange<memory_space, six_vertex_height> halo_;
  std::uint64_t steps_ = 0;
};

}  // namespace portamc::tilings

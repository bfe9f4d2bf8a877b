#pragma once
// The slab chain families (row_slab_chain.hpp) of bibone and rectangle-triangle tilings, and
// the chain class their samplers share; BiboneGlauber and RectTriangleGlauber
// (bibone_glauber.hpp, rect_triangle_glauber.hpp) run them on one rank or over several.
//
// Row span. Both states are rows of bytes: bibone sites x + width y (row y, `width` bytes),
// rectangle-triangle faces 2 (x + width y) + (0 up, 1 down) (row y, 2 width bytes). A move
// (a bibone cycle, a rectangle-triangle region) at an anchor reads and writes the bytes of
// its sites/faces only, which lie in rows [y + dy_min, y + dy_max] of its anchor row y; the
// span s = dy_max - dy_min is fixed per family (bibone_cycles, rect_triangle_regions):
//   bibone: rhombi 1 (orientations 0, 2) and 2 (orientation 1), triangles of side 2: 2,
//   butterflies 2, 3 and 3 (butterfly 2 covers dy = 0..3), so h = 3;
//   rect_triangle: all seven families are re-tilings of the star (the six faces around the
//   anchor vertex: cell rows y - 1 and y), so s = 1 and h = 1, as for lozenges.
// bibone_row_span / rect_triangle_row_span compute h from the shapes, so a new family widens
// the halo by itself. The slab carries h halo rows on each side (slab_decomposition.hpp) and
// every rank owns at least h rows.
//
// Which anchors a rank runs: every anchor of the chosen (family, class) pair whose move
// touches an owned row; such a move lies within the local rows (row_slab_chain.hpp says why
// this is the one-rank chain).
//
// The one-rank kernels (BiboneGlauberStep, RectTriangleGlauberStep) run unchanged: a rank's
// anchors are translated to its local rows (bibone: minus local_begin * width sites;
// rect_triangle: minus local_begin * (width + 1) vertices, which keeps x = vertex mod
// (width + 1)) and the RNG entity base is raised by the same amount, so the entity, and every
// decision, is the one-rank one. Forward chains only (neither model has CFTP). Memory: every
// rank builds the whole move set and the start state on the host; the device holds the slab
// and its anchors.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/parallel.hpp"
#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/bibone/detail/bibone_glauber_kernel.hpp"
#include "portamc/tilings/bibone/detail/bibone_moves.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/row_slab_chain.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/rect_triangle/detail/rect_triangle_glauber_kernel.hpp"
#include "portamc/tilings/rect_triangle/detail/rect_triangle_moves.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"

namespace portamc::tilings {

/// Largest row span dy_max - dy_min of the bibone cycle families (the halo h they need).
inline int bibone_row_span(const BiboneMoveSet& moves) {
  int span = 0;
  for (const BiboneCycle& cycle : moves.cycles) {
    int lo = 0, hi = 0;
    for (const auto& o : cycle.offsets()) {
      lo = std::min(lo, o[1]);
      hi = std::max(hi, o[1]);
    }
    span = std::max(span, hi - lo);
  }
  return span;
}
/// Largest row span of the rectangle-triangle move regions (faces' cell dy).
inline int rect_triangle_row_span(const RectTriangleMoveSet& moves) {
  int span = 0;
  for (const RectTriangleRegion& region : moves.regions) {
    int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
    for (const auto& f : region.faces) {
      lo = std::min(lo, f[1]);
      hi = std::max(hi, f[1]);
    }
    if (!region.faces.empty()) span = std::max(span, hi - lo);
  }
  return span;
}

/// The anchors of every pair restricted to the moves that touch an owned row of `slab`, and
/// translated by -`shift` (anchor units). `rows_of(anchor, family, lo, hi)` gives the rows a
/// move touches. Throws std::logic_error if a kept move leaves the local rows (a wrong halo).
struct SlabAnchors {
  std::vector<std::int32_t> pair_offset;  ///< pairs + 1 entries into anchors
  std::vector<std::int32_t> anchors;      ///< local anchors
  std::vector<std::int64_t> pair_sizes;   ///< anchors of each pair in the whole domain
};
template <class RowsOf>
SlabAnchors restrict_anchors(const RowSlab& slab, const std::vector<int>& pair_family,
                             const std::vector<std::int32_t>& pair_offset,
                             const std::vector<std::int32_t>& anchors, std::int64_t shift,
                             const RowsOf& rows_of) {
  SlabAnchors out;
  out.pair_offset.push_back(0);
  for (std::size_t p = 0; p < pair_family.size(); ++p) {
    out.pair_sizes.push_back(pair_offset[p + 1] - pair_offset[p]);
    for (std::int32_t k = pair_offset[p]; k < pair_offset[p + 1]; ++k) {
      const std::int32_t a = anchors[static_cast<std::size_t>(k)];
      int lo = 0, hi = 0;
      rows_of(a, pair_family[p], lo, hi);
      if (hi < slab.own_begin || lo >= slab.own_end) continue;
      if (lo < slab.local_begin || hi >= slab.local_end || a - shift < 0)
        throw std::logic_error("distributed tilings chain: the move at anchor " +
                               std::to_string(a) + " leaves the local rows of rank " +
                               std::to_string(slab.rank) + " (halo " + std::to_string(slab.halo) +
                               " rows)");
      out.anchors.push_back(static_cast<std::int32_t>(a - shift));
    }
    out.pair_offset.push_back(static_cast<std::int32_t>(out.anchors.size()));
  }
  return out;
}

/// What the distributed chain needs of a model (BiboneSlabModel, RectTriangleSlabModel).
/// What a rank runs of an anchor family: its anchors of every pair (SlabAnchors) on the device.
template <class Space>
struct SlabAnchorMoves {
  std::vector<std::int32_t> pair_offset;  ///< pairs + 1 entries into anchors
  std::vector<std::int64_t> pair_sizes;   ///< anchors of each pair in the whole domain
  Kokkos::View<const std::int32_t*, Space> anchors;
  std::int64_t size(int p) const { return pair_sizes[static_cast<std::size_t>(p)]; }
};
/// The anchors of `model`'s pairs that a slab runs, shifted to its local rows, on the device.
template <class Space, class Model>
SlabAnchorMoves<Space> slab_anchor_moves(const Model& model, const RowSlab& slab) {
  const SlabAnchors a = restrict_anchors(slab, model.moves.pair_family, model.moves.pair_offset,
                                         model.moves.anchors, model.anchor_shift(slab.local_begin),
                                         [&](std::int32_t anchor, int family, int& lo, int& hi) {
                                           model.rows_of(anchor, family, lo, hi);
                                         });
  SlabAnchorMoves<Space> m{a.pair_offset, a.pair_sizes, {}};
  Kokkos::View<std::int32_t*, Space> anchors("portamc::tilings::slab_anchors", a.anchors.size());
  Kokkos::deep_copy(
      anchors,
      Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          a.anchors.data(), a.anchors.size()));
  m.anchors = anchors;
  return m;
}

/// The rows [lo, hi] that the sites base + offsets[0 .. count) of a move lie in, for rows of
/// `row_length` sites.
inline void rows_spanned(std::int32_t base, const std::int32_t* offsets, int count, int row_length,
                         int& lo, int& hi) {
  lo = std::numeric_limits<int>::max();
  hi = std::numeric_limits<int>::min();
  for (int i = 0; i < count; ++i) {
    const int row = (base + offsets[i]) / row_length;
    lo = std::min(lo, row);
    hi = std::max(hi, row);
  }
}

/// What the slab chain families of the anchor models (row_slab_chain.hpp) share: a class is a
/// (family, class) pair of the move set, and a launch runs the slab's anchors of one pair with
/// the model's kernel. Derived provides `moves`, rows_of, anchor_shift, entity_base(family),
/// a kernel `label` and kernel<Space>(state, anchors, first, family, entity base, seed, t).
template <class Derived>
struct AnchorSlabFamily : ClassStepFamily<Derived> {
  using Element = std::uint8_t;
  template <class Space>
  using Moves = SlabAnchorMoves<Space>;
  int pairs() const { return self().moves.pairs(); }
  int classes() const { return pairs(); }
  template <class Space>
  Moves<Space> slab_moves(const Space& /*space*/, const RowSlab& slab) const {
    return slab_anchor_moves<Space>(self(), slab);
  }
  template <class Space>
  void launch_class(const Space& space, const Kokkos::View<std::uint8_t*, Space>& state,
                    const Moves<Space>& m, int p, const RowSlab& slab, std::uint64_t seed,
                    std::uint64_t t) const {
    const std::int32_t first = m.pair_offset[static_cast<std::size_t>(p)];
    const std::int32_t count = m.pair_offset[static_cast<std::size_t>(p) + 1] - first;
    if (count == 0) return;
    const int family = self().moves.pair_family[static_cast<std::size_t>(p)];
    // The local anchors are shifted by anchor_shift, the entities by as much: the one-rank ones.
    const std::uint64_t entity = self().entity_base(family) +
                                 static_cast<std::uint64_t>(self().anchor_shift(slab.local_begin));
    Kokkos::parallel_for(
        Derived::label,
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space, 0, count),
        self().template kernel<Space>(state, m.anchors, first, family, entity, seed, t));
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

struct BiboneSlabModel : AnchorSlabFamily<BiboneSlabModel> {
  static constexpr const char* name = "bibone";
  static constexpr const char* label = "portamc::tilings::bibone_slab_step";
  BiboneMoveSet moves;
  int width = 0, height = 0;
  /// Every rank builds the global move set (the colouring depends on the whole domain only),
  /// so all ranks agree on the pairs.
  explicit BiboneSlabModel(const BiboneDomain& d, MoveColouring colouring = default_move_colouring)
      : moves(bibone_move_set(d, colouring)), width(d.width()), height(d.height()) {}
  int rows() const { return height; }
  int row_length() const { return width; }
  int halo() const { return std::max(1, bibone_row_span(moves)); }
  std::int64_t anchor_shift(int first_row) const { return std::int64_t{first_row} * width; }
  std::uint64_t entity_base(int family) const {
    return static_cast<std::uint64_t>(family) * static_cast<std::uint64_t>(moves.box_sites);
  }
  void rows_of(std::int32_t a, int family, int& lo, int& hi) const {
    const BiboneCycleShape& s = moves.shapes[static_cast<std::size_t>(family)];
    rows_spanned(a, s.offset, s.length, width, lo, hi);
  }
  template <class Space>
  BiboneGlauberStep<Space> kernel(const Kokkos::View<std::uint8_t*, Space>& state,
                                  const Kokkos::View<const std::int32_t*, Space>& anchors,
                                  std::int32_t first, int family, std::uint64_t entity,
                                  std::uint64_t seed, std::uint64_t t) const {
    return {state, anchors, first, moves.shapes[static_cast<std::size_t>(family)], entity, seed, t};
  }
};

struct RectTriangleSlabModel : AnchorSlabFamily<RectTriangleSlabModel> {
  static constexpr const char* name = "rect_triangle";
  static constexpr const char* label = "portamc::tilings::rect_triangle_slab_step";
  RectTriangleMoveSet moves;
  int width = 0, height = 0;
  std::uint64_t vertex_count = 0;
  RectTriangleSlabModel(const TriangularDomain& d, const RectTriangleWeights& w,
                        MoveColouring colouring = default_move_colouring)
      : moves(rect_triangle_move_set(d, w, RectTriangleMoves::vertex_and_open_ear, colouring)),
        width(d.width()),
        height(d.height()),
        vertex_count(static_cast<std::uint64_t>(d.vertex_count())) {}
  int rows() const { return height; }
  int row_length() const { return 2 * width; }
  int halo() const { return std::max(1, rect_triangle_row_span(moves)); }
  std::int64_t anchor_shift(int first_row) const { return std::int64_t{first_row} * (width + 1); }
  std::uint64_t entity_base(int family) const {
    return static_cast<std::uint64_t>(family) * vertex_count;
  }
  void rows_of(std::int32_t vertex, int family, int& lo, int& hi) const {
    const RectTriangleMoveShape& s = moves.shapes[static_cast<std::size_t>(family)];
    rows_spanned(moves.base_of(vertex), s.offset, s.faces, 2 * width, lo, hi);
  }
  template <class Space>
  RectTriangleGlauberStep<Space> kernel(const Kokkos::View<std::uint8_t*, Space>& state,
                                        const Kokkos::View<const std::int32_t*, Space>& anchors,
                                        std::int32_t first, int family, std::uint64_t entity,
                                        std::uint64_t seed, std::uint64_t t) const {
    return {state,  anchors, first, moves.width, moves.shapes[static_cast<std::size_t>(family)],
            entity, seed,    t};
  }
};

/// An anchor family's chain over the ranks, with the byte-state accessors of the run layer.
template <class SlabModel, class Space>
class AnchorSlabChain : public RowSlabChain<SlabModel, Space> {
 public:
  /// Collective; `initial` is the whole state (validated by the caller), alike on every rank.
  AnchorSlabChain(const Space& space, SlabModel model, std::uint64_t seed,
                  const parallel::Communicator& comm, const std::vector<std::uint8_t>& initial,
                  const std::string& what)
      : RowSlabChain<SlabModel, Space>(space, std::move(model), seed, comm, what) {
    this->set_whole_state(initial);
  }
  const SlabModel& model() const { return this->family(); }
  /// Replaces the state by the local rows of `bytes` (the whole state, not validated here).
  void set_bytes(const std::vector<std::uint8_t>& bytes) { this->set_whole_state(bytes); }
  /// Collective: the whole state on rank 0 (rows in order), empty on the other ranks.
  std::vector<std::uint8_t> bytes_on_root() const { return this->state_on_root(); }
  /// Collective: the whole state on every rank.
  std::vector<std::uint8_t> bytes() const { return this->whole_state(); }
};

}  // namespace portamc::tilings

#pragma once
// The forward Glauber chain of bibone and rectangle-triangle tilings over the ranks of a
// Communicator, bitwise the same whatever the number of ranks. On one rank (the default
// Communicator) it is the one-rank chain: BiboneGlauber and RectTriangleGlauber
// (bibone_glauber.hpp, rect_triangle_glauber.hpp) are this class with the family's checks and
// state types.
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
// touches an owned row. Such a move lies within the owned rows widened by h, i.e. within the
// local rows. Why the result is the one-rank result: the moves of one pair touch pairwise
// disjoint bytes, so on one rank each move's outcome depends only on the step's random word
// (keyed by the global anchor and the step) and the pre-step bytes of its own sites. Before
// every step all local rows (owned and halo) hold the one-rank state (induction: the halos
// were just exchanged). A rank runs a move with those same bytes and word, so it writes the
// one-rank bytes; every byte of an owned row that the one-rank step writes belongs to a move
// touching that row, which this rank ran. So after the step the owned rows are the one-rank
// rows; an anchor near a slab boundary is run by both neighbours from the same bytes with
// the same word, and the copies agree. Halo rows may be left partly updated; the exchange of
// the h boundary rows each way (halo_rows.hpp) then restores the invariant. Steps whose pair
// has no anchor anywhere write nothing and exchange nothing, as on one rank.
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
#include "portamc/tilings/engine/detail/halo_rows.hpp"
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
struct BiboneSlabModel {
  static constexpr const char* name = "bibone";
  BiboneMoveSet moves;
  int width = 0, height = 0;
  /// Every rank builds the global move set (the colouring depends on the whole domain only),
  /// so all ranks agree on the pairs.
  explicit BiboneSlabModel(const BiboneDomain& d, MoveColouring colouring = default_move_colouring)
      : moves(bibone_move_set(d, colouring)), width(d.width()), height(d.height()) {}
  int rows() const { return height; }
  int row_length() const { return width; }
  int halo() const { return std::max(1, bibone_row_span(moves)); }
  int pairs() const { return moves.pairs(); }
  std::int64_t anchor_shift(int first_row) const { return std::int64_t{first_row} * width; }
  void rows_of(std::int32_t a, int family, int& lo, int& hi) const {
    const BiboneCycleShape& s = moves.shapes[static_cast<std::size_t>(family)];
    lo = std::numeric_limits<int>::max();
    hi = std::numeric_limits<int>::min();
    for (int i = 0; i < s.length; ++i) {
      const int row = (a + s.offset[i]) / width;
      lo = std::min(lo, row);
      hi = std::max(hi, row);
    }
  }
  template <class Space>
  void launch(const Space& space, const Kokkos::View<std::uint8_t*, Space>& state,
              const Kokkos::View<const std::int32_t*, Space>& anchors, std::int32_t first,
              std::int32_t count, int family, int first_row, std::uint64_t seed,
              std::uint64_t t) const {
    BiboneGlauberStep<Space> kernel{
        state,
        anchors,
        first,
        moves.shapes[static_cast<std::size_t>(family)],
        static_cast<std::uint64_t>(family) * static_cast<std::uint64_t>(moves.box_sites) +
            static_cast<std::uint64_t>(anchor_shift(first_row)),
        seed,
        t};
    Kokkos::parallel_for(
        "portamc::tilings::bibone_slab_step",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space, 0, count), kernel);
  }
};

struct RectTriangleSlabModel {
  static constexpr const char* name = "rect_triangle";
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
  int pairs() const { return moves.pairs(); }
  std::int64_t anchor_shift(int first_row) const { return std::int64_t{first_row} * (width + 1); }
  void rows_of(std::int32_t vertex, int family, int& lo, int& hi) const {
    const RectTriangleMoveShape& s = moves.shapes[static_cast<std::size_t>(family)];
    const std::int32_t base = moves.base_of(vertex);
    lo = std::numeric_limits<int>::max();
    hi = std::numeric_limits<int>::min();
    for (int i = 0; i < s.faces; ++i) {
      const int row = (base + s.offset[i]) / (2 * width);
      lo = std::min(lo, row);
      hi = std::max(hi, row);
    }
  }
  template <class Space>
  void launch(const Space& space, const Kokkos::View<std::uint8_t*, Space>& state,
              const Kokkos::View<const std::int32_t*, Space>& anchors, std::int32_t first,
              std::int32_t count, int family, int first_row, std::uint64_t seed,
              std::uint64_t t) const {
    RectTriangleGlauberStep<Space> kernel{state,
                                          anchors,
                                          first,
                                          moves.width,
                                          moves.shapes[static_cast<std::size_t>(family)],
                                          static_cast<std::uint64_t>(family) * vertex_count +
                                              static_cast<std::uint64_t>(anchor_shift(first_row)),
                                          seed,
                                          t};
    Kokkos::parallel_for(
        "portamc::tilings::rect_triangle_slab_step",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space, 0, count), kernel);
  }
};

/// The chain of `SlabModel` on this rank's slab. Collective construction and steps.
template <class SlabModel, class Space>
class DistributedAnchorGlauber {
 public:
  using State = Kokkos::View<std::uint8_t*, Space>;

  /// `initial`: the valid start state of the whole domain (the same bytes on every rank).
  /// Throws std::invalid_argument, on every rank alike, naming the sizes when the ranks
  /// cannot split the rows (fewer than h rows per rank). All kernels run on `space`.
  DistributedAnchorGlauber(const Space& space, SlabModel model, std::uint64_t seed,
                           const parallel::Communicator& comm,
                           const std::vector<std::uint8_t>& initial, const std::string& what)
      : space_(space),
        model_(std::move(model)),
        seed_(seed),
        comm_(comm),
        slab_(row_slab(model_.rows(), model_.row_length(), comm.rank(), comm.size(), what,
                       model_.halo())) {
    // The move sets hold 32-bit global anchors and the kernels index bytes with 32 bits, as
    // on one rank.
    if (std::int64_t{model_.rows()} * model_.row_length() >
        std::numeric_limits<std::int32_t>::max())
      throw std::invalid_argument(what + ": the domain is too large for 32-bit indices");
    const SlabAnchors a =
        restrict_anchors(slab_, model_.moves.pair_family, model_.moves.pair_offset,
                         model_.moves.anchors, model_.anchor_shift(slab_.local_begin),
                         [&](std::int32_t anchor, int family, int& lo, int& hi) {
                           model_.rows_of(anchor, family, lo, hi);
                         });
    pair_offset_ = a.pair_offset;
    pair_sizes_ = a.pair_sizes;
    Kokkos::View<std::int32_t*, Space> anchors("portamc::tilings::slab_anchors", a.anchors.size());
    Kokkos::deep_copy(anchors, Kokkos::View<const std::int32_t*, Kokkos::HostSpace,
                                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                   a.anchors.data(), a.anchors.size()));
    anchors_ = anchors;
    state_ =
        State("portamc::tilings::slab_anchor_state", static_cast<std::size_t>(slab_.local_cells()));
    set_bytes(initial);
    halo_ = RowHaloExchange<typename Space::memory_space>(comm_, slab_);
  }

  const Space& space() const { return space_; }
  const RowSlab& slab() const { return slab_; }
  const SlabModel& model() const { return model_; }
  std::uint64_t seed() const { return seed_; }
  std::uint64_t steps_done() const { return steps_done_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_steps_done(std::uint64_t steps) { steps_done_ = steps; }
  std::string transport() const { return halo_.transport(); }
  /// Collective: halos travel as `transport` says from now on.
  void set_halo_transport(parallel::HaloTransport transport) {
    halo_ = RowHaloExchange<typename Space::memory_space>(comm_, slab_, transport);
  }
  double halo_seconds() const { return halo_seconds_; }
  /// Order of the (family, class) pairs over the steps (class_order.hpp), as on one rank.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  const State& local_state() const { return state_; }

  /// Replaces the state by the local rows of `bytes` (the whole state, not validated here).
  void set_bytes(const std::vector<std::uint8_t>& bytes) {
    const auto total = static_cast<std::size_t>(slab_.rows) * slab_.row_length;
    if (bytes.size() != total)
      throw std::invalid_argument(std::string(SlabModel::name) + ": a state of " +
                                  std::to_string(bytes.size()) + " bytes, expected " +
                                  std::to_string(total));
    const auto first = static_cast<std::size_t>(slab_.local_begin) * slab_.row_length;
    Kokkos::deep_copy(state_, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                                           Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                  bytes.data() + first, state_.extent(0)));
  }

  /// Runs steps steps_done()+1 .. steps_done()+n (collective); returns the candidate moves
  /// tried in the whole domain (the one-rank count).
  std::uint64_t run_steps(std::uint64_t n) {
    std::uint64_t attempts = 0;
    for (std::uint64_t s = 0; s < n; ++s) {
      const std::uint64_t t = ++steps_done_;
      const int p = step_class(class_order_, seed_, t, model_.pairs());
      const std::int64_t size = pair_sizes_[static_cast<std::size_t>(p)];
      if (size == 0) continue;  // no anchor anywhere: nothing written, nothing to exchange
      const std::int32_t first = pair_offset_[static_cast<std::size_t>(p)];
      const std::int32_t count = pair_offset_[static_cast<std::size_t>(p) + 1] - first;
      if (count > 0)
        model_.template launch<Space>(space_, state_, anchors_, first, count,
                                      model_.moves.pair_family[static_cast<std::size_t>(p)],
                                      slab_.local_begin, seed_, t);
      if (comm_.size() > 1) {
        Kokkos::fence();
        const auto start = std::chrono::steady_clock::now();
        halo_.run(state_);
        halo_seconds_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      attempts += static_cast<std::uint64_t>(size);
    }
    return attempts;
  }
  /// One sweep = one step per (family, class) pair on average, as on one rank.
  std::uint64_t run_sweeps(std::uint64_t sweeps) {
    return run_steps(sweeps * static_cast<std::uint64_t>(model_.pairs()));
  }

  /// Collective: the whole state on rank 0 (rows in order), empty on the other ranks.
  std::vector<std::uint8_t> bytes_on_root() const {
    return gather_owned_bytes(comm_, state_,
                              static_cast<std::size_t>(slab_.local_offset(slab_.own_begin)),
                              static_cast<std::size_t>(slab_.own_cells()));
  }
  /// Collective: the whole state on every rank.
  std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> all = bytes_on_root();
    comm_.broadcast(all);
    return all;
  }

 private:
  Space space_;
  SlabModel model_;
  std::uint64_t seed_;
  ClassOrder class_order_ = ClassOrder::random;
  parallel::Communicator comm_;
  RowSlab slab_;
  std::vector<std::int32_t> pair_offset_;
  std::vector<std::int64_t> pair_sizes_;
  Kokkos::View<const std::int32_t*, Space> anchors_;
  State state_;
  RowHaloExchange<typename Space::memory_space> halo_;
  std::uint64_t steps_done_ = 0;
  double halo_seconds_ = 0;
};

/// Bibone tilings over the ranks (BiboneGlauber's chain). Starts from a valid matching.
template <class Space>
class DistributedBiboneGlauber : public DistributedAnchorGlauber<BiboneSlabModel, Space> {
 public:
  DistributedBiboneGlauber(const Space& space, const BiboneDomain& domain, std::uint64_t seed,
                           const parallel::Communicator& comm, const BiboneMatching& initial,
                           const std::string& what = "bibone tiling",
                           MoveColouring colouring = default_move_colouring)
      : DistributedAnchorGlauber<BiboneSlabModel, Space>(
            space, BiboneSlabModel(domain, colouring), seed, comm, checked(domain, initial), what),
        domain_(domain) {}
  /// Collective: the whole matching on every rank.
  BiboneMatching matching() const { return BiboneMatching(this->bytes()); }

 private:
  static const std::vector<std::uint8_t>& checked(const BiboneDomain& d, const BiboneMatching& m) {
    validate_matching(d, m);
    return m.bytes();
  }
  BiboneDomain domain_;
};

/// Weighted rectangle-triangle tilings over the ranks (RectTriangleGlauber's chain).
template <class Space>
class DistributedRectTriangleGlauber
    : public DistributedAnchorGlauber<RectTriangleSlabModel, Space> {
 public:
  DistributedRectTriangleGlauber(const Space& space, const TriangularDomain& domain,
                                 const RectTriangleWeights& weights, std::uint64_t seed,
                                 const parallel::Communicator& comm,
                                 const RectTriangleTiling& initial,
                                 const std::string& what = "rect_triangle tiling",
                                 MoveColouring colouring = default_move_colouring)
      : DistributedAnchorGlauber<RectTriangleSlabModel, Space>(
            space, RectTriangleSlabModel(domain, weights, colouring), seed, comm,
            checked(domain, initial), what),
        width_(domain.width()),
        height_(domain.height()) {}
  /// Collective: the whole tiling on every rank.
  RectTriangleTiling tiling() const { return RectTriangleTiling(width_, height_, this->bytes()); }

 private:
  static const std::vector<std::uint8_t>& checked(const TriangularDomain& d,
                                                  const RectTriangleTiling& t) {
    validate_tiling(d, t);
    return t.codes();
  }
  int width_ = 0, height_ = 0;
};

}  // namespace portamc::tilings

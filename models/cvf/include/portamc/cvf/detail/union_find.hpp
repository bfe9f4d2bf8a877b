#pragma once
// Union-find cluster labelling of the CVF Swendsen-Wang bonds (the scheme and its invariants:
// cluster_labels.hpp), in three kernels:
// 1. every block of cells labels the bonds inside it in team scratch (shared) memory;
// 2. only the covalent bonds that cross a block face (or the periodic wrap) go through the
//    global compare-and-swap hooks (detail::unite);
// 3. one pass points every variable at its root.
//
// Why: on an H200 the global hooks took 24 of the 27 ms of a Swendsen-Wang step at L = 256
// when one cluster holds 98 % of the variables (bench_cvf --sw-phases): every hook walks to
// the giant cluster's root, and the walks and failed compare-and-swaps of millions of
// threads meet on the few entries at the top of one tree. Inside an 8 x 8 x 4 block these
// unions run on shared-memory atomics among one team; about a sixth of the covalent bonds
// cross a block face (1/8 along x and y, 1/4 along z; fewer for larger blocks), and the
// global trees then link block roots, not variables. Block shapes from 8 x 8 x 4 to 32 x 8 x 4
// measured within 5 % of each other (docs/performance.md); the default is the fastest of them.
//
// Order. Local index v = arm C + lc (C cells per block, lc = lx + bx (ly + by lz)) orders the
// block's variables as their global indices arm N + cell do (arm first, then z, y, x). So
// the local root of a component (its smallest local index, by the same hook-the-larger-root
// rule) is its smallest global index, and writing label = global index of the local root
// keeps the global invariant parent[x] <= x with roots at tree minima: the final labels are
// the cluster minima, as before, whatever the block shape or thread schedule.
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <cstdint>

#include "portamc/cvf/detail/cluster_bonds.hpp"
#include "portamc/cvf/detail/cluster_labels.hpp"
#include "portamc/cvf/geometry.hpp"

namespace portamc::cvf {

/// Cells per block along x, y, z: powers of two (partial blocks at the lattice's far faces
/// are fine). A block's scratch is 28 B per cell, so blocks hold at most max_cells cells.
struct LabelBlock {
  int x = 8, y = 8, z = 4;
  static constexpr int max_cells = 1024;
  KOKKOS_INLINE_FUNCTION int cells() const { return x * y * z; }
};

/// Throws std::invalid_argument naming the shape unless it is a valid block.
void check_label_block(const LabelBlock& block);

namespace detail {

/// Root of v in a team's scratch forest, halving the path as it goes (other threads of the
/// team hook concurrently: the same argument as detail::find_root, only non-roots written).
KOKKOS_INLINE_FUNCTION std::uint32_t find_local(std::uint32_t* parent, std::uint32_t v) {
  std::uint32_t p = relaxed_load(parent + v);
  while (p != v) {
    const std::uint32_t grandparent = relaxed_load(parent + p);
    if (grandparent == p) return p;
    relaxed_store(parent + v, grandparent);
    v = grandparent;
    p = relaxed_load(parent + v);
  }
  return v;
}

/// Joins the scratch trees of a and b, the larger root hooked under the smaller.
KOKKOS_INLINE_FUNCTION void unite_local(std::uint32_t* parent, std::uint32_t a, std::uint32_t b) {
  while (true) {
    a = find_local(parent, a);
    b = find_local(parent, b);
    if (a == b) return;
    const std::uint32_t low = a < b ? a : b, high = a < b ? b : a;
    if (Kokkos::atomic_compare_exchange(parent + high, high, low) == high) return;
  }
}

/// Whether the covalent bond of coordinate `coord` along an axis stays inside its block of
/// extent `extent` (a power of two; blocks start at its multiples; the periodic wrap always
/// crosses).
KOKKOS_INLINE_FUNCTION bool bond_inside_block(int coord, int extent, int L) {
  return (coord & (extent - 1)) + 1 < extent && coord + 1 < L;
}

/// One team per block: cooperative groups, in-block covalent unions, then every variable of
/// the block gets the global index of its local root. Block sides are powers of two, so a
/// cell's local index splits into coordinates by shifts and masks (runtime divisions made
/// this kernel instruction-bound).
template <class Space, class BondView, class Label>
struct BlockLabels {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using Scratch = Kokkos::View<std::uint32_t*, typename Space::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Geometry geometry;
  BondView bonds;
  Label* labels = nullptr;
  LabelBlock block;
  int blocks_x = 1, blocks_y = 1;
  int x_bits = 0, y_bits = 0, z_bits = 0;  ///< log2 of the block sides

  static std::size_t scratch_bytes(const LabelBlock& b) {
    return Scratch::shmem_size(static_cast<std::size_t>(arms + 1) * b.cells());
  }
  static int blocks_along(int L, int extent) { return (L + extent - 1) / extent; }

  KOKKOS_INLINE_FUNCTION int local_x(std::int32_t lc) const { return lc & (block.x - 1); }
  KOKKOS_INLINE_FUNCTION int local_y(std::int32_t lc) const {
    return (lc >> x_bits) & (block.y - 1);
  }
  KOKKOS_INLINE_FUNCTION int local_z(std::int32_t lc) const { return lc >> (x_bits + y_bits); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int cell_bits = x_bits + y_bits + z_bits;
    const std::int32_t C = std::int32_t{1} << cell_bits;
    const Scratch parent_view(team.team_scratch(0), arms * C);
    const Scratch word(team.team_scratch(0), C);
    // Shared-memory instructions on CUDA instead of generic ones (kokkos_compat.hpp).
    std::uint32_t* const parent = assume_team_scratch(parent_view.data());
    const int id = team.league_rank();
    const int x0 = (id % blocks_x) << x_bits, y0 = ((id / blocks_x) % blocks_y) << y_bits,
              z0 = (id / (blocks_x * blocks_y)) << z_bits;
    const int L = geometry.size();
    const std::int64_t N = geometry.cells(), plane = std::int64_t{L} * L;

    // Cells beyond the lattice (partial blocks) have no bonds and are never written.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, C), [&](const std::int32_t lc) {
      const int x = x0 + local_x(lc), y = y0 + local_y(lc), z = z0 + local_z(lc);
      const std::uint32_t bits = x < L && y < L && z < L ? bonds(geometry.cell(x, y, z)) : 0u;
      word(lc) = bits;
      int root[arms];
      cooperative_roots(bits, root);
      PORTAMC_UNROLL
      for (int arm = 0; arm < arms; ++arm) {
        parent[arm * C + lc] = static_cast<std::uint32_t>(root[arm] * C + lc);
      }
    });
    team.team_barrier();

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, C), [&](const std::int32_t lc) {
      const std::uint32_t bits = word(lc);
      if ((bits & 7u) == 0) return;
      const int coord[3] = {x0 + local_x(lc), y0 + local_y(lc), z0 + local_z(lc)};
      const int extent[3] = {block.x, block.y, block.z};
      const std::int32_t stride[3] = {1, block.x, block.x * block.y};
      for (int axis = 0; axis < 3; ++axis) {
        if (((bits >> axis) & 1u) == 0 || !bond_inside_block(coord[axis], extent[axis], L))
          continue;
        unite_local(parent, static_cast<std::uint32_t>(2 * axis * C + lc),
                    static_cast<std::uint32_t>((2 * axis + 1) * C + lc + stride[axis]));
      }
    });
    team.team_barrier();

    // One thread per cell writes its six arms (for each arm, consecutive threads write
    // consecutive cells); a root's cell is the cell's index plus the local offset.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, C), [&](const std::int32_t lc) {
      const int lx = local_x(lc), ly = local_y(lc), lz = local_z(lc);
      const int x = x0 + lx, y = y0 + ly, z = z0 + lz;
      if (x >= L || y >= L || z >= L) return;
      const std::int64_t cell = geometry.cell(x, y, z);
      PORTAMC_UNROLL
      for (int arm = 0; arm < arms; ++arm) {
        const std::uint32_t r = find_local(parent, static_cast<std::uint32_t>(arm * C + lc));
        const std::int32_t rlc = static_cast<std::int32_t>(r) & (C - 1);
        const std::int64_t root_cell = cell + (local_x(rlc) - lx) +
                                       L * std::int64_t{local_y(rlc) - ly} +
                                       plane * std::int64_t{local_z(rlc) - lz};
        labels[arm * N + cell] = static_cast<Label>(std::int64_t{r >> cell_bits} * N + root_cell);
      }
    });
  }
};

/// Stage two: the covalent bonds that cross a block face (or the periodic wrap) join the
/// global trees, one cell per thread.
template <class BondView, class Label>
struct UniteCrossingBonds {
  Geometry g;
  BondView bonds;
  Label* parent;
  std::int64_t N;
  int L;
  LabelBlock b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t cell) const {
    const std::uint32_t bits = bonds(cell);
    if ((bits & 7u) == 0) return;
    const Coordinates c = g.coordinates(cell);
    const int coord[3] = {c.x, c.y, c.z}, extent[3] = {b.x, b.y, b.z};
    for (int axis = 0; axis < 3; ++axis) {
      if (((bits >> axis) & 1u) == 0 || bond_inside_block(coord[axis], extent[axis], L))
        continue;  // joined by label_blocks
      unite(parent, static_cast<Label>((2 * axis) * N + cell),
            static_cast<Label>((2 * axis + 1) * N + g.neighbour(c, 2 * axis)));
    }
  }
};

/// Stage three: every variable points at its root.
template <class Label>
struct PointAtRoots {
  Label* parent;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t x) const {
    // The trees are final here: a cached walk ends at the true root. Only non-roots are
    // written, always with an ancestor, so concurrent walks stay valid.
    const Label root = find_root_cached(parent, static_cast<Label>(x));
    if (root != static_cast<Label>(x)) relaxed_store(parent + x, root);
  }
};

}  // namespace detail

/// Stage one of union_find, on `space`: labels = global index of each variable's root within
/// its block.
template <class Space, class BondView, class Label>
void label_blocks(const Space& space, const Geometry& geometry, const BondView& bonds,
                  Label* labels, const LabelBlock& block) {
  using Functor = detail::BlockLabels<Space, BondView, Label>;
  check_label_block(block);
  const int L = geometry.size();
  auto log2 = [](int side) {
    int bits = 0;
    while ((1 << bits) < side) ++bits;
    return bits;
  };
  Functor f;
  f.geometry = geometry;
  f.bonds = bonds;
  f.labels = labels;
  f.block = block;
  f.blocks_x = Functor::blocks_along(L, block.x);
  f.blocks_y = Functor::blocks_along(L, block.y);
  f.x_bits = log2(block.x);
  f.y_bits = log2(block.y);
  f.z_bits = log2(block.z);
  const int teams = f.blocks_x * f.blocks_y * Functor::blocks_along(L, block.z);
  // Host backends run a block per thread; GPUs a block per team of 256 threads (Kokkos'
  // automatic choice gave small teams, too few threads per multiprocessor to hide latency).
  const bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  Kokkos::TeamPolicy<Space> policy(space, teams, host ? 1 : 256);
  Kokkos::parallel_for("cvf::union_find_blocks",
                       policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(block))),
                       f);
}

/// Lock-free union-find on `space`; same result as label_equivalence without host round trips.
/// With `times`, each kernel is fenced and timed (profiling only). `block`: the cells per
/// block of the first stage (tests vary it; any shape gives the same labels).
template <class Space, class BondView, class LabelView>
void union_find(const Space& space, const Geometry& geometry, const BondView& bonds,
                const LabelView& labels, SwPhaseSeconds* times = nullptr,
                const LabelBlock& block = LabelBlock{}) {
  using Label = typename LabelView::non_const_value_type;
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  const Geometry g = geometry;
  const std::int64_t N = g.cells();
  Label* const parent = labels.data();
  const int L = g.size();
  const LabelBlock b = block;
  Kokkos::Timer timer;
  auto lap = [&](double SwPhaseSeconds::*phase) {
    if (times == nullptr) return;
    space.fence();
    times->*phase += timer.seconds();
    timer.reset();
  };
  label_blocks(space, g, bonds, parent, block);
  lap(&SwPhaseSeconds::local);
  Kokkos::parallel_for("cvf::union_find_covalent", Policy(space, 0, N),
                       detail::UniteCrossingBonds<BondView, Label>{g, bonds, parent, N, L, b});
  lap(&SwPhaseSeconds::hooks);
  Kokkos::parallel_for("cvf::union_find_compress", Policy(space, 0, 6 * N),
                       detail::PointAtRoots<Label>{parent});
  lap(&SwPhaseSeconds::compress);
}

}  // namespace portamc::cvf

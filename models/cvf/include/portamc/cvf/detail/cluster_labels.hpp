#pragma once
// Cluster labelling for the CVF Swendsen-Wang step: every bonding variable gets the smallest
// variable index (arm N + cell) of its cluster, the cluster being the connected component of
// the fictitious bonds of cluster_bonds.hpp. Two algorithms give identical labels:
//
// label_equivalence  the paper's Hawick-Kalentev scheme (section II.D, Algorithms 2-4):
//                    starting from label = index, repeat { scan covalent bonds, scan the
//                    cooperative bonds of each cell, analysis } until no label changes, the
//                    change count being a reduction read on the host once per kernel. Two
//                    refinements over the paper, both keeping its structure: the cooperative
//                    scan gives every locally connected arm group of a cell its smallest label
//                    at once (the paper compares the 15 pairs once each), and the analysis
//                    follows label[label[...]] to its fixed point instead of one step. Labels
//                    only decrease and always name a member of the cluster, so a fixed point
//                    (all bonded pairs equal) is the minimum.
// union_find         no host-synchronised iteration (union_find.hpp): (1) each block of
//                    cells labels the cooperative groups and the covalent bonds inside it in
//                    shared memory, (2) each covalent bond across a block face unites the two
//                    roots by compare-and-swap, hooking the larger root under the smaller,
//                    (3) one pass writes every variable's root. parent[x] <= x holds
//                    throughout, so a tree's root is its minimum and the result is the
//                    cluster minimum whatever the thread schedule.
//                    Root walks in the global hooks first use plain loads, which GPUs
//                    serve from each multiprocessor's L1. A plain load may be stale, but any
//                    value ever stored is an ancestor, so a stale walk still ends at a node
//                    of the same tree; two walks ending at the same node prove the union
//                    already made. Only where a stale walk would be acted on (a
//                    compare-and-swap that fails because the "root" has been hooked) the walk
//                    is repeated with relaxed loads, halving the path as it goes. That is
//                    safe concurrently because only a node seen not to be a root is written
//                    (a node never becomes a root again, so no hook by another thread is
//                    overwritten), always with one of its ancestors. An earlier version that
//                    lost unions on CUDA wrote entries without that test.
// Both run in place on one label array of 6 N entries (32-bit when 6 N < 2^32, else 64-bit:
// the caller chooses the Label type). Concurrent reads and writes of other entries go through
// relaxed atomics: any value read is a valid ancestor, which is all the algorithms need.
//
// Measured history (H200, L = 256, one cluster holding 98 % of the variables, ns per molecule
// per SW step): 3.3-3.6 with relaxed loads in every walk; 1.22 with plain loads first; 0.21
// with the shared-memory block stage and relaxed loads that are single instructions. Kokkos
// 4's Kokkos::atomic_load is a compare-and-swap loop on CUDA (desul's generic fallback), so
// the early versions paid a contended read-modify-write per "load": see kokkos_compat.hpp.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "portamc/cvf/detail/cluster_bonds.hpp"
#include "portamc/cvf/geometry.hpp"
#include "portamc/kokkos_compat.hpp"

namespace portamc::cvf {

enum class Labelling { label_equivalence, union_find };

/// Seconds spent in each phase of Swendsen-Wang steps, accumulated while phase timing is on
/// (SwendsenWang::set_phase_timing): every phase is fenced, so the sum is a little above the
/// untimed step. `local`, `hooks` and `compress` are union-find's three kernels; label
/// equivalence books all its passes under `hooks`.
struct SwPhaseSeconds {
  double bonds = 0, local = 0, hooks = 0, compress = 0, flip = 0;
  long long steps = 0;
};

/// "label_equivalence" or "union_find".
std::string to_string(Labelling labelling);
/// Inverse of to_string; throws std::invalid_argument naming the accepted values.
Labelling labelling_from_string(const std::string& name);

namespace detail {

// Relaxed loads and stores: portamc::relaxed_load / relaxed_store (kokkos_compat.hpp), single
// instructions (Kokkos' own atomic_load is a compare-and-swap loop on CUDA).

/// For each arm of a cell, the smallest arm connected to it by the cell's cooperative bonds.
KOKKOS_INLINE_FUNCTION void cooperative_roots(std::uint32_t bits, int root[arms]) {
  PORTAMC_UNROLL
  for (int arm = 0; arm < arms; ++arm) root[arm] = arm;
  // Pairs come in lexicographic order (k, l), k < l, so one pass of root[l] = min over the
  // roots met so far would miss chains like (1,2) then (0,2); relabelling whole groups is
  // exact and costs at most 15 x 6 register operations.
  PORTAMC_UNROLL
  for (int p = 0; p < cooperative_pairs; ++p) {
    if ((bits >> cooperative_bit(p)) & 1u) {
      const int a = root[cooperative_first(p)], b = root[cooperative_second(p)];
      if (a != b) {
        const int low = a < b ? a : b, high = a < b ? b : a;
        PORTAMC_UNROLL
        for (int arm = 0; arm < arms; ++arm) root[arm] = root[arm] == high ? low : root[arm];
      }
    }
  }
}

/// Root of x (parent[r] == r) with atomic loads, pointing every non-root met on the way at
/// its grandparent (path halving; safe concurrently, see the header comment).
template <class Label>
KOKKOS_INLINE_FUNCTION Label find_root(Label* parent, Label x) {
  Label p = relaxed_load(parent + x);
  while (p != x) {
    const Label grandparent = relaxed_load(parent + p);
    if (grandparent == p) return p;
    relaxed_store(parent + x, grandparent);  // x is not a root: it has parent p != x
    x = grandparent;
    p = relaxed_load(parent + x);
  }
  return x;
}

/// The end of x's walk with plain (cacheable) loads and no writes: a node of x's tree that
/// was its root when the value read was current (see the header comment). Exact where the
/// trees do not change during the walk, as in the compression pass.
template <class Label>
KOKKOS_INLINE_FUNCTION Label find_root_cached(const Label* parent, Label x) {
  while (true) {
    const Label p = parent[x];
    if (p == x) return x;
    x = p;
  }
}

/// Joins the trees of a and b, the larger root hooked under the smaller.
template <class Label>
KOKKOS_INLINE_FUNCTION void unite(Label* parent, Label a, Label b) {
  a = find_root_cached(parent, a);
  b = find_root_cached(parent, b);
  while (a != b) {
    const Label high = a < b ? b : a, low = a < b ? a : b;
    // Succeeds only while `high` is still a root; otherwise walk again, coherently.
    if (Kokkos::atomic_compare_exchange(parent + high, high, low) == high) return;
    a = find_root(parent, a);
    b = find_root(parent, b);
  }
}

// Named functors, not KOKKOS_LAMBDA: docs/design.md, "Kernels in headers are functors".
template <class LabelView>
struct InitLabelsKernel {
  using Label = typename LabelView::non_const_value_type;
  LabelView labels;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t x) const {
    labels(x) = static_cast<Label>(x);
  }
};

template <class BondView, class LabelView>
struct ScanCovalentKernel {
  using Label = typename LabelView::non_const_value_type;
  BondView bonds;
  LabelView labels;
  Geometry g;
  std::int64_t N;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t cell, std::int64_t& changed) const {
    const std::uint32_t bits = bonds(cell);
    if ((bits & 7u) == 0) return;
    const Coordinates c = g.coordinates(cell);
    for (int axis = 0; axis < 3; ++axis) {
      if (((bits >> axis) & 1u) == 0) continue;
      const std::int64_t a = (2 * axis) * N + cell;
      const std::int64_t b = (2 * axis + 1) * N + g.neighbour(c, 2 * axis);
      const Label la = labels(a), lb = labels(b);
      if (la < lb) {
        labels(b) = la;
        ++changed;
      } else if (lb < la) {
        labels(a) = lb;
        ++changed;
      }
    }
  }
};

template <class BondView, class LabelView>
struct ScanCooperativeKernel {
  using Label = typename LabelView::non_const_value_type;
  BondView bonds;
  LabelView labels;
  std::int64_t N;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t cell, std::int64_t& changed) const {
    const std::uint32_t bits = bonds(cell);
    if ((bits >> covalent_bonds_per_cell) == 0) return;
    int root[arms];
    detail::cooperative_roots(bits, root);
    Label label[arms];
    PORTAMC_UNROLL
    for (int arm = 0; arm < arms; ++arm) label[arm] = labels(arm * N + cell);
    // Group minimum, gathered at the group's smallest arm (root[arm] <= arm).
    Label low[arms];
    PORTAMC_UNROLL
    for (int arm = 0; arm < arms; ++arm) {
      low[arm] = label[arm];
      const Label r = low[root[arm]];
      if (root[arm] != arm && label[arm] < r) low[root[arm]] = label[arm];
    }
    PORTAMC_UNROLL
    for (int arm = 0; arm < arms; ++arm) {
      const Label m = low[root[arm]];
      if (m != label[arm]) {
        labels(arm * N + cell) = m;
        ++changed;
      }
    }
  }
};

template <class Label>
struct LabelAnalysisKernel {
  Label* raw;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t x, std::int64_t& changed) const {
    const Label start = relaxed_load(raw + x);
    Label l = start;
    Label next = relaxed_load(raw + l);
    while (next != l) {
      l = next;
      next = relaxed_load(raw + l);
    }
    if (l != start) {
      relaxed_store(raw + x, l);
      ++changed;
    }
  }
};

template <class LabelView>
struct CountClustersKernel {
  LabelView labels;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t x, std::int64_t& n) const {
    if (static_cast<std::int64_t>(labels(x)) == x) ++n;
  }
};

template <class SizeView, class LabelView>
struct ClusterSizeKernel {
  SizeView size;
  LabelView labels;

  // atomic_add, not atomic_increment: Kokkos 4 deprecates the latter, 3.4 lacks atomic_inc.
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t x) const {
    Kokkos::atomic_add(&size(labels(x)), typename SizeView::non_const_value_type(1));
  }
};

template <class SizeView>
struct LargestClusterKernel {
  SizeView size;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t x, std::int64_t& m) const {
    if (static_cast<std::int64_t>(size(x)) > m) m = size(x);
  }
};

}  // namespace detail

/// The paper's label equivalence on `space`; returns the number of scan + analysis iterations
/// (the last one changes nothing). `labels` has 6 N entries of an unsigned Label type.
template <class Space, class BondView, class LabelView>
int label_equivalence(const Space& space, const Geometry& geometry, const BondView& bonds,
                      const LabelView& labels) {
  using Label = typename LabelView::non_const_value_type;
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  const Geometry g = geometry;
  const std::int64_t N = g.cells();
  Kokkos::parallel_for("cvf::label_equivalence_init", Policy(space, 0, 6 * N),
                       detail::InitLabelsKernel<LabelView>{labels});
  int iterations = 0;
  while (true) {
    ++iterations;
    std::int64_t changes = 0, part = 0;
    // Each covalent pair belongs to exactly one cell's forward edge: race-free.
    Kokkos::parallel_reduce("cvf::scan_covalent", Policy(space, 0, N),
                            detail::ScanCovalentKernel<BondView, LabelView>{bonds, labels, g, N},
                            part);
    changes += part;
    Kokkos::parallel_reduce("cvf::scan_cooperative", Policy(space, 0, N),
                            detail::ScanCooperativeKernel<BondView, LabelView>{bonds, labels, N},
                            part);
    changes += part;
    Label* const raw = labels.data();
    Kokkos::parallel_reduce("cvf::analysis", Policy(space, 0, 6 * N),
                            detail::LabelAnalysisKernel<Label>{raw}, part);
    changes += part;
    if (changes == 0) return iterations;
  }
}

/// Number of clusters (variables that are their own label), counted on `space`.
template <class Space, class LabelView>
std::int64_t count_clusters(const Space& space, const LabelView& labels) {
  std::int64_t count = 0;
  Kokkos::parallel_reduce(
      "cvf::count_clusters",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, labels.extent(0)),
      detail::CountClustersKernel<LabelView>{labels}, count);
  return count;
}

/// Size of the largest cluster, on `space`; allocates a temporary counter per variable.
template <class Space, class LabelView>
std::int64_t largest_cluster(const Space& space, const LabelView& labels) {
  using Label = typename LabelView::non_const_value_type;
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = labels.extent(0);
  Kokkos::View<Label*, Space> size("cvf::cluster_size", n);
  Kokkos::parallel_for(
      "cvf::cluster_size", Policy(space, 0, n),
      detail::ClusterSizeKernel<Kokkos::View<Label*, Space>, LabelView>{size, labels});
  std::int64_t largest = 0;
  Kokkos::parallel_reduce("cvf::largest_cluster", Policy(space, 0, n),
                          detail::LargestClusterKernel<Kokkos::View<Label*, Space>>{size},
                          Kokkos::Max<std::int64_t>(largest));
  return largest;
}

}  // namespace portamc::cvf

#pragma once
// Swendsen-Wang cluster update of the CVF bonding variables sigma at fixed eta and volume
// (the paper's section II.D).
//
// Measure. With eta (cube states) and v_iso fixed, the sigma variables have weight
//   exp((J_eff N_HB + J_sigma N_sigma) / t),
// a 6-state Potts model on a graph: cooperative couplings J_sigma >= 0 between all 15 pairs of
// a cell's six variables (N_sigma counts the equal pairs), and a covalent coupling J_eff of
// either sign between sigma(cell, +axis) and sigma(neighbour, -axis) on every edge with
// eta = 1 (N_HB counts the equal such pairs). A gas-like system has no hydrogen bonds: the
// caller passes J_eff = 0.
//
// One sweep (Fortuin-Kasteleyn / Swendsen-Wang):
// 1. Bonds (cluster_bonds.hpp): an equal cooperative pair is bonded with probability
//    p_sigma = 1 - exp(-J_sigma / t); an allowed edge is bonded with p = 1 - exp(-|J_eff| / t)
//    when its pair is equal (J_eff > 0) or unequal (J_eff < 0, the paper's antiferro case);
//    J_eff = 0 never bonds. Thresholds are integers fixed on the host (bond_thresholds).
// 2. Labels (cluster_labels.hpp): each variable gets the smallest variable index of its
//    cluster, by label equivalence or union-find (identical results).
// 3. Flip: cluster label l gets r = bounded(draw(seed, purpose_cvf_cluster, l, step), 6) and
//    every member becomes (sigma + r) mod 6. A common shift keeps equal pairs equal and
//    unequal pairs unequal, so the update is detailed-balanced for both signs of J_eff.
// Each step is a pure function of (seed, step, sigma, eta): bitwise identical on every backend
// and for both labelling schemes.
//
// Memory per molecule on top of sigma (6 B) and cube states (0.25 B): 4 B of bonds and 6
// labels of 4 B (6 N < 2^32, i.e. N < 715 827 882) or 8 B: 28 B or 52 B, so N = 5e8 needs
// 17 GB in all. largest_cluster() temporarily adds another 24 (48) B per molecule.
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "portamc/cvf/detail/cluster_bonds.hpp"
#include "portamc/cvf/detail/cluster_labels.hpp"
#include "portamc/cvf/detail/union_find.hpp"
#include "portamc/cvf/geometry.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf {

/// Width of the label array: automatic picks 32 bits whenever 6 N < 2^32.
enum class LabelWidth { automatic, bits32, bits64 };

namespace detail {

/// Shifts the six variables of a cell by their clusters' draws, one cell per thread.
template <class SigmaView, class LabelView>
struct FlipClusters {
  using Label = typename LabelView::non_const_value_type;
  SigmaView sigma;
  LabelView labels;
  std::int64_t N;
  std::uint64_t seed, step;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t cell) const {
    // Arms of one cell often share a cluster: draw once per distinct label.
    Label seen[arms];
    std::uint32_t shift[arms];
    PORTAMC_UNROLL
    for (int arm = 0; arm < arms; ++arm) {
      const Label l = labels(arm * N + cell);
      seen[arm] = l;
      shift[arm] = arms;  // not yet known
      for (int earlier = 0; earlier < arm; ++earlier) {
        if (seen[earlier] == l) shift[arm] = shift[earlier];
      }
      if (shift[arm] == arms) {
        const rng::Block b = rng::draw(seed, rng::purpose_cvf_cluster, l, step);
        shift[arm] = rng::bounded(b[0], b[1], 6);
      }
      const std::int64_t x = arm * N + cell;
      sigma(x) = static_cast<std::uint8_t>((sigma(x) + shift[arm]) % 6);
    }
  }
};

}  // namespace detail

/// Step 3, on `space`: shifts every variable by its cluster's random r in 0..5.
template <class Space, class SigmaView, class LabelView>
void flip_clusters(const Space& space, const Geometry& geometry, const SigmaView& sigma,
                   const LabelView& labels, std::uint64_t seed, std::uint64_t step) {
  const std::int64_t N = geometry.cells();
  Kokkos::parallel_for("cvf::flip_clusters",
                       Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, N),
                       detail::FlipClusters<SigmaView, LabelView>{sigma, labels, N, seed, step});
}

/// The Swendsen-Wang update on execution space `Space`: every kernel runs on the instance
/// given to the constructor, and the scratch arrays live in its memory space.
template <class Space>
class SwendsenWang {
 public:
  using execution_space = Space;
  using memory_space = typename Space::memory_space;
  using SigmaView = Kokkos::View<std::uint8_t*, Space>;
  using CubeView = Kokkos::View<std::uint8_t*, Space>;
  using BondView = Kokkos::View<std::uint32_t*, Space>;
  using Labels32 = Kokkos::View<std::uint32_t*, Space>;
  using Labels64 = Kokkos::View<std::uint64_t*, Space>;

  SwendsenWang(const Space& space, const Geometry& geometry,
               Labelling labelling = Labelling::union_find,
               LabelWidth width = LabelWidth::automatic)
      : space_(space),
        geometry_(geometry),
        labelling_(labelling),
        bonds_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "cvf::sw_bonds"), geometry.cells()) {
    const std::int64_t variables = geometry.variables();
    wide_ = width == LabelWidth::bits64 ||
            (width == LabelWidth::automatic && variables >= (std::int64_t{1} << 32));
    if (width == LabelWidth::bits32 && variables >= (std::int64_t{1} << 32)) {
      throw std::invalid_argument("cvf::SwendsenWang: 32-bit labels need 6 N < 2^32");
    }
    if (wide_) {
      labels64_ =
          Labels64(Kokkos::view_alloc(Kokkos::WithoutInitializing, "cvf::sw_labels"), variables);
    } else {
      labels32_ =
          Labels32(Kokkos::view_alloc(Kokkos::WithoutInitializing, "cvf::sw_labels"), variables);
    }
  }

  /// One Swendsen-Wang update of `sigma` (6 N, arm-major) at fixed `cube_state` (N / 4).
  void sweep(const SigmaView& sigma, const CubeView& cube_state, const BondThresholds& thresholds,
             std::uint64_t seed, std::uint64_t step) {
    Kokkos::Timer timer;
    auto lap = [&](double SwPhaseSeconds::*phase) {
      if (!timing_) return;
      space_.fence();
      phases_.*phase += timer.seconds();
      timer.reset();
    };
    if (timing_) space_.fence();
    timer.reset();
    place_bonds(space_, geometry_, sigma, cube_state, thresholds, seed, step, bonds_);
    lap(&SwPhaseSeconds::bonds);
    label();
    timer.reset();
    if (wide_) {
      flip_clusters(space_, geometry_, sigma, labels64_, seed, step);
    } else {
      flip_clusters(space_, geometry_, sigma, labels32_, seed, step);
    }
    lap(&SwPhaseSeconds::flip);
    if (timing_) ++phases_.steps;
  }

  /// Fences and times every phase of the following sweeps (profiling; off by default).
  void set_phase_timing(bool on) {
    timing_ = on;
    phases_ = SwPhaseSeconds{};
  }
  /// Seconds per phase accumulated since set_phase_timing(true).
  const SwPhaseSeconds& phase_seconds() const { return phases_; }

  /// Labels the clusters of the current bonds() with the chosen scheme (sweep calls it;
  /// tests fill bonds() themselves and call it directly).
  void label() {
    if (wide_) {
      run_labelling(labels64_);
    } else {
      run_labelling(labels32_);
    }
  }

  /// The execution space instance every kernel of this update runs on.
  const Space& space() const { return space_; }
  const Geometry& geometry() const { return geometry_; }
  Labelling labelling() const { return labelling_; }
  void set_labelling(Labelling labelling) { labelling_ = labelling; }
  /// Cells per block of union-find's shared-memory stage (a tuning knob: any valid shape
  /// gives the same labels; throws std::invalid_argument for an invalid one).
  void set_label_block(const LabelBlock& block) {
    check_label_block(block);
    block_ = block;
  }
  const LabelBlock& label_block() const { return block_; }
  bool wide_labels() const { return wide_; }
  /// Bytes of scratch per molecule (bonds and labels).
  double bytes_per_molecule() const { return 4.0 + 6.0 * (wide_ ? 8 : 4); }

  /// The bond words of the last sweep (N entries, layout in cluster_bonds.hpp).
  const BondView& bonds() const { return bonds_; }
  /// The 32- or 64-bit label array; only the one matching wide_labels() is allocated.
  const Labels32& labels32() const { return labels32_; }
  const Labels64& labels64() const { return labels64_; }
  /// The labels of the last labelling, copied to the host.
  std::vector<std::uint64_t> labels_on_host() const {
    std::vector<std::uint64_t> out(geometry_.variables());
    if (wide_) {
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels64_);
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
    } else {
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels32_);
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
    }
    return out;
  }

  /// Scan + analysis iterations of the last label equivalence (0 after union-find).
  int last_iterations() const { return iterations_; }
  /// Statistics of the last labelling, computed on demand.
  std::int64_t cluster_count() const {
    return wide_ ? count_clusters(space_, labels64_) : count_clusters(space_, labels32_);
  }
  std::int64_t largest_cluster_size() const {
    return wide_ ? largest_cluster(space_, labels64_) : largest_cluster(space_, labels32_);
  }

 private:
  template <class LabelView>
  void run_labelling(const LabelView& labels) {
    if (labelling_ == Labelling::label_equivalence) {
      Kokkos::Timer timer;
      iterations_ = label_equivalence(space_, geometry_, bonds_, labels);
      if (timing_) {
        space_.fence();
        phases_.hooks += timer.seconds();
      }
    } else {
      union_find(space_, geometry_, bonds_, labels, timing_ ? &phases_ : nullptr, block_);
      iterations_ = 0;
    }
  }

  Space space_;
  Geometry geometry_;
  Labelling labelling_;
  BondView bonds_;
  bool wide_ = false;
  Labels32 labels32_;
  Labels64 labels64_;
  int iterations_ = 0;
  bool timing_ = false;
  SwPhaseSeconds phases_;
  LabelBlock block_;
};

}  // namespace portamc::cvf

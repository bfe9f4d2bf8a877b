#pragma once
// The forward Glauber chain of GlauberSampler (glauber_sampler.hpp) over the ranks of a
// Communicator: the slab chain (row_slab_chain.hpp) with one halo row on each side and the
// family below, whose moves are the colour classes' vertices (vertex runs) in the slab's rows,
// run by the slab kernels (slab_glauber_kernels.hpp). The class of step t and the random word
// of a vertex are keyed by (seed, t) and (seed, global vertex, t), as on one rank, so after
// every step the slabs put together are bitwise the one-rank state, whatever the number of
// ranks.
//
// Dominoes and lozenges, one launch per step (tiled domino steps are the same chain with
// another family: distributed_tiled_domino.hpp), forward chains only (coupling from the past
// spreads whole samples over the ranks instead: run_tilings.cpp). Memory: every rank builds the
// start tiling of the whole domain on the host (Thurston), and gathering a tiling puts the whole
// state on rank 0; the device holds the slab, its counts and the class runs of the slab only.
#include <Kokkos_Core.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/engine/detail/glauber_sampler.hpp"
#include "portamc/tilings/engine/detail/row_slab_chain.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/engine/detail/slab_glauber_kernels.hpp"
#include "portamc/tilings/engine/detail/slab_type_counts.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"

namespace portamc::tilings {

/// How a model's state is laid out in rows, and its slab kernel.
template <class Model>
struct SlabLayout;
template <>
struct SlabLayout<DominoModel> {
  static int rows(const SquareDomain& d) { return d.rows(); }
  static int row_length(const SquareDomain& d) { return d.cols(); }
  template <class Space>
  using Kernel = DominoSlabStep<Space>;
};
template <>
struct SlabLayout<LozengeModel> {
  static int rows(const TriangularDomain& d) { return d.height(); }
  static int row_length(const TriangularDomain& d) { return d.width(); }
  template <class Space>
  using Kernel = LozengeSlabStep<Space>;
};

/// The slab of this rank for a model's domain (throws std::invalid_argument naming the sizes
/// when the ranks cannot split it).
template <class Model>
RowSlab model_slab(const typename Model::Domain& domain, int rank, int ranks) {
  return row_slab(SlabLayout<Model>::rows(domain), SlabLayout<Model>::row_length(domain), rank,
                  ranks, Model::name);
}

/// The slab chain's family (row_slab_chain.hpp) of a vertex model: classes are GlauberSampler's,
/// a rank runs the vertices of its vertex rows [vertex_begin, vertex_end).
template <class Model>
struct VertexSlabFamily : ClassStepFamily<VertexSlabFamily<Model>> {
  using Element = std::uint8_t;
  static constexpr int class_count = Model::classes;
  typename Model::Domain domain;
  typename Model::Geometry geometry;
  std::vector<std::uint64_t> thresholds;

  int rows() const { return SlabLayout<Model>::rows(domain); }
  int row_length() const { return SlabLayout<Model>::row_length(domain); }
  int halo() const { return 1; }
  int classes() const { return class_count; }

  template <class Space>
  struct Moves {
    std::array<VertexRuns<Space>, class_count> runs;  ///< in the slab
    std::array<std::int64_t, class_count> sizes{};    ///< in the whole domain
    Kokkos::View<const std::uint64_t*, Space> thresholds;
    std::int64_t size(int c) const { return sizes[static_cast<std::size_t>(c)]; }
  };
  template <class Space>
  Moves<Space> slab_moves(const Space& /*space*/, const RowSlab& slab) const {
    // The whole domain's runs (host; their 32-bit offsets bound a class to 2^31 - 1 vertices
    // as on one rank), restricted to the slab.
    const auto all = Model::vertex_runs(domain);
    Moves<Space> m;
    for (int c = 0; c < class_count; ++c) {
      m.sizes[static_cast<std::size_t>(c)] = all[static_cast<std::size_t>(c)].vertex_count();
      m.runs[static_cast<std::size_t>(c)] = to_device<Space>(
          restrict_runs(all[static_cast<std::size_t>(c)], slab.vertex_begin, slab.vertex_end),
          class_count);
    }
    Kokkos::View<std::uint64_t*, Space> t("portamc::tilings::thresholds", thresholds.size());
    Kokkos::deep_copy(t, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace,
                                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(thresholds.data(),
                                                                               thresholds.size()));
    m.thresholds = t;
    return m;
  }
  template <class Space>
  void launch_class(const Space& space, const Kokkos::View<std::uint8_t*, Space>& state,
                    const Moves<Space>& moves, int c, const RowSlab& slab, std::uint64_t seed,
                    std::uint64_t t) const {
    using Kernel = typename SlabLayout<Model>::template Kernel<Space>;
    const VertexRuns<Space>& runs = moves.runs[static_cast<std::size_t>(c)];
    if (runs.vertices == 0) return;
    Kokkos::parallel_for(
        "portamc::tilings::slab_glauber_step",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space, 0, runs.vertices),
        Kernel{state, runs, moves.thresholds, geometry, seed, t, slab.local_begin});
  }
};

/// The chain over ranks with the tiling accessors of the run layer. Family: VertexSlabFamily
/// (one step per launch), or TiledDominoSlabFamily (DistributedTiledDomino).
template <class Model, class Space, class Family = VertexSlabFamily<Model>>
class DistributedGlauber : public RowSlabChain<Family, Space> {
  using Chain = RowSlabChain<Family, Space>;

 public:
  using Domain = typename Model::Domain;
  using Tiling = typename Model::Tiling;
  using Weights = typename Model::Weights;
  using State = typename Chain::State;
  static constexpr int classes = Model::classes;
  static constexpr int tile_types = Model::tile_types;

  /// Collective. Starts from the maximal or minimal tiling (throws std::invalid_argument for
  /// an untileable domain or a decomposition the ranks cannot make, on every rank alike).
  /// All kernels run on `space`.
  DistributedGlauber(const Space& space, const Domain& domain, const Weights& weights,
                     std::uint64_t seed, const parallel::Communicator& comm,
                     Start start = Start::maximal, UpdateRule rule = UpdateRule::heat_bath)
      : DistributedGlauber(
            space, domain, weights, seed, comm,
            start == Start::maximal ? Model::maximal(domain) : Model::minimal(domain), rule) {}
  /// Collective. Starts from a valid tiling of the whole domain (the same on every rank).
  DistributedGlauber(const Space& space, const Domain& domain, const Weights& weights,
                     std::uint64_t seed, const parallel::Communicator& comm, const Tiling& initial,
                     UpdateRule rule = UpdateRule::heat_bath)
      : DistributedGlauber(
            space,
            Family{{}, domain, Model::geometry(domain, weights), Model::thresholds(weights, rule)},
            seed, comm, initial) {}

  const Domain& domain() const { return this->family().domain; }

  /// Replaces the state by the slab of a valid tiling of the whole domain.
  void set_tiling(const Tiling& tiling) {
    Model::validate(domain(), tiling);
    this->set_whole_state(Model::bytes(tiling));
  }
  /// Collective: the whole state on rank 0 (rows in order), empty on the other ranks.
  std::vector<std::uint8_t> bytes_on_root() const { return this->state_on_root(); }
  /// Collective: the whole tiling on every rank (gathered, then broadcast).
  Tiling tiling() const { return Model::from_bytes(domain(), this->whole_state()); }

  /// Adds the owned cells of the current state to the per-cell tile-type counts.
  void accumulate_densities() {
    counts_.accumulate(this->local_state(), this->slab().local_offset(this->slab().own_begin),
                       this->slab(), tile_types, std::string(Model::name));
  }
  /// Collective: the densities of the whole domain on rank 0 (SlabTypeCounts::on_root).
  TypeDensities densities_on_root() const {
    return counts_.on_root(this->slab(), tile_types, this->communicator());
  }

 protected:
  /// Collective. Runs `family` from a valid tiling of the whole domain.
  DistributedGlauber(const Space& space, Family family, std::uint64_t seed,
                     const parallel::Communicator& comm, const Tiling& initial)
      : Chain(space, std::move(family), seed, comm, Model::name), counts_(space) {
    set_tiling(initial);
  }

 private:
  SlabTypeCounts<Space> counts_;
};

}  // namespace portamc::tilings

#pragma once
// An SU(2) gauge field split over the MPI ranks of a communicator (domain decomposition,
// decomposition.hpp), and its heatbath / overrelaxation updates.
//
// Each rank holds its block padded by one halo layer per side of every split direction as an
// ordinary GaugeField on the padded extents (so the slot layout and every one-rank kernel
// apply); update kernels run with the SubLattice embedding (sub_lattice.hpp): interior sites
// only, random numbers keyed by the global link. After each checkerboard pass (mu, parity)
// the halo copies of that group are refreshed (halo_exchange.hpp). Passes run in the global
// parity order of the one-rank Updater, so the configuration is bitwise the one-rank one.
//
// Measurements: the plaquette and the action are summed over interior sites and ranks, the
// Polyakov loop is combined from per-block products of time links (both equal to the one-rank
// values to rounding). Anything else (Wilson loops, smearing, files) works on the canonical
// configuration gathered on rank 0 (to_canonical).
//
// Every member that takes no `const` rank-local meaning is collective: all ranks call it in
// the same order.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/parallel.hpp"
#include "portamc/su2/detail/decomposition.hpp"
#include "portamc/su2/detail/halo_exchange.hpp"
#include "portamc/su2/detail/sub_lattice.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"

namespace portamc::su2 {

/// How a run is spread over ranks (YAML parallel.*).
struct ParallelOptions {
  std::vector<int> grid;  ///< P_0 .. P_{D-1}; empty = Decomposition::automatic_grid
  /// parallel.halo_transport (core halo_transport.hpp); resolved by the field.
  parallel::HaloTransport transport = parallel::HaloTransport::automatic;
};

template <class ExecutionSpace, class Real = double>
class DistributedField {
 public:
  using field_type = GaugeField<ExecutionSpace, Real>;
  using link_view = typename field_type::link_view;

  /// A cold field on `extents` split over `comm` as `options` say, its block in the memory of
  /// `space`, whose instance runs the block's kernels and halo exchanges. Throws
  /// std::invalid_argument (the same on every rank) for a decomposition that does not fit.
  DistributedField(const ExecutionSpace& space, const std::vector<int>& extents,
                   const parallel::Communicator& comm, const ParallelOptions& options = {});

  const Decomposition& decomposition() const { return decomposition_; }
  const parallel::Communicator& communicator() const { return comm_; }
  const SubLattice& embedding() const { return embedding_; }
  /// The padded block of this rank.
  field_type& local() { return local_; }
  const field_type& local() const { return local_; }
  const Geometry& geometry() const { return local_.geometry(); }
  std::vector<int> extents() const { return decomposition_.global_extents(); }
  std::int64_t volume() const { return decomposition_.global_volume(); }
  std::int64_t link_count() const { return volume() * decomposition_.dimensions(); }
  HaloExchange<ExecutionSpace, Real>& halo() { return *halo_; }
  /// The halo transport in use (never automatic).
  parallel::HaloTransport transport() const { return transport_; }

  // Collective.
  void cold_start();
  /// Link l (global) from draw(seed, purpose_initial_state, l, 0), as GaugeField::hot_start.
  void hot_start(std::uint64_t seed);
  /// `canonical` (the whole lattice, GaugeField's canonical layout) is read on rank 0 only
  /// and sent out in blocks; other ranks pass anything (an empty vector). A wrong size throws
  /// std::invalid_argument on rank 0 (before any message: the others then wait, so the app
  /// aborts; the app only loads checked files).
  void from_canonical(const std::vector<double>& canonical);
  /// The whole configuration in canonical layout on rank 0; empty on the other ranks.
  std::vector<double> to_canonical() const;
  /// Refreshes every halo (after writing links by other means than the updater).
  void exchange_halos();
  /// Refreshes the halo copies of one link group (padded parity).
  void exchange_halos(int mu, int padded_parity) {
    halo_->exchange(local_.links(), mu, padded_parity);
  }
  void reunitarise();
  double max_unitarity_violation() const;
  PlaquetteAverage plaquette() const;
  double action(double beta) const;
  /// Spatial average of ½ Tr P(x) (GaugeField::polyakov_loop) on every rank, without
  /// gathering the lattice: each rank multiplies the time links of its block per spatial site,
  /// rank 0 multiplies those block products in time order. Equal to the one-rank value to
  /// rounding (bitwise on host backends when time is not split).
  double polyakov_loop() const;

 private:
  PlaquetteSums plaquette_sums() const;

  parallel::Communicator comm_;
  Decomposition decomposition_;
  SubLattice embedding_;
  parallel::HaloTransport transport_ = parallel::HaloTransport::mpi_direct;
  field_type local_;
  std::unique_ptr<HaloExchange<ExecutionSpace, Real>> halo_;
};

/// Updater for a DistributedField: the same sweeps and RNG keys as Updater (per-link
/// heatbath kernel; retry_queue and count_attempts are not used here), halo exchange after
/// every pass.
template <class ExecutionSpace, class Real = double>
class DistributedUpdater {
 public:
  using field_type = DistributedField<ExecutionSpace, Real>;

  /// The sweeps run on `space`: give it the instance of the field (field.local().space()),
  /// whose halo exchanges wait for that instance's work.
  DistributedUpdater(const ExecutionSpace& space, const UpdateParameters& params);
  const UpdateParameters& parameters() const { return params_; }
  const ExecutionSpace& space() const { return space_; }

  void heatbath_sweep(field_type& field);
  void overrelaxation_sweep(field_type& field);
  void update(field_type& field);

  std::uint64_t heatbath_sweeps_done() const { return heatbath_sweeps_; }
  void set_heatbath_sweeps_done(std::uint64_t sweeps);
  std::uint64_t updates_done() const { return updates_; }
  /// Overlap the halo exchange of each pass with the update of its inner sites (default):
  /// the boundary sites are updated first, then the inner ones while the exchange runs.
  /// Bitwise the same links either way (links of one group are independent).
  void set_overlap(bool overlap) { overlap_ = overlap; }
  bool overlap() const { return overlap_; }
  /// Links updated (whole lattice) and failures summed over ranks. Collective.
  HeatbathTally tally(const parallel::Communicator& comm) const;
  void reset_tally();

 private:
  using memory_space = typename ExecutionSpace::memory_space;
  ExecutionSpace space_;
  UpdateParameters params_;
  std::uint64_t heatbath_sweeps_ = 0;
  std::uint64_t updates_ = 0;
  std::uint64_t links_updated_ = 0;
  bool overlap_ = true;
  Kokkos::View<count_type, memory_space> failures_;
};

#define PORTAMC_SU2_DISTRIBUTED_(Space)                   \
  extern template class DistributedField<Space, float>;   \
  extern template class DistributedField<Space, double>;  \
  extern template class DistributedUpdater<Space, float>; \
  extern template class DistributedUpdater<Space, double>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_DISTRIBUTED_)
#undef PORTAMC_SU2_DISTRIBUTED_

}  // namespace portamc::su2

#pragma once
// The parallel multicanonical protocol of Gross et al. (2018) on top of a walker engine
// (IsingMuca, or SpinMuca for the other spin models): weight iteration until the energy
// histogram is flat, then a production run with fixed weights in blocks for jackknife errors.
// Host-side control only; all sampling happens in the model's kernels.
//
// Several ranks. The W walkers are split into contiguous shares, balanced to within one
// walker (parallel::share_of), each rank's model simulating its share with the global walker
// indices as RNG entities. The energy histograms are summed over ranks (exact integer sums)
// after every iteration and production block, so every rank computes the same weights and
// the run is bitwise the one-rank run whatever the rank count. W = auto fills every rank's
// device: W = ranks x the largest default_walkers<Space>() over the ranks.
//
// Checkpoints hold all W walkers (gathered on rank 0, walker_states.hpp) and the driver state,
// which is the same on every rank; restore() gives each rank its share of the run's W walkers,
// so a checkpoint resumes on any rank count up to W.
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/detail/spin_muca.hpp"
#include "portamc/muca/detail/walker_states.hpp"
#include "portamc/parallel.hpp"

namespace portamc::muca {

/// Walker groups a production needs for errors from a jackknife over the groups; with fewer,
/// errors come from bins of consecutive blocks (production_analysis.hpp).
inline constexpr int kMinJackknifeGroups = 16;

/// One weight iteration, as stored in the output.
struct IterationRecord {
  int iteration = 0;
  std::uint64_t therm_attempts = 0;   ///< per walker
  std::uint64_t update_attempts = 0;  ///< per walker, recorded in the histogram
  int width = 0;                      ///< distinct energy bins visited
  double kullback_leibler = 0;        ///< d_k of the histogram against a flat one over `width` bins
  double chebyshev = 0;               ///< max |H/mean - 1| over visited bins
  double seconds = 0;
  std::vector<count_type> histogram;      ///< summed over walkers
  std::vector<double> log_weights_after;  ///< weights for the next iteration
};

/// Driver state beyond the model's: what a checkpoint must hold to resume bit for bit.
struct DriverState {
  int iteration = 0;
  bool full_range = false;  ///< every accessible bin has been visited
  bool converged = false;
  double updates_real = 0;  ///< N_updates before truncation, grown by updates_growth
  int previous_width = 0;
  int blocks_done = 0;
  std::uint64_t production_updates = 0;  ///< attempts per walker per block
  std::uint64_t production_therm = 0;    ///< attempts per walker before the first block
  std::vector<IterationRecord> records;
  std::vector<std::vector<count_type>> block_histograms;
  /// Production recorded by walker group (IsingMuca::sample_by_group): G rows of bins summed
  /// over the blocks, and per block each group's attempts in the stationarity windows
  /// (G x windows, muca/stationarity.hpp). Empty for a production begun by a portamc that did
  /// not record them; then errors come from time bins.
  int groups = 0;
  std::vector<count_type> group_histograms;
  std::vector<std::vector<count_type>> block_group_windows;
  /// Order-parameter measurements (Parameters::order_parameter_sweeps): attempts per walker
  /// between them (0: none), and per (group, bin) the normalised limbs of the sums of d^0..d^4
  /// over the blocks, G x bins x kOrderSlots. Kept with the group histograms, dropped with them.
  std::uint64_t order_interval = 0;
  std::vector<std::uint64_t> group_order_sums;
  /// With fewer than kMinJackknifeGroups groups (errors from time bins): the same sums per
  /// block, summed over the groups, bins x kOrderSlots each.
  std::vector<std::vector<std::uint64_t>> block_order_sums;
};

struct Checkpoint {
  ModelState model;  ///< all walkers of the run
  DriverState driver;
};

/// The run on execution space `Space` (any backend of the build, portamc/backends.hpp): the
/// model's kernels run on the instance passed to the constructor. `Engine` is IsingMuca (the
/// 2D Ising model, tuned) or SpinMuca (Ising and Potts in 2D and 3D, spin_muca.hpp). Without
/// given accessible bins, SpinMuca's run finds them (SpinMuca::discover_accessible).
template <class Space, class Engine = IsingMuca<Space>>
class Simulation {
 public:
  using execution_space = Space;
  using engine_type = Engine;

  /// std::invalid_argument for bad parameters and for fewer walkers than ranks (the same on
  /// every rank). W = auto fills the device of `space`. SpinMuca needs `hamiltonian`; the
  /// weight iteration's full range is the accessible bins: given (`accessible`, one flag per
  /// bin of SpinBins), or found by the run when empty (SpinMuca::discover_accessible).
  Simulation(const Space& space, const Parameters& params,
             const parallel::Communicator& comm = parallel::Communicator(),
             const Hamiltonian* hamiltonian = nullptr,
             const std::vector<unsigned char>& accessible = {});

  /// This rank's walkers (all of them on one rank).
  Engine& model() { return model_; }
  const Engine& model() const { return model_; }
  /// The bins the weight iteration covers and the production records.
  const EnergyBins& bins() const;
  /// The model the walkers simulate.
  Hamiltonian hamiltonian() const;
  /// The run's parameters; `walkers` is the resolved total over all ranks.
  const Parameters& parameters() const { return params_; }
  /// Walkers over all ranks.
  long long walkers() const { return params_.walkers; }
  const parallel::Communicator& communicator() const { return comm_; }
  const DriverState& driver() const { return driver_; }

  /// One thermalisation + recording pass and a weight update. Returns the record.
  const IterationRecord& iterate();
  bool converged() const { return driver_.converged; }
  bool iterations_exhausted() const { return driver_.iteration >= params_.max_iterations; }

  /// Production: thermalise once under the final weights (at the first block,
  /// production_therm_attempts()), then one block of fixed-weight sampling. Returns the block
  /// histogram.
  const std::vector<count_type>& production_block();
  bool production_done() const { return driver_.blocks_done >= params_.production_blocks; }

  /// Collective: the state of all walkers (gathered on rank 0; no walkers elsewhere) and the
  /// driver state (the same on every rank).
  Checkpoint checkpoint() const;
  /// Every rank passes the whole checkpoint, written on any rank count, and takes its share.
  /// Throws std::invalid_argument if it belongs to other parameters (L, W, seed).
  void restore(const Checkpoint& checkpoint);

  /// Every block of the production was recorded by walker group.
  bool production_by_group() const;
  /// Every block measured the order parameter: by walker group, and per block too when the
  /// errors come from time bins.
  bool order_parameter_recorded() const;

  /// The N_updates rule of the paper (Eq. 7) for width w: prefactor * w^exponent / W (all
  /// walkers of all ranks).
  double updates_for_width(int width) const;
  /// round(production_therm_prefactor * N^production_therm_exponent), per walker.
  std::uint64_t production_therm_attempts() const;

 private:
  Parameters params_;
  parallel::Communicator comm_;
  Engine model_;
  DriverState driver_;
};

// Instantiated once per backend of the build and engine (simulation.cpp).
#define PORTAMC_MUCA_EXTERN_(S)        \
  extern template class Simulation<S>; \
  extern template class Simulation<S, SpinMuca<S>>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_EXTERN_)
#undef PORTAMC_MUCA_EXTERN_

/// Kullback–Leibler divergence sum_k P ln(P / Q) of the normalised histogram P against
/// the flat Q = 1/w over w = max(width, floor) bins, with 0 ln 0 = 0. The run uses the paper's
/// floor of 10, or the number of accessible bins once all are visited and they are fewer.
double kullback_leibler_flat(const std::vector<count_type>& histogram, int width, int floor = 10);
/// Chebyshev distance max_k |H(k)/m - 1| over visited bins, m = total / visited bins.
double chebyshev_flat(const std::vector<count_type>& histogram);
/// Number of non-empty bins.
int visited_bins(const std::vector<count_type>& histogram);

}  // namespace portamc::muca

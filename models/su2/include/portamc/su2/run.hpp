#pragma once
// A portamc-su2 run: its typed parameters (RunParameters, validated once), the Markov chain
// over one coupling or a scan of couplings with a measurement after every few updates
// (Simulation), and what a checkpoint must hold to continue it bit for bit (RunCheckpoint).
//
// Schedule. One "update" is UpdateParameters' n_hb heatbath + n_or overrelaxation sweeps.
// For each coupling beta_k in turn: `thermalisation` updates, then `measurements`
// measurements, the first right after thermalisation and each later one after
// `updates_between_measurements` more updates. The first coupling starts from the configured
// start; every later one continues from the last configuration of the one before (and
// thermalises again). The heatbath RNG step counter runs on over the whole run, so no two
// sweeps of a run share random numbers; a file start continues the counter stored in the file.
//
// Reproducibility. The state is the configuration, the heatbath counter and the position in the
// schedule. Reunitarisation passes (every `reunitarise_every` updates of the run) are counted
// here, not by the Updater, so that a resumed run does them at the same updates.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/parallel.hpp"
#include "portamc/su2/config_file.hpp"
#include "portamc/su2/detail/heatbath_sampling.hpp"
#include "portamc/su2/distributed_field.hpp"
#include "portamc/su2/flow_scales.hpp"
#include "portamc/su2/potential.hpp"
#include "portamc/su2/updater.hpp"

namespace portamc::su2 {

enum class StartKind { cold, hot, file };

const char* to_string(StartKind start);
const char* to_string(HeatbathMethod method);

struct RunParameters {
  std::vector<int> extents{8, 8, 8, 8};  ///< N_0 .. N_{D-1}; the last direction is time
  std::vector<double> betas{2.3};        ///< one coupling, or the couplings of a scan in order
  StoragePrecision precision = StoragePrecision::kDouble;
  StartKind start = StartKind::cold;
  std::string start_file;  ///< for StartKind::file
  std::uint64_t seed = 1;

  int heatbath_sweeps = 1;        ///< n_hb per update
  int overrelaxation_sweeps = 0;  ///< n_or per update
  HeatbathMethod method = HeatbathMethod::automatic;
  double kp_threshold = acceptance_crossover_alpha;
  int max_attempts = 64;
  int reunitarise_every = 0;  ///< updates of the run between reunitarisation passes; 0 = never

  long long thermalisation = 100;  ///< updates before the first measurement, per coupling
  long long measurements = 100;    ///< per coupling, >= 2
  long long updates_between_measurements = 1;

  int wilson_r_max = 0;  ///< 0 = no Wilson loops
  int wilson_t_max = 0;
  double ape_alpha = 0.5;  ///< staple weight (smearing.hpp)
  int ape_iterations = 0;  ///< 0 = no smeared loops
  int polyakov_bins = 100;

  /// Gradient flow (flow.hpp) of every flow_every-th measured configuration (0: none), from
  /// t = 0 to flow_t_max in steps of flow_epsilon, observables recorded at flow_record_times
  /// (empty: after every step). Over several ranks on the same decomposition as the updates.
  int flow_every = 0;
  double flow_t_max = 0;
  double flow_epsilon = 0.01;
  std::vector<double> flow_record_times;
  double flow_adaptive = 0;  ///< local error tolerance of adaptive steps; 0: fixed epsilon
  double flow_reference = su2_flow_reference;  ///< t^2 E(t0) = W(w0^2) = this (analysis only)

  /// Jackknife bins of the susceptibility and the potential: 0 = automatic
  /// (stats::choose_bins from tau_int, run_analysis.hpp); n >= 2 = n bins of equal length of the
  /// equilibrated measurements (fewer if fewer measurements). Means always get binned errors
  /// with bins chosen from their own tau_int.
  int jackknife_blocks = 0;
  bool potential = true;  ///< static-potential analysis of the Wilson loops
  int fit_r_min = 1;
  int fit_r_max = 0;  ///< 0 = wilson_r_max
  int plateau_t = 0;  ///< 0 = automatic
  double plateau_tolerance = 1.0;
  double sqrt_sigma_mev = 440.0;

  int dimensions() const { return static_cast<int>(extents.size()); }
  std::int64_t volume() const;
  /// Sites of one time slice: the N_s of the Polyakov susceptibility.
  std::int64_t spatial_volume() const;
  bool wilson_loops() const { return wilson_r_max > 0; }
  bool smearing() const { return wilson_loops() && ape_iterations > 0; }
  bool potential_analysis() const { return wilson_loops() && potential; }
  bool flow() const { return flow_every > 0; }
  /// The flow times at which observables are recorded (increasing, the last = flow_t_max).
  std::vector<double> flow_times() const;
  /// Wilson-loop values per measurement: r_max * t_max.
  std::size_t loops_per_measurement() const;
  /// The Updater's parameters at `beta` (reunitarisation off: the run does it).
  UpdateParameters update_parameters(double beta) const;
  /// Options of the static-potential analysis with jackknife bins of `block_size` measurements
  /// (at least 1).
  PotentialOptions potential_options(std::size_t block_size) const;

  /// Throws std::invalid_argument naming the first inconsistent parameter.
  void validate() const;
  /// Every parameter that shapes the Markov chain and its measurements, as text: a checkpoint
  /// only continues a run whose fingerprint is the same (analysis options may change).
  std::string fingerprint() const;
};

/// Measurements at one coupling, in Monte Carlo order.
struct PointRecord {
  double beta = 0;
  std::vector<std::int64_t> step;  ///< updates of the run done before the measurement
  std::vector<double> plaquette, plaquette_spatial, plaquette_temporal;
  std::vector<double> polyakov;  ///< spatial average of ½ Tr P(x)
  /// measurements x loops_per_measurement(), row-major, loop index t_max + (T-1).
  std::vector<double> wilson, wilson_smeared;
  std::vector<std::uint64_t> polyakov_histogram;  ///< counts of `polyakov` in bins over [-1, 1]
  /// Flowed configurations: the measurement index of each, and per configuration the
  /// observables at every flow time (configurations x flow_times(), row-major).
  std::vector<std::int64_t> flow_measurement;
  std::vector<double> flow_energy_plaquette, flow_energy_clover, flow_charge;
  std::uint64_t updates = 0;  ///< updates at this coupling
  std::uint64_t heatbath_links = 0, heatbath_failures = 0;
  double update_seconds = 0, measurement_seconds = 0;

  std::size_t measurements() const { return step.size(); }
};

/// Where the chain is.
struct ChainPosition {
  std::size_t point = 0;              ///< index into RunParameters::betas
  long long thermalisation_done = 0;  ///< at this coupling
  long long measurements_done = 0;    ///< at this coupling
  std::uint64_t updates = 0;          ///< updates of the run so far (the series' step)
  std::uint64_t heatbath_sweeps = 0;  ///< the heatbath RNG step counter
};

struct RunCheckpoint {
  std::string fingerprint;
  ChainPosition position;
  std::vector<double> links;        ///< canonical layout (gauge_field.hpp), exact for float
  std::vector<PointRecord> points;  ///< every coupling begun
};

/// Histogram bin of a spatial-average Polyakov loop p in [-1, 1] (bins of equal width).
int polyakov_histogram_bin(double p, int bins);
/// The bins + 1 edges of that histogram.
std::vector<double> polyakov_histogram_edges(int bins);

class Simulation {
 public:
  /// Validates the parameters and allocates the field (cold) in the configured precision on
  /// the execution space of `space`, whose instance runs every kernel of the run (any backend
  /// of the build, portamc/backends.hpp; portamc::with_backend gives the one of a name).
  /// std::invalid_argument for bad parameters or a lattice that does not fit in that space's
  /// memory.
  /// Defined for every execution space of the build (run.cpp).
  template <class Space>
  Simulation(const Space& space, const RunParameters& parameters);
  /// The same run on the ranks of `comm`: on more than one rank the lattice is split into
  /// blocks (DistributedField; `options` picks the rank grid); configurations are bitwise
  /// those of one rank and measurements equal to rounding. Then every member is collective
  /// (all ranks call it in the same order) and configurations (configuration(), checkpoint(),
  /// the links given to start() and restore()) live on rank 0 only; measurement records are
  /// the same on every rank. Throws std::invalid_argument, identically on every rank, for a
  /// rank grid that does not fit the lattice.
  template <class Space>
  Simulation(const Space& space, const RunParameters& parameters,
             const parallel::Communicator& comm, const ParallelOptions& options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Applies the configured start; `file` is the loaded configuration for StartKind::file
  /// (read_gauge_config against these extents and precision) and ignored otherwise.
  void start(const GaugeConfig* file);
  /// Continues from a checkpoint of the same run (std::invalid_argument otherwise).
  void restore(const RunCheckpoint& checkpoint);
  RunCheckpoint checkpoint();

  /// One unit of work: a thermalisation update, or the updates before a measurement and the
  /// measurement. Does nothing when done().
  void advance();
  bool done() const;
  /// Fraction of all updates of the run done (0..1).
  double fraction_done() const;
  /// Short status text for a progress line.
  std::string status() const;

  const RunParameters& parameters() const { return parameters_; }
  const ChainPosition& position() const { return position_; }
  const std::vector<PointRecord>& points() const { return points_; }
  /// The configuration now, canonical layout.
  std::vector<double> configuration() const;
  /// Link updates (heatbath and overrelaxation) in one update: (n_hb + n_or) V D.
  double links_per_update() const;
  /// "one rank", or the rank grid with global and local extents and the MPI transport.
  std::string decomposition_text() const;
  /// The name of the backend the run uses (portamc/backends.hpp), e.g. "cuda".
  std::string backend() const;

  struct Engine;  // the field and updater in the configured precision (run.cpp)

 private:
  void update_once(PointRecord& record);
  void measure(PointRecord& record);
  void begin_point();
  void collect_tally(PointRecord& record);

  RunParameters parameters_;
  ChainPosition position_;
  std::vector<PointRecord> points_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace portamc::su2

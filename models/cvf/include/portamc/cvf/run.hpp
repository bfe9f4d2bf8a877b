#pragma once
// A portamc-cvf run: its typed parameters (validated once), the Markov chain over one state
// point or a scan of state points with a measurement after every few MC steps, and the
// per-point records the analysis and the output file are made from.
//
// Schedule. The state points are every (T, P) of `pressures` x `temperatures`, pressure
// outermost (isobars, the order the paper's figures use), or the pairs (T_i, P_i). At each point:
// `thermalisation` MC steps, then `measurements` measurements, the first right after thermalisation
// and each later one after `steps_between_measurements` more steps. The first point starts from the
// configured start; every later one continues from the configuration the one before left.
// One MC step is the paper's: a volume move, an eta (cube) update, then a sigma update by
// Metropolis (six arm passes) or by Swendsen-Wang. The RNG step counter runs on over the whole
// run, so no two steps share random numbers and the run is reproducible from its seed.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "portamc/cvf/detail/cluster_labels.hpp"
#include "portamc/cvf/detail/metropolis_packed.hpp"
#include "portamc/cvf/parameters.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/parallel.hpp"

namespace portamc::cvf {

enum class SigmaAlgorithm { metropolis, swendsen_wang };
enum class StartKind { random, ordered };

const char* to_string(SigmaAlgorithm algorithm);
const char* to_string(StartKind start);

struct RunParameters {
  int L = 16;                               ///< lattice size; N = L^3 molecules
  std::vector<double> temperatures{300.0};  ///< K
  std::vector<double> pressures{0.1};       ///< MPa
  /// true: every (T, P) pair, pressure outermost; false: temperatures[i] with pressures[i].
  bool grid = true;
  ModelParameters model;
  SigmaAlgorithm algorithm = SigmaAlgorithm::metropolis;
  Labelling labelling = Labelling::union_find;
  /// The Metropolis sigma pass (one or four cells per thread); chains differ, physics does not.
  MetropolisKernel metropolis_kernel = MetropolisKernel::packed;
  StartKind start = StartKind::random;
  double initial_v_iso = 1.2;  ///< v0 per cell at the start
  bool volume_moves = true;
  double volume_step = 0;  ///< largest change of v_iso per move (v0); 0 = automatic, 1/sqrt(N)
  bool eta_updates = true;
  std::uint64_t seed = 1;
  /// parallel.halo_transport: how halo planes travel between ranks (more than one rank).
  parallel::HaloTransport halo_transport = parallel::HaloTransport::automatic;

  long long thermalisation = 1000;  ///< MC steps before the first measurement, per point
  long long measurements = 1000;    ///< per point, >= 2
  long long steps_between_measurements = 1;

  /// Bins of the jackknife of C_P, kappa_T and alpha_P (analysis.blocks): 0 = automatic
  /// (stats::choose_bins: bins of ceil(20 tau_int), at least 16), else exactly this many bins of
  /// the equilibrated measurements, 2..measurements/2 (equilibration may discard up to half).
  /// Plain means always take the statistics service's bins.
  int jackknife_blocks = 0;
  /// C_M(dt) for dt = 0..this, at most the equilibrated measurements - 1.
  int autocorrelation_lags = 200;

  std::int64_t molecules() const { return static_cast<std::int64_t>(L) * L * L; }
  std::size_t point_count() const {
    return grid ? temperatures.size() * pressures.size() : temperatures.size();
  }
  StatePoint point(std::size_t k) const;
  /// The volume step in use (the automatic choice resolved).
  double resolved_volume_step() const;
  /// Throws std::invalid_argument naming the first inconsistent parameter.
  void validate() const;
};

/// Measurements at one state point, in Monte Carlo order (per-molecule values, model units).
struct PointRecord {
  StatePoint point{};
  std::vector<std::int64_t> step;      ///< MC steps of the run done before the measurement
  std::vector<double> hydrogen_bonds;  ///< N_HB / N (zero when gas-like)
  std::vector<double> cooperative;     ///< N_sigma / N
  std::vector<double> v_iso;           ///< V_iso / N, v0
  std::vector<double> volume;          ///< V / N, v0
  std::vector<double> enthalpy;        ///< H / N, epsilon
  std::vector<double> order;           ///< M = max_q N_q / (6 N)
  std::uint64_t steps = 0;             ///< MC steps at this point
  std::uint64_t volume_proposals = 0, volume_accepted = 0;
  std::uint64_t label_iterations = 0;  ///< label-equivalence passes (SW), summed
  double update_seconds = 0, measurement_seconds = 0;

  std::size_t measurements() const { return step.size(); }
};

/// The configuration a run ends in, in the one-rank layout whatever the rank count (gathered
/// on rank 0; the vectors are empty on the other ranks).
struct FinalConfiguration {
  std::vector<std::uint8_t> sigma;       ///< arm-major, 6 N
  std::vector<std::uint8_t> cube_state;  ///< N / 4
  double v_iso = 0;
  std::uint64_t step = 0;
};

/// Progress of the chain.
struct ChainPosition {
  std::size_t point = 0;
  long long thermalisation_done = 0;
  long long measurements_done = 0;
  std::uint64_t steps = 0;  ///< MC steps of the run: the RNG step counter
};

/// What a checkpoint holds to continue a run bit for bit, on any rank count the lattice
/// allows: the chain's configuration and position, the volume-move counters over the whole
/// chain and every point's records so far (the last one unfinished).
struct RunCheckpoint {
  /// chain_fingerprint() of the run that wrote it: a run continues only its own chain.
  std::string fingerprint;
  ChainPosition position;
  FinalConfiguration configuration;
  std::int64_t volume_attempts = 0, volume_acceptances = 0;
  std::vector<PointRecord> points;
};

/// Every parameter that shapes the chain (not the analysis), as text.
std::string chain_fingerprint(const RunParameters& parameters);

/// Runs the schedule on one execution space (any backend of the build), on one rank or
/// (Metropolis only) split into z-slabs over the ranks of `comm` (DistributedSimulation): the
/// chain, the records and hence the output are the same on every rank count and every backend,
/// except the timings.
class Run {
 public:
  /// Validates the parameters and sets up the start on the execution space instance `space`
  /// (e.g. Kokkos::Serial(), Kokkos::OpenMP(), Kokkos::Cuda()): every kernel of the run is
  /// launched on it. std::invalid_argument for bad parameters, a rank count the lattice cannot
  /// be split over, or Swendsen-Wang on more than one rank. Collective. (The fits-in-memory
  /// check is the caller's: required_device_bytes and portamc::require_memory<Space>.)
  template <class Space, std::enable_if_t<Kokkos::is_execution_space<Space>::value, int> = 0>
  Run(const Space& space, const RunParameters& parameters, const parallel::Communicator& comm = {});
  /// The same on the backend called `backend` (portamc/backends.hpp: "serial", "openmp",
  /// "cuda", ...); std::invalid_argument for one this build lacks.
  Run(const std::string& backend, const RunParameters& parameters,
      const parallel::Communicator& comm = {});
  /// The same on the default execution space (portamc::default_backend()).
  explicit Run(const RunParameters& parameters, const parallel::Communicator& comm = {});
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  /// One unit of work: a thermalisation step, or the steps before a measurement and the
  /// measurement. Does nothing when done().
  void advance();
  bool done() const;
  double fraction_done() const;
  std::string status() const;

  const RunParameters& parameters() const { return parameters_; }
  const std::vector<PointRecord>& points() const { return points_; }
  /// The current configuration, gathered (collective; see FinalConfiguration).
  FinalConfiguration configuration() const;
  /// The whole state, gathered on rank 0 (the configuration is empty on the other ranks).
  /// Collective.
  RunCheckpoint checkpoint() const;
  /// Continues from a checkpoint of the same chain that every rank holds in full, written on
  /// any rank count. std::invalid_argument if it is of another chain or inconsistent with
  /// these parameters. Collective.
  void restore(const RunCheckpoint& checkpoint);
  /// Device bytes the state and the chosen algorithm's scratch take (on this rank).
  std::size_t device_bytes() const;
  /// The name of the backend the run's kernels run on, e.g. "cuda".
  std::string backend() const;
  /// Ranks the lattice is split over, how halos travel, and the wall time spent in halo
  /// exchanges so far (0 on one rank).
  int ranks() const;
  std::string halo_transport() const;
  double halo_seconds() const;

  struct Engine;

 private:
  /// Validates the parameters, then sets up the engine `make()` builds and the first point.
  template <class Make>
  void start(Make&& make);
  void begin_point();
  void step_once(PointRecord& record);
  void measure(PointRecord& record);

  RunParameters parameters_;
  parallel::Communicator comm_;
  ChainPosition position_;
  std::vector<PointRecord> points_;
  std::unique_ptr<Engine> engine_;
};

/// Device bytes a run of these parameters needs on each of `ranks` ranks (state with its halo
/// planes + algorithm scratch), for the fits-on-the-device check before anything is allocated.
std::size_t required_device_bytes(const RunParameters& parameters, int ranks = 1);

/// Throws std::invalid_argument (the same text on every rank) when a run of these parameters
/// cannot be distributed over `ranks` ranks: Swendsen-Wang (not distributed), or a lattice
/// whose z-slabs would cut the checkerboard cubes (decomposition.hpp).
void validate_ranks(const RunParameters& parameters, int ranks);

}  // namespace portamc::cvf

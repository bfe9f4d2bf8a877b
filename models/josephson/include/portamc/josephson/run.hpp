#pragma once
// A portamc-josephson run as library code (the app maps its YAML onto RunParameters; tests call
// the same functions): the typed parameters of one of three modes, their resolution into the
// Langevin ensembles to integrate (physical units converted, automatic ramp start and step cap
// chosen, the constant-bias theory evaluated), and the loop over those ensembles (Simulation)
// with what a checkpoint must hold to continue it bit for bit (RunCheckpoint).
//
// Modes.
//   escape     one ensemble at the constant bias `gamma`: escape times.
//   switching  one ensemble under the ramp gamma(t) = gamma0 + nu t: switching biases.
//   arrhenius  one escape ensemble per temperature theta_k of `thetas` (same bias); ensemble k
//              uses the RNG entities first_realisation + k * realisations + [0, realisations),
//              so no two ensembles of a run share random numbers.
//
// Reproducibility. A realisation's trajectory depends only on (seed, its RNG entity), so
// results are independent of the slot count, the launch length, checkpoint/restore and the
// number of MPI ranks.
//
// Several ranks. Each ensemble's realisations are split into contiguous shares, one per rank
// (parallel::share_of); a rank integrates its share of every ensemble on its own, and
// gathered_points() concatenates the shares on rank 0 in realisation order, which gives the
// records of a one-rank run (timing aside). A checkpoint is the state of every realisation of
// the run gathered on rank 0 (RealisationStates), whatever the rank count: restore() on any
// number of ranks deals each rank its new share, in-flight realisations included, and the run
// continues bit for bit (a rank may be at a later ensemble than another when the checkpoint is
// taken; the ensembles a rank has not reached keep their states until it does).
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/josephson/detail/realisation_states.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "portamc/josephson/ensemble_results.hpp"
#include "portamc/josephson/kramers.hpp"
#include "portamc/josephson/parameters.hpp"
#include "portamc/josephson/units.hpp"
#include "portamc/parallel.hpp"

namespace portamc::josephson {

enum class RunMode { escape, switching, arrhenius };
enum class Precision { single_precision, double_precision };

/// The escape rate the theory written beside the data is built on (`theory.rate`).
///   exact      the exact rate of the overdamped dynamics: at constant bias the Pontryagin mean
///              first-passage time T from the well bottom to the run's threshold (rate 1 / T),
///              under a ramp 1 / T(gamma) to the same fixed threshold (exact_overdamped_rate).
///              Only for overdamped dynamics: there is no exact rate for the underdamped one.
///   kramers    the Kramers-type formula RunParameters::rate_formula (kramers.hpp), leading
///              order in theta / DeltaU and blind to the threshold.
///   automatic  exact where it exists (overdamped dynamics, see resolve()), else kramers; a
///              given rate_formula means kramers.
enum class TheoryRate { automatic, exact, kramers };
/// The name of the exact rate in outputs (attribute rate_formula); the Kramers-type formulas
/// are named by rate_formula_name().
inline constexpr const char* exact_rate_name = "exact_overdamped_pontryagin";

/// The names of names.hpp, whose tables also parse them.
const char* to_string(RunMode mode);
const char* to_string(Precision precision);     ///< "float" / "double"
const char* to_string(TheoryRate theory_rate);  ///< "auto" / "exact" / "kramers"

/// The std::invalid_argument of RunParameters::validate() and resolve(): `parameter` names the
/// RunParameters member at fault ("V0", "physical.capacitance", "thetas", "max_steps",
/// "ensemble" for the EnsembleOptions, ...), so that an app can point at its own key.
struct RunParameterError : std::invalid_argument {
  RunParameterError(std::string parameter_name, const std::string& message)
      : std::invalid_argument(message), parameter(std::move(parameter_name)) {}
  std::string parameter;
};

/// A junction given in physical units; V0, beta, theta and nu follow from units.hpp.
struct PhysicalInput {
  double resistance = 0;        ///< ohm
  double capacitance = 0;       ///< farad
  double critical_current = 0;  ///< ampere
  /// kelvin; unused (0) in arrhenius mode, whose temperatures are the normalised `thetas`.
  double temperature = 0;
  /// Switching mode: the sweep as dI/dt (A/s) or as a frequency (Hz; dI/dt = I_c f, see
  /// ramp_rate_from_sweep_frequency), exactly one of them.
  std::optional<double> sweep_rate;
  std::optional<double> sweep_frequency;
};

/// The ramp starts where the Fulton–Dunkleberger CDF from gamma = 0 reaches this probability
/// when RunParameters::ramp_gamma0 is unset (switching_theory.hpp, negligible_escape_bias).
inline constexpr double default_ramp_epsilon = 1e-6;
/// max_steps = auto at constant bias: this many theoretical mean escape times (at least this
/// many natural periods), so that an exponential escape is censored with probability e^-100.
inline constexpr double auto_cap_mean_times = 100.0;
/// max_steps = auto under a ramp: until the bias is 1 + (1 - gamma0) * this, past the
/// critical current where no well is left, plus auto_cap_mean_times natural periods of the
/// untilted well (2 pi / sqrt(V0), or beta / V0 overdamped) to run to the threshold.
inline constexpr double auto_cap_ramp_overshoot = 0.1;

struct RunParameters {
  RunMode mode = RunMode::escape;
  Dynamics dynamics = Dynamics::underdamped;
  Integrator integrator = Integrator::euler;
  Precision precision = Precision::double_precision;
  /// Normalised junction (docs/models/josephson.md); ignored when `physical` is set. theta is
  /// unused in arrhenius mode.
  double V0 = 1.0;
  double beta = 0.05;
  double theta = 0.2;
  std::optional<PhysicalInput> physical;
  double h = 0.004;
  double gamma = 0.5;    ///< escape, arrhenius: the constant bias, |gamma| < 1
  double ramp_rate = 0;  ///< switching with a normalised junction: nu = dgamma/dt > 0
  std::optional<double> ramp_gamma0 = 0.0;  ///< switching: start bias; unset: automatic
  double ramp_epsilon = default_ramp_epsilon;
  std::optional<double> threshold;  ///< unset: pi - arcsin(gamma0), the saddle at the start
  std::optional<std::uint64_t> max_steps = 200000;  ///< unset: automatic (see the constants)
  std::uint64_t realisations = 1024;                ///< per ensemble
  std::uint64_t first_realisation = 0;
  std::uint64_t seed = 1;
  std::vector<double> thetas;  ///< arrhenius: one ensemble per value, each > 0
  EnsembleOptions ensemble;
  TheoryRate theory_rate = TheoryRate::automatic;
  /// The Kramers-type formula (used by kramers, reported beside the exact rate, and for the
  /// automatic ramp start); unset: overdamped / melnikov_meshkov by dynamics.
  std::optional<RateFormula> rate_formula;
  int histogram_bins = 50;
  int theory_points = 200;  ///< points of the theory curves

  /// Throws RunParameterError naming the first offending parameter and what was expected.
  void validate() const;
};

/// Constant-bias escape theory for one ensemble (kramers.hpp, first_passage_exact.hpp). Values
/// that cannot be computed are NaN with the reason in the status.
struct EscapeTheory {
  /// The theory's rate is the exact one (rate = 1 / exact_mean_time), else the formula's.
  bool exact_rate = false;
  RateFormula formula = RateFormula::melnikov_meshkov;               ///< the Kramers-type one
  double barrier = std::numeric_limits<double>::quiet_NaN();         ///< DeltaU / E_C
  double well_frequency = std::numeric_limits<double>::quiet_NaN();  ///< omega0
  double rate = std::numeric_limits<double>::quiet_NaN();       ///< of the theory (rate_name())
  double mean_time = std::numeric_limits<double>::quiet_NaN();  ///< 1 / rate
  std::string status = "ok";                                    ///< of rate and mean_time
  /// The Kramers-type formula, always evaluated (the theory's rate unless exact_rate).
  double kramers_rate = std::numeric_limits<double>::quiet_NaN();
  double kramers_mean_time = std::numeric_limits<double>::quiet_NaN();  ///< 1 / kramers_rate
  std::string kramers_status = "ok";
  /// Overdamped dynamics only: the exact mean first-passage time to the threshold.
  bool exact_applies = false;
  double exact_mean_time = std::numeric_limits<double>::quiet_NaN();
  double exact_error = std::numeric_limits<double>::quiet_NaN();  ///< quadrature estimate
  std::string exact_status = "not applicable (underdamped dynamics)";

  /// exact_rate_name or the formula's name.
  std::string rate_name() const;
  /// The exact mean where there is one, else 1 / kramers_rate (NaN if neither is available),
  /// whichever rate the theory uses: what max_steps = auto is based on.
  double best_mean_time() const;
  const char* best_mean_time_source() const;  ///< "exact", "kramers" or "none"
};

/// exact_rate: build the theory on the exact mean first-passage time (overdamped dynamics
/// only; std::invalid_argument otherwise).
EscapeTheory escape_theory(const LangevinParameters& parameters, RateFormula formula,
                           bool exact_rate = false);

/// RunParameters with everything derived that the simulation and the output need.
struct ResolvedRun {
  RunParameters input;
  std::optional<NormalisedJunction> units;  ///< the conversion of input.physical
  /// The theory is built on the exact overdamped rate (TheoryRate::exact, or automatic where
  /// it exists), else on rate_formula.
  bool exact_rate = false;
  RateFormula rate_formula = RateFormula::melnikov_meshkov;  ///< the Kramers-type formula
  double V0 = 0, beta = 0;
  double theta = std::numeric_limits<double>::quiet_NaN();  ///< NaN in arrhenius mode
  double nu = 0;                                            ///< switching
  double ramp_gamma0 = 0;                                   ///< switching: where the ramp starts
  bool ramp_start_automatic = false;
  bool max_steps_automatic = false;
  std::vector<LangevinParameters> points;  ///< the ensembles, in order
  std::vector<EscapeTheory> theory;        ///< escape, arrhenius: one per point
  std::vector<std::string> warnings;       ///< things that run but are probably unintended

  /// The name of the theory's rate: exact_rate_name or rate_formula_name(rate_formula).
  std::string theory_rate_name() const;

  /// Every parameter that shapes the realisations, as text: a checkpoint only continues a run
  /// with the same fingerprint (launch length, slots and output options may change).
  std::string fingerprint() const;
};

/// Why the exact overdamped rate does not exist for these ensembles (an empty string if it
/// does): it needs overdamped dynamics and a finite threshold; at constant bias 0 < gamma (the
/// washboard must confine the particle from below), under a ramp a start bias in [0, 1) and a
/// threshold above pi/2 (exact_overdamped_rate).
std::string exact_rate_unavailable(RunMode mode, const std::vector<LangevinParameters>& points);

/// Validates, converts physical units, picks the automatic ramp start and step cap, builds the
/// ensembles' parameters and the constant-bias theory, and chooses the theory's rate
/// (TheoryRate; `exact` where exact_rate_unavailable() names a reason is a RunParameterError
/// of "theory_rate"). The automatic ramp start always uses the Kramers-type rate_formula: the
/// exact rate depends on the threshold, which by default depends on the start (and the start
/// only bounds the probability skipped before it). RunParameterError on bad input, and
/// std::domain_error for physical values whose normalised ones are not finite and positive
/// (the ensembles' LangevinParameters::validate() is a last check with its own
/// std::invalid_argument).
ResolvedRun resolve(const RunParameters& parameters);

/// One finished or running ensemble.
struct PointRecord {
  EnsembleResults results;  ///< complete once the point is finished
  std::int64_t slots = 0;   ///< concurrent trajectories used
  double seconds = 0;       ///< wall time of the launches
  std::uint64_t launches = 0;
  /// Steps integrated over all realisations (from the results: escape step or the cap).
  std::uint64_t steps_integrated() const;
};

/// One ensemble of a checkpoint, all of its realisations (over all ranks).
struct PointProgress {
  RealisationStates states;
  /// Timing so far: slots summed over ranks, seconds and launches the maximum over ranks.
  PointRecord record;
};

struct RunCheckpoint {
  std::string fingerprint;
  /// The ensembles started so far (on any rank), in order; later ones have not started.
  std::vector<PointProgress> points;
};

namespace detail {
/// The ensemble in progress, in the run's precision (run.cpp).
struct RunEngine;
}  // namespace detail

/// The run on execution space `Space` (any backend of the build, portamc/backends.hpp): every
/// ensemble's kernels run on the instance passed to the constructor.
template <class Space>
class Simulation {
 public:
  using execution_space = Space;

  /// Allocates nothing yet; the first advance() starts the first ensemble on `space`. With
  /// several ranks this rank integrates its share of each ensemble; std::invalid_argument if an
  /// ensemble has fewer realisations than there are ranks (the same on every rank).
  Simulation(const Space& space, const ResolvedRun& run,
             const parallel::Communicator& comm = parallel::Communicator());
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Continues from a checkpoint of the same run (every rank passes the whole checkpoint),
  /// written on any number of ranks; std::invalid_argument for one of another run.
  void restore(const RunCheckpoint& checkpoint);
  /// Collective: the state of the whole run on rank 0; elsewhere only the fingerprint.
  RunCheckpoint checkpoint() const;

  /// One launch of steps_per_launch steps per slot in the ensemble in progress (starting it if
  /// needed); a finished ensemble is recorded and the next one begins at the following call.
  void advance();
  bool done() const;
  /// Realisations finished over all ensembles / all realisations of the run (of this rank's
  /// shares).
  double fraction_done() const;
  std::string status() const;

  const ResolvedRun& run() const { return run_; }
  const parallel::Communicator& communicator() const { return comm_; }
  /// This rank's share of every ensemble (the ensembles themselves on one rank).
  const std::vector<LangevinParameters>& shares() const { return shares_; }
  /// The finished ensembles of this rank's shares (all of them once done()).
  const std::vector<PointRecord>& points() const { return finished_; }
  /// Collective, once done() on every rank: on rank 0 the whole ensembles, the shares'
  /// results concatenated in realisation order (slots summed, seconds and launches the
  /// maximum over ranks); empty on the other ranks. points() on one rank.
  std::vector<PointRecord> gathered_points() const;

 private:
  void begin_point();
  void finish_point();
  /// Builds the engine of ensemble k, continuing `states` where given.
  void start_engine(std::size_t k, const RealisationStates* states);
  /// This rank's share of ensemble k as it stands.
  RealisationStates local_states(std::size_t k) const;
  PointRecord local_record(std::size_t k) const;

  Space space_;
  ResolvedRun run_;
  parallel::Communicator comm_;
  std::vector<LangevinParameters> shares_;
  std::vector<PointRecord> finished_;
  PointRecord current_;
  std::unique_ptr<detail::RunEngine> engine_;
  /// Restored shares of ensembles after the one in progress, until begin_point reaches them.
  std::vector<std::optional<PointProgress>> waiting_;
};

// Instantiated once per backend of the build (run.cpp).
#define PORTAMC_JOSEPHSON_EXTERN_(S) extern template class Simulation<S>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_JOSEPHSON_EXTERN_)
#undef PORTAMC_JOSEPHSON_EXTERN_

}  // namespace portamc::josephson

#pragma once
// One CVF simulation: the state, the parameters, the reduced state point and the seed, with
// the three parts of an MC step public so that an app can compose them (volume, eta, then
// Metropolis or Swendsen-Wang) and step() doing the paper's order with Metropolis.
//
// Every part draws with the current step counter; end_step() advances it. The acceptance
// tables depend on whether HBs may form at the current v_iso (J_eff acts only then), so both
// versions are built once and the volume move switches between them.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "portamc/cvf/counts.hpp"
#include "portamc/cvf/detail/acceptance.hpp"
#include "portamc/cvf/detail/eta_update.hpp"
#include "portamc/cvf/detail/metropolis.hpp"
#include "portamc/cvf/detail/metropolis_packed.hpp"
#include "portamc/cvf/detail/volume_move.hpp"
#include "portamc/cvf/lennard_jones.hpp"
#include "portamc/cvf/parameters.hpp"
#include "portamc/cvf/state.hpp"

namespace portamc::cvf {

struct SimulationSettings {
  int L = 8;  ///< lattice size, a multiple of 4
  std::uint64_t seed = 1;
  double initial_v_iso = 1.5;  ///< in v0, >= 1
  InitialState initial = InitialState::random;
  VolumeMoveSettings volume;
  /// The Metropolis sigma pass: one cell per thread, or four (metropolis_packed.hpp). They draw
  /// different random numbers, so a chain depends on the choice (each is backend-independent).
  MetropolisKernel metropolis_kernel = MetropolisKernel::packed;
};

/// Throws std::invalid_argument for t <= 0 or a non-finite p.
void validate(const ReducedStatePoint& point);

/// The acceptance tables of one state point on both sides of the gas threshold, indexed by
/// whether HBs may form at the current v_iso (J_eff acts only then), so that a volume move
/// only switches between them.
struct PointTables {
  SigmaAcceptance sigma[2];
  EtaAcceptance eta[2];
};
inline PointTables point_tables(const ModelParameters& parameters, const ReducedStatePoint& point) {
  const double j_eff = effective_coupling(parameters, point);
  PointTables t;
  t.sigma[0] = sigma_acceptance(0.0, parameters.J_sigma, point.t);
  t.sigma[1] = sigma_acceptance(j_eff, parameters.J_sigma, point.t);
  t.eta[0] = eta_acceptance(0.0, point.t);
  t.eta[1] = eta_acceptance(j_eff, point.t);
  return t;
}

/// One measurement; counts are totals, other quantities per molecule in epsilon and v0.
struct Measurement {
  std::uint64_t step = 0;
  std::int64_t n_hb = 0;      ///< effective N_HB: 0 when gas-like
  std::int64_t n_hb_raw = 0;  ///< allowed edges with sigma_ij == sigma_ji
  std::int64_t n_sigma = 0;
  std::array<std::int64_t, arms> sigma_counts{};  ///< number of sigma in each state
  double order_parameter = 0;                     ///< M = max_q N_q / (6 N)
  double v_iso = 0;
  double volume = 0;    ///< v = v_iso + v_HB n_hb / N
  double energy = 0;    ///< u_LJ - J n_hb / N - J_sigma n_sigma / N
  double enthalpy = 0;  ///< energy + p v
};

/// The per-molecule quantities of a measurement from its counts (host arithmetic).
Measurement make_measurement(const ModelParameters& parameters, const ReducedStatePoint& point,
                             std::int64_t molecules, double v_iso, double u_lj, BondCounts counts,
                             const std::array<std::int64_t, arms>& sigma_counts);

/// What a checkpoint must hold to continue a run bit for bit.
struct Checkpoint {
  std::vector<std::uint8_t> sigma;       ///< arm-major, 6 N
  std::vector<std::uint8_t> cube_state;  ///< N / 4
  double v_iso = 0;
  std::uint64_t step = 0;
};

/// A simulation on execution space `Space`: every kernel runs on the instance given to the
/// constructor (any backend of the build, e.g. Kokkos::Serial(), Kokkos::OpenMP(),
/// Kokkos::Cuda()); the chain is bitwise the same on each.
template <class Space>
class Simulation {
 public:
  /// Validates everything; throws std::invalid_argument naming the first problem.
  Simulation(const Space& space, const ModelParameters& parameters, const StatePoint& point,
             const SimulationSettings& settings)
      : Simulation(space, checked(parameters), reduce(parameters, checked(point)), settings) {}

  Simulation(const Space& space, const ModelParameters& parameters, const ReducedStatePoint& point,
             const SimulationSettings& settings)
      : parameters_(checked(parameters)),
        point_(checked(point)),
        settings_(checked(settings)),
        state_(space, settings.L, settings.initial_v_iso, settings.initial, settings.seed),
        u_lj_(lennard_jones_energy_per_molecule(parameters, settings.initial_v_iso)) {
    build_tables();
  }

  /// Moves the chain to another state point (a scan continues from the configuration the last
  /// point left): configuration, v_iso and step counter carry over, the tables are rebuilt.
  void set_point(const StatePoint& point) {
    point_ = reduce(parameters_, checked(point));
    build_tables();
  }

  /// Step 1: the volume move (a no-op when the move is off).
  void volume_move() {
    if (!settings_.volume.enabled) return;
    const auto outcome =
        cvf::volume_move(parameters_, point_, state_.geometry().cells(), state_.v_iso(), u_lj_,
                         settings_.volume.delta, settings_.seed, state_.step(),
                         [this] { return state_.counts().hb; });
    ++volume_attempts_;
    if (outcome.accepted) {
      ++volume_acceptances_;
      state_.set_v_iso(outcome.v_iso);
      u_lj_ = outcome.u;
    }
  }
  /// Step 2: the cube (eta) update.
  void eta_update() { cvf::eta_update(state_, tables_.eta[bonds_allowed()], settings_.seed); }
  /// Step 3 with Metropolis: one sweep of the six arm passes.
  void metropolis_sweep() {
    cvf::metropolis_sweep(state_, tables_.sigma[bonds_allowed()], settings_.seed,
                          settings_.metropolis_kernel);
  }
  /// Closes the MC step: the next updates draw fresh random numbers.
  void end_step() { state_.advance_step(); }
  /// A full MC step in the paper's order.
  void step() {
    volume_move();
    eta_update();
    metropolis_sweep();
    end_step();
  }

  /// Counts from the device counters (one synchronisation) and a sigma histogram.
  Measurement measure() const {
    Measurement m = make_measurement(
        parameters_, point_, state_.geometry().cells(), state_.v_iso(), u_lj_, state_.counts(),
        sigma_histogram(state_.space(), state_.geometry(), state_.sigma()));
    m.step = state_.step();
    return m;
  }

  Checkpoint checkpoint() const {
    return {state_.sigma_to_host(), state_.cube_state_to_host(), state_.v_iso(), state_.step()};
  }
  /// Restores a checkpoint of a simulation with the same L (validated), recounting.
  void restore(const Checkpoint& c) {
    state_.set_configuration(c.sigma, c.cube_state);
    state_.set_v_iso(c.v_iso);
    state_.set_step(c.step);
    u_lj_ = lennard_jones_energy_per_molecule(parameters_, c.v_iso);
  }

  /// The execution space instance every kernel of this simulation runs on.
  const Space& space() const { return state_.space(); }
  State<Space>& state() { return state_; }
  const State<Space>& state() const { return state_; }
  const ModelParameters& parameters() const { return parameters_; }
  const ReducedStatePoint& point() const { return point_; }
  const SimulationSettings& settings() const { return settings_; }
  /// Whether HBs may form at the current v_iso (then J_eff acts).
  bool bonds_allowed() const { return hydrogen_bonds_allowed(parameters_, state_.v_iso()); }
  /// The J_eff acting now: effective_coupling() on the liquid side, 0 when gas-like.
  double bond_coupling() const {
    return bonds_allowed() ? effective_coupling(parameters_, point_) : 0.0;
  }
  std::int64_t volume_attempts() const { return volume_attempts_; }
  std::int64_t volume_acceptances() const { return volume_acceptances_; }
  /// The counters of a checkpointed chain (they are not part of the configuration).
  void set_volume_counters(std::int64_t attempts, std::int64_t acceptances) {
    volume_attempts_ = attempts;
    volume_acceptances_ = acceptances;
  }

 private:
  void build_tables() { tables_ = point_tables(parameters_, point_); }

  static const ModelParameters& checked(const ModelParameters& p) {
    validate(p);
    return p;
  }
  static const StatePoint& checked(const StatePoint& p) {
    validate(p);
    return p;
  }
  static const ReducedStatePoint& checked(const ReducedStatePoint& p) {
    validate(p);
    return p;
  }
  static const SimulationSettings& checked(const SimulationSettings& s) {
    validate(s.volume);
    validate_v_iso(s.initial_v_iso);
    return s;
  }

  ModelParameters parameters_;
  ReducedStatePoint point_;
  SimulationSettings settings_;
  State<Space> state_;
  double u_lj_;
  PointTables tables_;
  std::int64_t volume_attempts_ = 0;
  std::int64_t volume_acceptances_ = 0;
};

}  // namespace portamc::cvf

#include "portamc/cvf/run.hpp"

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "portamc/backends.hpp"
#include "portamc/cvf/detail/cluster_bonds.hpp"
#include "portamc/cvf/detail/decomposition.hpp"
#include "portamc/cvf/detail/swendsen_wang.hpp"
#include "portamc/cvf/distributed_simulation.hpp"
#include "portamc/cvf/simulation.hpp"

namespace portamc::cvf {
namespace {

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SimulationSettings settings_of(const RunParameters& p) {
  SimulationSettings s;
  s.L = p.L;
  s.seed = p.seed;
  s.metropolis_kernel = p.metropolis_kernel;
  s.initial_v_iso = p.initial_v_iso;
  s.initial = p.start == StartKind::ordered ? InitialState::ordered : InitialState::random;
  s.volume.enabled = p.volume_moves;
  s.volume.delta = p.resolved_volume_step();
  return s;
}

}  // namespace

void validate_ranks(const RunParameters& p, int ranks) {
  if (ranks <= 1) return;
  if (p.algorithm == SigmaAlgorithm::swendsen_wang)
    throw std::invalid_argument(
        "Swendsen-Wang (algorithm.sigma: swendsen_wang) runs on one rank only: its cluster "
        "labelling is not distributed over MPI ranks (docs/models/cvf.md, \"Several GPUs\"); "
        "got " +
        std::to_string(ranks) + " ranks: use algorithm.sigma: metropolis or one rank");
  SlabDecomposition::validate(p.L, ranks);
}

std::size_t required_device_bytes(const RunParameters& p, int ranks) {
  const double L = static_cast<double>(p.L);
  // One rank's slab with its two halo planes (the whole lattice on one rank).
  const double N = ranks > 1 ? L * L * (L / ranks + 2) : static_cast<double>(p.molecules());
  // sigma (6 B) and the cube states (1 B per 4 cells); the counters are a few bytes.
  double bytes = 6.0 * N + N / 4.0 + 4096.0;
  if (p.algorithm == SigmaAlgorithm::swendsen_wang) {
    const bool wide = 6.0 * N >= 4294967296.0;
    bytes += 4.0 * N + 6.0 * N * (wide ? 8.0 : 4.0);  // bond words and labels
  }
  return static_cast<std::size_t>(bytes);
}

// The engine behind a Run: the chain on one execution space, behind an interface so that Run
// itself stays one class whatever the backend.
struct Run::Engine {
  virtual ~Engine() = default;
  virtual void step(PointRecord& record) = 0;
  virtual void set_point(const StatePoint& point) = 0;
  virtual FinalConfiguration configuration() const = 0;
  /// `c` in full on every rank.
  virtual void restore(const Checkpoint& c, std::int64_t attempts, std::int64_t acceptances) = 0;
  virtual Measurement measure() const = 0;
  virtual std::int64_t volume_attempts() const = 0;
  virtual std::int64_t volume_acceptances() const = 0;
  virtual std::string halo_transport() const = 0;
  virtual double halo_seconds() const = 0;
  /// Waits for the kernels launched so far (timings).
  virtual void fence() const = 0;
  virtual std::string backend() const = 0;
};

namespace {

template <class Space>
class SpaceEngine final : public Run::Engine {
 public:
  SpaceEngine(const Space& space, const RunParameters& p, const parallel::Communicator& comm)
      : space_(space), p_(p) {
    validate_ranks(p, comm.size());
    if (comm.size() > 1) {
      distributed.emplace(space, p.model, p.point(0), settings_of(p), comm, p.halo_transport);
      return;
    }
    simulation.emplace(space, p.model, p.point(0), settings_of(p));
    if (p.algorithm == SigmaAlgorithm::swendsen_wang)
      cluster.emplace(space, simulation->state().geometry(), p.labelling);
  }

  void step(PointRecord& record) override {
    if (distributed) {
      if (p_.volume_moves) distributed->volume_move();
      if (p_.eta_updates) distributed->eta_update();
      distributed->metropolis_sweep();
      distributed->end_step();
      return;
    }
    if (p_.volume_moves) simulation->volume_move();
    if (p_.eta_updates) simulation->eta_update();
    if (cluster) {
      const auto& point = simulation->point();
      const BondThresholds thresholds =
          bond_thresholds(simulation->bond_coupling(), simulation->parameters().J_sigma, point.t);
      auto& state = simulation->state();
      cluster->sweep(state.sigma(), state.cube_state(), thresholds, p_.seed, state.step());
      record.label_iterations += static_cast<std::uint64_t>(cluster->last_iterations());
      state.recount();
    } else {
      simulation->metropolis_sweep();
    }
    simulation->end_step();
  }

  void set_point(const StatePoint& point) override {
    if (distributed)
      distributed->set_point(point);
    else
      simulation->set_point(point);
  }
  FinalConfiguration configuration() const override {
    const Checkpoint c = distributed ? distributed->checkpoint() : simulation->checkpoint();
    return {c.sigma, c.cube_state, c.v_iso, c.step};
  }
  void restore(const Checkpoint& c, std::int64_t attempts, std::int64_t acceptances) override {
    if (distributed) {
      distributed->restore(c);
      distributed->set_volume_counters(attempts, acceptances);
    } else {
      simulation->restore(c);
      simulation->set_volume_counters(attempts, acceptances);
    }
  }
  Measurement measure() const override {
    return distributed ? distributed->measure() : simulation->measure();
  }
  std::int64_t volume_attempts() const override {
    return distributed ? distributed->volume_attempts() : simulation->volume_attempts();
  }
  std::int64_t volume_acceptances() const override {
    return distributed ? distributed->volume_acceptances() : simulation->volume_acceptances();
  }
  std::string halo_transport() const override {
    return distributed ? distributed->halo_transport() : "none (one rank)";
  }
  double halo_seconds() const override { return distributed ? distributed->halo_seconds() : 0.0; }
  void fence() const override { space_.fence(); }
  std::string backend() const override { return backend_name<Space>(); }

 private:
  Space space_;
  RunParameters p_;
  std::optional<Simulation<Space>> simulation;
  std::optional<DistributedSimulation<Space>> distributed;
  std::optional<SwendsenWang<Space>> cluster;
};

}  // namespace

template <class Make>
void Run::start(Make&& make) {
  parameters_.validate();
  try {
    engine_ = make();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("cvf run: ") + e.what());
  }
  begin_point();
}

template <class Space, std::enable_if_t<Kokkos::is_execution_space<Space>::value, int>>
Run::Run(const Space& space, const RunParameters& parameters, const parallel::Communicator& comm)
    : parameters_(parameters), comm_(comm) {
  start([&] { return std::make_unique<SpaceEngine<Space>>(space, parameters_, comm_); });
}

// One constructor per backend of the build.
#define PORTAMC_CVF_INSTANTIATE_RUN_(Space) \
  template Run::Run(const Space&, const RunParameters&, const parallel::Communicator&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_CVF_INSTANTIATE_RUN_)
#undef PORTAMC_CVF_INSTANTIATE_RUN_

Run::Run(const std::string& backend, const RunParameters& parameters,
         const parallel::Communicator& comm)
    : parameters_(parameters), comm_(comm) {
  start([&] {
    return with_backend(backend, [&](auto space) -> std::unique_ptr<Engine> {
      return std::make_unique<SpaceEngine<decltype(space)>>(space, parameters_, comm_);
    });
  });
}

Run::Run(const RunParameters& parameters, const parallel::Communicator& comm)
    : Run(default_backend(), parameters, comm) {}

Run::~Run() = default;

std::size_t Run::device_bytes() const {
  return required_device_bytes(parameters_, comm_.size());
}

FinalConfiguration Run::configuration() const {
  return engine_->configuration();
}

RunCheckpoint Run::checkpoint() const {
  RunCheckpoint c;
  c.fingerprint = chain_fingerprint(parameters_);
  c.position = position_;
  c.configuration = engine_->configuration();
  c.volume_attempts = engine_->volume_attempts();
  c.volume_acceptances = engine_->volume_acceptances();
  c.points = points_;
  return c;
}

void Run::restore(const RunCheckpoint& c) {
  if (c.fingerprint != chain_fingerprint(parameters_))
    throw std::invalid_argument(
        "the checkpoint is of another chain: lattice, state points, model, algorithm, start, "
        "seed or schedule differ from this run's (only analysis.* may change on resume)");
  const ChainPosition& at = c.position;
  const bool finished = at.point == parameters_.point_count();
  // The records of the points begun so far: all finished ones, and the current one.
  if (at.point > parameters_.point_count() || c.points.size() != at.point + (finished ? 0 : 1) ||
      at.thermalisation_done > parameters_.thermalisation ||
      at.measurements_done > parameters_.measurements || at.steps != c.configuration.step)
    throw std::invalid_argument("the checkpoint's chain position is inconsistent");
  for (std::size_t k = 0; k < c.points.size(); ++k) {
    const PointRecord& r = c.points[k];
    const StatePoint s = parameters_.point(k);
    const std::size_t expected = k < at.point ? static_cast<std::size_t>(parameters_.measurements)
                                              : static_cast<std::size_t>(at.measurements_done);
    if (r.point.temperature_kelvin != s.temperature_kelvin ||
        r.point.pressure_megapascal != s.pressure_megapascal || r.measurements() != expected)
      throw std::invalid_argument("the checkpoint's record of state point " + std::to_string(k) +
                                  " does not match the schedule");
  }
  if (!finished) engine_->set_point(parameters_.point(at.point));
  engine_->restore({c.configuration.sigma, c.configuration.cube_state, c.configuration.v_iso,
                    c.configuration.step},
                   c.volume_attempts, c.volume_acceptances);
  position_ = at;
  points_ = c.points;
}

std::string Run::backend() const {
  return engine_->backend();
}

int Run::ranks() const {
  return comm_.size();
}

std::string Run::halo_transport() const {
  return engine_->halo_transport();
}

double Run::halo_seconds() const {
  return engine_->halo_seconds();
}

void Run::begin_point() {
  PointRecord record;
  record.point = parameters_.point(position_.point);
  if (position_.point > 0) engine_->set_point(record.point);
  points_.push_back(std::move(record));
  position_.thermalisation_done = 0;
  position_.measurements_done = 0;
}

bool Run::done() const {
  return position_.point >= parameters_.point_count();
}

double Run::fraction_done() const {
  const double per_point = static_cast<double>(parameters_.thermalisation) +
                           static_cast<double>(parameters_.measurements - 1) *
                               static_cast<double>(parameters_.steps_between_measurements);
  const double total = per_point * static_cast<double>(parameters_.point_count());
  return total > 0 ? std::min(1.0, static_cast<double>(position_.steps) / total) : 1.0;
}

std::string Run::status() const {
  if (done()) return "done";
  const StatePoint s = parameters_.point(position_.point);
  char text[128];
  std::snprintf(
      text, sizeof text, "T = %g K, P = %g MPa, %s %lld", s.temperature_kelvin,
      s.pressure_megapascal,
      position_.thermalisation_done < parameters_.thermalisation ? "thermalising" : "measurement",
      position_.thermalisation_done < parameters_.thermalisation ? position_.thermalisation_done
                                                                 : position_.measurements_done);
  return text;
}

void Run::step_once(PointRecord& record) {
  engine_->step(record);
  ++record.steps;
  ++position_.steps;
}

void Run::measure(PointRecord& record) {
  const double start = seconds_now();
  const Measurement m = engine_->measure();
  const double N = static_cast<double>(parameters_.molecules());
  record.step.push_back(static_cast<std::int64_t>(position_.steps));
  record.hydrogen_bonds.push_back(static_cast<double>(m.n_hb) / N);
  record.cooperative.push_back(static_cast<double>(m.n_sigma) / N);
  record.v_iso.push_back(m.v_iso);
  record.volume.push_back(m.volume);
  record.enthalpy.push_back(m.enthalpy);
  record.order.push_back(m.order_parameter);
  record.measurement_seconds += seconds_now() - start;
}

void Run::advance() {
  if (done()) return;
  PointRecord& record = points_.back();
  const double start = seconds_now();
  if (position_.thermalisation_done < parameters_.thermalisation) {
    step_once(record);
    ++position_.thermalisation_done;
    engine_->fence();
    record.update_seconds += seconds_now() - start;
    return;
  }
  if (position_.measurements_done > 0) {
    for (long long k = 0; k < parameters_.steps_between_measurements; ++k) step_once(record);
  }
  engine_->fence();
  record.update_seconds += seconds_now() - start;
  measure(record);
  ++position_.measurements_done;
  if (position_.measurements_done == parameters_.measurements) {
    record.volume_proposals = static_cast<std::uint64_t>(engine_->volume_attempts());
    record.volume_accepted = static_cast<std::uint64_t>(engine_->volume_acceptances());
    // The counters run over the whole chain: a point's share is its difference.
    for (std::size_t k = 0; k + 1 < points_.size(); ++k) {
      record.volume_proposals -= points_[k].volume_proposals;
      record.volume_accepted -= points_[k].volume_accepted;
    }
    ++position_.point;
    if (!done()) begin_point();
  }
}

}  // namespace portamc::cvf

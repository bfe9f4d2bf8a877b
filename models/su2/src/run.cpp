#include "portamc/su2/run.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "portamc/backends.hpp"
#include "portamc/su2/flow.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/smearing.hpp"
#include "portamc/su2/wilson_loops.hpp"

namespace portamc::su2 {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("su2 run: " + what);
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string extents_text(const std::vector<int>& extents) {
  std::string text;
  for (std::size_t i = 0; i < extents.size(); ++i)
    text += (i == 0 ? "" : "x") + std::to_string(extents[i]);
  return text;
}

// Text that reads back to the same double, so fingerprints compare exactly.
std::string exact_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

// ---- RunParameters ----------------------------------------------------------------------------

std::int64_t RunParameters::volume() const {
  std::int64_t v = 1;
  for (int n : extents) v *= n;
  return v;
}

std::int64_t RunParameters::spatial_volume() const {
  return extents.empty() ? 0 : volume() / extents.back();
}

std::size_t RunParameters::loops_per_measurement() const {
  return wilson_loops() ? static_cast<std::size_t>(wilson_r_max) * wilson_t_max : 0;
}

UpdateParameters RunParameters::update_parameters(double beta) const {
  UpdateParameters u;
  u.beta = beta;
  u.seed = seed;
  u.heatbath_sweeps = heatbath_sweeps;
  u.overrelaxation_sweeps = overrelaxation_sweeps;
  u.method = method;
  u.kp_threshold = kp_threshold;
  u.max_attempts = max_attempts;
  u.reunitarise_every = 0;
  return u;
}

PotentialOptions RunParameters::potential_options(std::size_t block_size) const {
  PotentialOptions o;
  o.block_size = std::max<std::size_t>(block_size, 1);
  o.plateau_t = plateau_t;
  o.plateau_tolerance = plateau_tolerance;
  o.fit_r_min = fit_r_min;
  o.fit_r_max = fit_r_max;
  o.sqrt_sigma_mev = sqrt_sigma_mev;
  return o;
}

void RunParameters::validate() const {
  const int d = dimensions();
  if (d < 2 || d > 4) fail("lattice needs 2, 3 or 4 extents, got " + std::to_string(d));
  for (int n : extents)
    if (n < 2 || n % 2 != 0)
      fail("lattice " + extents_text(extents) + ": every extent must be even and >= 2");
  if (betas.empty()) fail("no coupling beta given");
  for (double b : betas)
    if (!(b > 0) || !std::isfinite(b)) fail("beta = " + exact_text(b) + ": expected > 0");
  if (start == StartKind::file && start_file.empty()) fail("a file start needs a start file");
  update_parameters(betas.front()).validate();
  if (heatbath_sweeps + overrelaxation_sweeps < 1)
    fail("an update needs at least one heatbath or overrelaxation sweep");
  if (reunitarise_every < 0) fail("reunitarise_every must be >= 0");
  if (thermalisation < 0) fail("thermalisation must be >= 0");
  if (measurements < 2) fail("measurements must be >= 2 (errors need two)");
  if (updates_between_measurements < 1) fail("updates_between_measurements must be >= 1");
  if (polyakov_bins < 1) fail("polyakov_bins must be >= 1");
  if (jackknife_blocks != 0 && jackknife_blocks < 2)
    fail("jackknife_blocks must be 0 (automatic) or >= 2, got " + std::to_string(jackknife_blocks));
  if ((wilson_r_max > 0) != (wilson_t_max > 0) || wilson_r_max < 0 || wilson_t_max < 0)
    fail("wilson_r_max and wilson_t_max must both be 0 (off) or both positive");
  if (wilson_loops()) {
    int spatial_min = extents.front();
    for (int mu = 0; mu + 1 < d; ++mu) spatial_min = std::min(spatial_min, extents[mu]);
    if (wilson_r_max > spatial_min / 2)
      fail("wilson_r_max = " + std::to_string(wilson_r_max) +
           " exceeds half the smallest spatial " + "extent (" + std::to_string(spatial_min / 2) +
           ")");
    if (wilson_t_max > extents.back() / 2)
      fail("wilson_t_max = " + std::to_string(wilson_t_max) + " exceeds half the time extent (" +
           std::to_string(extents.back() / 2) + ")");
  }
  if (potential_analysis()) {
    if (wilson_t_max < 2) fail("wilson_t_max must be >= 2: effective masses compare T and T+1");
    const int r_hi = fit_r_max == 0 ? wilson_r_max : fit_r_max;
    if (fit_r_min < 1 || r_hi > wilson_r_max || r_hi - fit_r_min + 1 < 3)
      fail("potential fit range " + std::to_string(fit_r_min) + ".." + std::to_string(r_hi) +
           " must lie in 1.." + std::to_string(wilson_r_max) + " and hold at least 3 points");
    if (plateau_t < 0 || plateau_t > wilson_t_max - 1)
      fail("plateau_t = " + std::to_string(plateau_t) + ": expected 0 (automatic) or 1.." +
           std::to_string(wilson_t_max - 1));
    if (!(plateau_tolerance > 0)) fail("plateau_tolerance must be > 0");
    if (!(sqrt_sigma_mev > 0)) fail("sqrt_sigma_mev must be > 0");
  }
  if (flow_every < 0) fail("flow_every must be >= 0");
  if (flow()) {
    if (!(flow_t_max > 0) || !std::isfinite(flow_t_max)) fail("flow_t_max must be > 0");
    if (!(flow_epsilon > 0) || !(flow_epsilon <= flow_t_max))
      fail("flow_epsilon must be > 0 and at most flow_t_max");
    if (flow_t_max / flow_epsilon > 1e7) fail("flow_t_max / flow_epsilon exceeds 10^7 steps");
    for (std::size_t i = 0; i < flow_record_times.size(); ++i) {
      const double t = flow_record_times[i];
      if (!(t > 0) || t > flow_t_max || (i > 0 && !(t > flow_record_times[i - 1])))
        fail("flow_record_times must increase within (0, flow_t_max]");
    }
    if (!flow_record_times.empty() && flow_record_times.back() != flow_t_max)
      fail("flow_record_times must end at flow_t_max");
    if (!(flow_reference > 0)) fail("flow_reference must be > 0");
    if (!(flow_adaptive >= 0)) fail("flow_adaptive must be >= 0 (0: fixed steps)");
  }
  if (ape_iterations < 0) fail("ape_iterations must be >= 0");
  if (ape_iterations > 0) {
    if (!wilson_loops()) fail("APE smearing only acts on Wilson loops, which are off");
    if (d < 3) fail("APE smearing needs at least 2 spatial directions (D >= 3)");
    if (!(ape_alpha >= 0 && ape_alpha <= 1)) fail("ape_alpha must be in [0, 1]");
  }
}

std::vector<double> RunParameters::flow_times() const {
  if (!flow_record_times.empty()) return flow_record_times;
  std::vector<double> t;
  // Multiples of epsilon, exactly as the steps land, and t_max itself.
  for (long long k = 1; k * flow_epsilon < flow_t_max * (1 - 1e-12); ++k)
    t.push_back(k * flow_epsilon);
  t.push_back(flow_t_max);
  return t;
}

std::string RunParameters::fingerprint() const {
  std::ostringstream s;
  s << "extents=" << extents_text(extents) << " betas=";
  for (std::size_t i = 0; i < betas.size(); ++i) s << (i ? "," : "") << exact_text(betas[i]);
  s << " precision=" << su2::to_string(precision) << " start=" << to_string(start)
    << " seed=" << seed << " n_hb=" << heatbath_sweeps << " n_or=" << overrelaxation_sweeps
    << " method=" << to_string(method) << " kp_threshold=" << exact_text(kp_threshold)
    << " max_attempts=" << max_attempts << " reunitarise_every=" << reunitarise_every
    << " thermalisation=" << thermalisation << " measurements=" << measurements
    << " between=" << updates_between_measurements << " wilson=" << wilson_r_max << "x"
    << wilson_t_max << " ape=" << exact_text(ape_alpha) << "x" << ape_iterations
    << " polyakov_bins=" << polyakov_bins;
  // Only with the flow on, so that checkpoints of runs without it keep their fingerprint.
  if (flow()) {
    s << " flow=" << flow_every << ":" << exact_text(flow_t_max) << ":" << exact_text(flow_epsilon)
      << ":";
    for (std::size_t i = 0; i < flow_record_times.size(); ++i)
      s << (i ? "," : "") << exact_text(flow_record_times[i]);
    if (flow_adaptive > 0) s << ":adaptive=" << exact_text(flow_adaptive);
  }
  return s.str();
}

int polyakov_histogram_bin(double p, int bins) {
  const double x = (p + 1.0) / 2.0 * bins;
  if (!(x > 0)) return 0;  // also NaN: counted in the first bin rather than lost
  return std::min(bins - 1, static_cast<int>(x));
}

std::vector<double> polyakov_histogram_edges(int bins) {
  std::vector<double> edges(static_cast<std::size_t>(bins) + 1);
  for (int i = 0; i <= bins; ++i) edges[i] = -1.0 + 2.0 * i / bins;
  return edges;
}

// ---- Engine: the field and the updater in one precision ---------------------------------------

struct Simulation::Engine {
  virtual ~Engine() = default;
  virtual void cold_start() = 0;
  virtual void hot_start(std::uint64_t seed) = 0;
  virtual void load(const std::vector<double>& canonical) = 0;
  virtual std::vector<double> canonical() const = 0;
  /// A new updater at `beta` whose RNG counter starts at `heatbath_sweeps`.
  virtual void set_coupling(const UpdateParameters& p, std::uint64_t heatbath_sweeps) = 0;
  /// One update; returns the heatbath counter after it.
  virtual std::uint64_t update() = 0;
  virtual void reunitarise() = 0;
  virtual void fence() = 0;
  virtual HeatbathTally take_tally() = 0;
  virtual PlaquetteAverage plaquette() const = 0;
  virtual double polyakov_loop() const = 0;
  virtual std::vector<double> wilson(int r_max, int t_max) const = 0;
  virtual std::vector<double> smeared_wilson(double alpha, int iterations, int r_max,
                                             int t_max) const = 0;
  /// The gradient flow of a copy of the field: observables at each of `times`.
  /// Adaptive steps when `tolerance` > 0 (WilsonFlow::flow_to_adaptive, starting at epsilon).
  virtual std::vector<FlowObservables> flow(const std::vector<double>& times, double epsilon,
                                            double tolerance) const = 0;
  virtual std::string decomposition_text() const { return "one rank"; }
  virtual std::string backend() const = 0;
};

namespace {

// The observables of `flow` at each of `times`, with fixed steps of epsilon or adaptive steps
// (tolerance > 0) starting from epsilon.
template <class Flow>
std::vector<FlowObservables> flow_at(Flow flow, const std::vector<double>& times, double epsilon,
                                     double tolerance) {
  std::vector<FlowObservables> out;
  for (double t : times) {
    if (tolerance > 0)
      flow.flow_to_adaptive(t, tolerance, epsilon);
    else
      flow.flow_to(t, epsilon);
    out.push_back(flow.measure());
  }
  return out;
}

template <class Space, class Real>
class EngineIn final : public Simulation::Engine {
 public:
  using Field = GaugeField<Space, Real>;

  EngineIn(const Space& space, const std::vector<int>& extents)
      : space_(space), field_(space, extents) {}

  void cold_start() override { field_.cold_start(); }
  void hot_start(std::uint64_t seed) override { field_.hot_start(seed); }
  void load(const std::vector<double>& canonical) override { field_.from_canonical(canonical); }
  std::vector<double> canonical() const override { return field_.to_canonical(); }
  void set_coupling(const UpdateParameters& p, std::uint64_t heatbath_sweeps) override {
    updater_.emplace(space_, p);
    updater_->set_heatbath_sweeps_done(heatbath_sweeps);
  }
  std::uint64_t update() override {
    updater_->update(field_);
    return updater_->heatbath_sweeps_done();
  }
  void reunitarise() override { field_.reunitarise(); }
  void fence() override { space_.fence(); }
  HeatbathTally take_tally() override {
    const HeatbathTally t = updater_->tally();
    updater_->reset_tally();
    return t;
  }
  PlaquetteAverage plaquette() const override { return field_.plaquette(); }
  double polyakov_loop() const override { return field_.polyakov_loop(); }
  std::vector<double> wilson(int r_max, int t_max) const override {
    return wilson_loops(space_, field_, r_max, t_max);
  }
  std::vector<double> smeared_wilson(double alpha, int iterations, int r_max,
                                     int t_max) const override {
    return wilson_loops(space_, ape_smear(space_, field_, alpha, iterations), r_max, t_max);
  }
  std::vector<FlowObservables> flow(const std::vector<double>& times, double epsilon,
                                    double tolerance) const override {
    return flow_at(WilsonFlow<Space, Real>(space_, field_), times, epsilon, tolerance);
  }
  std::string backend() const override { return backend_name<Space>(); }

 private:
  Space space_;
  Field field_;
  std::optional<Updater<Space, Real>> updater_;
};

// Rank 0's values on every rank.
void broadcast_values(const parallel::Communicator& comm, std::vector<double>& values) {
  std::vector<std::uint8_t> bytes;
  if (comm.is_root()) {
    bytes.resize(values.size() * sizeof(double));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  }
  comm.broadcast(bytes);
  values.resize(bytes.size() / sizeof(double));
  if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
}

// The field split over the ranks. Plaquettes are summed over ranks, the Polyakov loop combined
// from block products; Wilson loops and smearing are measured by the one-rank code on rank 0,
// on the configuration gathered there (once per configuration), and sent to every rank.
template <class Space, class Real>
class DistributedEngine final : public Simulation::Engine {
 public:
  DistributedEngine(const Space& space, const std::vector<int>& extents,
                    const parallel::Communicator& comm, const ParallelOptions& options)
      : space_(space), comm_(comm), options_(options), field_(space, extents, comm, options) {}

  void cold_start() override { field_.cold_start(), ++version_; }
  void hot_start(std::uint64_t seed) override { field_.hot_start(seed), ++version_; }
  void load(const std::vector<double>& canonical) override {
    field_.from_canonical(canonical);
    ++version_;
  }
  std::vector<double> canonical() const override { return field_.to_canonical(); }
  void set_coupling(const UpdateParameters& p, std::uint64_t heatbath_sweeps) override {
    updater_.emplace(space_, p);
    updater_->set_heatbath_sweeps_done(heatbath_sweeps);
  }
  std::uint64_t update() override {
    updater_->update(field_);
    ++version_;
    return updater_->heatbath_sweeps_done();
  }
  void reunitarise() override { field_.reunitarise(), ++version_; }
  void fence() override { space_.fence(); }
  HeatbathTally take_tally() override {
    const HeatbathTally t = updater_->tally(comm_);
    updater_->reset_tally();
    return t;
  }
  PlaquetteAverage plaquette() const override { return field_.plaquette(); }
  double polyakov_loop() const override { return field_.polyakov_loop(); }
  std::vector<double> wilson(int r_max, int t_max) const override {
    std::vector<double> v;
    if (const auto* w = whole()) v = wilson_loops(space_, *w, r_max, t_max);
    broadcast_values(comm_, v);
    return v;
  }
  std::vector<double> smeared_wilson(double alpha, int iterations, int r_max,
                                     int t_max) const override {
    std::vector<double> v;
    if (const auto* w = whole())
      v = wilson_loops(space_, ape_smear(space_, *w, alpha, iterations), r_max, t_max);
    broadcast_values(comm_, v);
    return v;
  }
  std::vector<FlowObservables> flow(const std::vector<double>& times, double epsilon,
                                    double tolerance) const override {
    return flow_at(WilsonFlow<Space, Real>(space_, field_, options_), times, epsilon, tolerance);
  }
  std::string decomposition_text() const override {
    const Decomposition& d = field_.decomposition();
    return std::to_string(d.ranks()) + " MPI ranks, grid " + d.grid_text() + ", " +
           d.global_text() + " as blocks of " + d.local_text() + ", " + "halos over " +
           parallel::to_string(field_.transport());
  }
  std::string backend() const override { return backend_name<Space>(); }

 private:
  // The whole configuration on rank 0 (nullptr on the other ranks). Collective.
  const GaugeField<Space, Real>* whole() const {
    if (whole_version_ != version_) {
      const std::vector<double> canonical = field_.to_canonical();
      if (comm_.is_root()) {
        if (!whole_) whole_.emplace(space_, field_.extents());
        whole_->from_canonical(canonical);
      }
      whole_version_ = version_;
    }
    return comm_.is_root() ? &*whole_ : nullptr;
  }

  Space space_;
  parallel::Communicator comm_;
  ParallelOptions options_;
  // mutable: halo() is used for a description only.
  mutable DistributedField<Space, Real> field_;
  std::optional<DistributedUpdater<Space, Real>> updater_;
  std::uint64_t version_ = 0;
  mutable std::uint64_t whole_version_ = ~std::uint64_t{0};
  mutable std::optional<GaugeField<Space, Real>> whole_;
};

}  // namespace

// ---- Simulation --------------------------------------------------------------------------------

template <class Space>
Simulation::Simulation(const Space& space, const RunParameters& parameters)
    : parameters_(parameters) {
  parameters_.validate();
  if (parameters_.precision == StoragePrecision::kFloat)
    engine_ = std::make_unique<EngineIn<Space, float>>(space, parameters_.extents);
  else
    engine_ = std::make_unique<EngineIn<Space, double>>(space, parameters_.extents);
}

template <class Space>
Simulation::Simulation(const Space& space, const RunParameters& parameters,
                       const parallel::Communicator& comm, const ParallelOptions& options)
    : parameters_(parameters) {
  parameters_.validate();
  if (!options.grid.empty())
    Decomposition::check_grid(parameters_.extents, options.grid, comm.size());
  const bool f = parameters_.precision == StoragePrecision::kFloat;
  const std::vector<int>& extents = parameters_.extents;
  if (comm.size() == 1) {
    // The one-rank engine: the same code path (and speed) as without MPI.
    engine_ = f ? std::unique_ptr<Engine>(std::make_unique<EngineIn<Space, float>>(space, extents))
                : std::make_unique<EngineIn<Space, double>>(space, extents);
  } else if (f) {
    engine_ = std::make_unique<DistributedEngine<Space, float>>(space, extents, comm, options);
  } else {
    engine_ = std::make_unique<DistributedEngine<Space, double>>(space, extents, comm, options);
  }
}

#define PORTAMC_SU2_SIMULATION_(Space)                                 \
  template Simulation::Simulation(const Space&, const RunParameters&); \
  template Simulation::Simulation(const Space&, const RunParameters&,  \
                                  const parallel::Communicator&, const ParallelOptions&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_SIMULATION_)
#undef PORTAMC_SU2_SIMULATION_

std::string Simulation::decomposition_text() const {
  return engine_->decomposition_text();
}

std::string Simulation::backend() const {
  return engine_->backend();
}

Simulation::~Simulation() = default;

void Simulation::start(const GaugeConfig* file) {
  position_ = ChainPosition{};
  points_.clear();
  switch (parameters_.start) {
    case StartKind::cold:
      engine_->cold_start();
      break;
    case StartKind::hot:
      engine_->hot_start(parameters_.seed);
      break;
    case StartKind::file:
      if (file == nullptr) fail("a file start needs the loaded configuration");
      engine_->load(file->links);
      // Continue the RNG counter of the run that wrote the file: a continuation with the same
      // seed never reuses its random numbers.
      position_.heatbath_sweeps = file->metadata.sweep;
      break;
  }
}

void Simulation::restore(const RunCheckpoint& c) {
  const std::string mine = parameters_.fingerprint();
  if (c.fingerprint != mine)
    fail("the checkpoint belongs to another run:\n  checkpoint: " + c.fingerprint +
         "\n  this run:   " + mine);
  if (c.position.point > parameters_.betas.size() || c.points.size() > parameters_.betas.size() ||
      c.points.size() < c.position.point)
    fail("inconsistent checkpoint: point index beyond the coupling list");
  const std::size_t loops = parameters_.loops_per_measurement();
  for (const PointRecord& r : c.points) {
    const std::size_t n = r.step.size();
    if (r.plaquette.size() != n || r.plaquette_spatial.size() != n ||
        r.plaquette_temporal.size() != n || r.polyakov.size() != n ||
        r.wilson.size() != n * loops ||
        r.wilson_smeared.size() != (parameters_.smearing() ? n * loops : 0) ||
        r.polyakov_histogram.size() != static_cast<std::size_t>(parameters_.polyakov_bins))
      fail("inconsistent checkpoint: measurement records of different lengths");
  }
  engine_->load(c.links);
  position_ = c.position;
  points_ = c.points;
  if (!done() && position_.point < points_.size())
    engine_->set_coupling(parameters_.update_parameters(points_[position_.point].beta),
                          position_.heatbath_sweeps);
}

RunCheckpoint Simulation::checkpoint() {
  if (!done() && position_.point < points_.size()) collect_tally(points_[position_.point]);
  RunCheckpoint c;
  c.fingerprint = parameters_.fingerprint();
  c.position = position_;
  c.links = engine_->canonical();
  c.points = points_;
  return c;
}

bool Simulation::done() const {
  return position_.point >= parameters_.betas.size();
}

double Simulation::links_per_update() const {
  return static_cast<double>(parameters_.heatbath_sweeps + parameters_.overrelaxation_sweeps) *
         static_cast<double>(parameters_.volume()) * parameters_.dimensions();
}

double Simulation::fraction_done() const {
  const auto& p = parameters_;
  const double per_point = double(p.thermalisation) +
                           double(p.measurements - 1) * double(p.updates_between_measurements);
  const double total = per_point * double(p.betas.size());
  if (done() || total <= 0) return done() ? 1.0 : 0.0;
  const double within = double(position_.thermalisation_done) +
                        double(std::max(0LL, position_.measurements_done - 1)) *
                            double(p.updates_between_measurements);
  return (double(position_.point) * per_point + within) / total;
}

std::string Simulation::status() const {
  if (done()) return "done";
  char text[128];
  const auto& p = parameters_;
  const double beta = p.betas[position_.point];
  if (position_.measurements_done == 0 && position_.thermalisation_done < p.thermalisation) {
    std::snprintf(text, sizeof text, "beta %.4g (%zu/%zu) thermalising %lld/%lld", beta,
                  position_.point + 1, p.betas.size(), position_.thermalisation_done,
                  p.thermalisation);
  } else {
    const PointRecord* r = position_.point < points_.size() ? &points_[position_.point] : nullptr;
    const double plaq = r && !r->plaquette.empty() ? r->plaquette.back() : NAN;
    std::snprintf(text, sizeof text, "beta %.4g (%zu/%zu) measurement %lld/%lld plaquette %.5f",
                  beta, position_.point + 1, p.betas.size(), position_.measurements_done,
                  p.measurements, plaq);
  }
  return text;
}

std::vector<double> Simulation::configuration() const {
  return engine_->canonical();
}

void Simulation::begin_point() {
  PointRecord r;
  r.beta = parameters_.betas[position_.point];
  r.polyakov_histogram.assign(static_cast<std::size_t>(parameters_.polyakov_bins), 0);
  points_.push_back(std::move(r));
  engine_->set_coupling(parameters_.update_parameters(points_.back().beta),
                        position_.heatbath_sweeps);
}

void Simulation::collect_tally(PointRecord& record) {
  const HeatbathTally t = engine_->take_tally();
  record.heatbath_links += t.links;
  record.heatbath_failures += t.failures;
}

void Simulation::update_once(PointRecord& record) {
  position_.heatbath_sweeps = engine_->update();
  ++position_.updates;
  ++record.updates;
  const int every = parameters_.reunitarise_every;
  if (every > 0 && position_.updates % static_cast<std::uint64_t>(every) == 0)
    engine_->reunitarise();
}

void Simulation::measure(PointRecord& r) {
  const auto& p = parameters_;
  const double t0 = seconds_now();
  const PlaquetteAverage plaq = engine_->plaquette();
  r.plaquette.push_back(plaq.total);
  r.plaquette_spatial.push_back(plaq.spatial);
  r.plaquette_temporal.push_back(plaq.temporal);
  const double poly = engine_->polyakov_loop();
  r.polyakov.push_back(poly);
  ++r.polyakov_histogram[static_cast<std::size_t>(polyakov_histogram_bin(poly, p.polyakov_bins))];
  if (p.wilson_loops()) {
    const auto w = engine_->wilson(p.wilson_r_max, p.wilson_t_max);
    r.wilson.insert(r.wilson.end(), w.begin(), w.end());
    if (p.smearing()) {
      const auto s =
          engine_->smeared_wilson(p.ape_alpha, p.ape_iterations, p.wilson_r_max, p.wilson_t_max);
      r.wilson_smeared.insert(r.wilson_smeared.end(), s.begin(), s.end());
    }
  }
  if (p.flow() && static_cast<long long>(r.step.size()) % p.flow_every == 0) {
    r.flow_measurement.push_back(static_cast<std::int64_t>(r.step.size()));
    for (const FlowObservables& o :
         engine_->flow(p.flow_times(), p.flow_epsilon, p.flow_adaptive)) {
      r.flow_energy_plaquette.push_back(o.energy_plaquette);
      r.flow_energy_clover.push_back(o.energy_clover);
      r.flow_charge.push_back(o.charge);
    }
  }
  r.step.push_back(static_cast<std::int64_t>(position_.updates));
  collect_tally(r);
  r.measurement_seconds += seconds_now() - t0;
}

void Simulation::advance() {
  if (done()) return;
  const auto& p = parameters_;
  if (points_.size() <= position_.point) begin_point();
  PointRecord& record = points_[position_.point];

  const double t0 = seconds_now();
  if (position_.measurements_done == 0 && position_.thermalisation_done < p.thermalisation) {
    update_once(record);
    engine_->fence();
    ++position_.thermalisation_done;
    record.update_seconds += seconds_now() - t0;
    return;
  }
  if (position_.measurements_done > 0) {
    for (long long i = 0; i < p.updates_between_measurements; ++i) update_once(record);
    engine_->fence();
    record.update_seconds += seconds_now() - t0;
  }
  measure(record);
  if (++position_.measurements_done == p.measurements) {
    ++position_.point;
    position_.thermalisation_done = 0;
    position_.measurements_done = 0;
  }
}

}  // namespace portamc::su2

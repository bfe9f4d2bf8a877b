// The samples of domino and lozenge tilings: CFTP samples from one GlauberSampler per rank,
// Aztec diamonds by domino shuffling, or one forward chain (GlauberSampler on one rank;
// DistributedGlauber, or DistributedTiledDomino for tiled domino steps, in row slabs over
// several). The two models differ only in how a sample is read out (the Readout structs).
// Every sample is measured on the host from its bytes: the observable, the per-cell tile type
// (the byte itself, as the samplers' own counters had it) and, for the last, the read-out.
#include <algorithm>
#include <string>
#include <type_traits>

#include "portamc/backends.hpp"
#include "portamc/tilings/domino/detail/aztec_shuffling.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"
#include "portamc/tilings/engine/detail/distributed_glauber.hpp"
#include "portamc/tilings/engine/detail/distributed_tiled_domino.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "sample_source.hpp"
#include "state_bytes.hpp"

namespace portamc::tilings::detail {
namespace {

struct DominoReadout {
  using Model = DominoModel;
  static const SquareDomain& domain(const PreparedRun& run) { return *run.square; }
  static const DominoWeights& weights(const PreparedRun& run) { return run.domino_weights; }
  static std::vector<std::string> type_names() { return {"north", "east", "south", "west"}; }
  static std::size_t rows(const SquareDomain& d) { return static_cast<std::size_t>(d.rows()); }
  static std::size_t cols(const SquareDomain& d) { return static_cast<std::size_t>(d.cols()); }
  static constexpr bool tiled = true;
  static const char* observable() { return "vertical_fraction"; }
  static const char* observable_description() {
    return "fraction of the faces covered by vertical dominoes";
  }
  static double measure(const SquareDomain& d, const DominoTiling& t) {
    const auto vertical = std::count_if(t.partner.begin(), t.partner.end(), [](std::uint8_t p) {
      return p == direction::north || p == direction::south;
    });
    return static_cast<double>(vertical) / static_cast<double>(d.face_count());
  }
  static void read_out(const SquareDomain& d, const DominoTiling& t, Tally& r) {
    r.configuration = {rows(d), cols(d), t.partner};
    const std::vector<int> h = heights_from_tiling(d, t);
    r.heights = {rows(d) + 1, cols(d) + 1, {h.begin(), h.end()}};
  }
};

struct LozengeReadout {
  using Model = LozengeModel;
  static const TriangularDomain& domain(const PreparedRun& run) { return *run.triangular; }
  static const LozengeWeights& weights(const PreparedRun& run) { return run.lozenge_weights; }
  static std::vector<std::string> type_names() {
    return {"orientation_0", "orientation_1", "orientation_2"};
  }
  static std::size_t rows(const TriangularDomain& d) {
    return static_cast<std::size_t>(d.height());
  }
  static std::size_t cols(const TriangularDomain& d) { return static_cast<std::size_t>(d.width()); }
  static constexpr bool tiled = false;
  static const char* observable() { return "volume"; }
  static const char* observable_description() {
    return "cubes above the minimal tiling (the stacked-cubes volume)";
  }
  static double measure(const TriangularDomain& d, const LozengeTiling& t) {
    return static_cast<double>(volume_above_minimum(d, t));
  }
  static void read_out(const TriangularDomain& d, const LozengeTiling& t, Tally& r) {
    r.configuration = {rows(d), cols(d), t.partners()};
    const LozengeHeights h = heights_from_tiling(d, t);
    r.heights = {rows(d) + 1, cols(d) + 1, {h.values.begin(), h.values.end()}};
  }
};

// Measures a sample given as the model's bytes.
template <class Readout>
class TilingFamily {
 public:
  using Model = typename Readout::Model;
  using State = std::vector<std::uint8_t>;
  explicit TilingFamily(const PreparedRun& run) : domain_(&Readout::domain(run)) {
    measures_ = {Readout::observable(), Readout::observable_description(), Readout::type_names(),
                 Readout::rows(*domain_), Readout::cols(*domain_)};
  }
  const Measures& measures() const { return measures_; }
  void add(const State& bytes, bool last, Tally& tally) const {
    const auto tiling = Model::from_bytes(*domain_, bytes);
    tally.values.push_back(Readout::measure(*domain_, tiling));
    tally.count_types(bytes, Model::tile_types);
    if (last) Readout::read_out(*domain_, tiling, tally);
  }
  static std::vector<std::int32_t> to_ints(const State& bytes) { return ints_of_bytes(bytes); }
  State from_ints(const std::vector<std::int32_t>& ints) const { return bytes_of_ints(ints); }

 private:
  const typename Model::Domain* domain_;
  Measures measures_;
};

// A forward chain over whatever Engine runs it: GlauberSampler (one rank), DistributedGlauber
// or DistributedTiledDomino (row slabs).
// GlauberSampler (one rank) reads its tiling directly; the slab chains gather their bytes.
template <class Engine>
struct IsOneRankSampler : std::false_type {};
template <class Model, class Space>
struct IsOneRankSampler<GlauberSampler<Model, Space>> : std::true_type {};

template <class Model, class Engine>
struct TilingChain {
  std::unique_ptr<Engine> engine;
  void run_sweeps(std::uint64_t n) { engine->run_sweeps(n); }
  std::vector<std::uint8_t> state_on_root() const {
    if constexpr (IsOneRankSampler<Engine>::value)
      return Model::bytes(engine->tiling());
    else
      return engine->bytes_on_root();
  }
  std::uint64_t steps_done() const { return engine->steps_done(); }
  void restore(std::vector<std::uint8_t> bytes, std::uint64_t steps) {
    engine->set_tiling(Model::from_bytes(engine->domain(), std::move(bytes)));  // validates
    engine->set_steps_done(steps);
  }
  int move_pairs() const { return 0; }
};

template <class Readout, class Engine>
std::unique_ptr<SampleSource> chain_source(std::unique_ptr<Engine> engine, const PreparedRun& run,
                                           const parallel::Communicator& comm) {
  using Chain = TilingChain<typename Readout::Model, Engine>;
  return std::make_unique<ChainSource<Chain, TilingFamily<Readout>>>(
      Chain{std::move(engine)}, TilingFamily<Readout>(run), run.parameters, comm.is_root());
}

template <class Readout, class Space>
std::unique_ptr<SampleSource> glauber_source(const Space& space, const PreparedRun& run,
                                             const parallel::Communicator& comm) {
  using Model = typename Readout::Model;
  const RunParameters& p = run.parameters;
  const Start start = p.start_maximal ? Start::maximal : Start::minimal;
  const auto& domain = Readout::domain(run);
  if (comm.size() == 1) {
    auto sampler = std::make_unique<GlauberSampler<Model, Space>>(
        space, domain, Readout::weights(run), p.seed, start, p.rule);
    if constexpr (Readout::tiled) sampler->set_schedule(p.schedule());
    sampler->set_class_order(p.class_order);
    return chain_source<Readout>(std::move(sampler), run, comm);
  }
  if constexpr (Readout::tiled) {
    if (p.tile_rows != 0) {
      auto chain = std::make_unique<DistributedTiledDomino<Space>>(
          space, domain, Readout::weights(run), p.seed, p.schedule(), comm, start, p.rule);
      configure_slab_chain(*chain, p);
      return chain_source<Readout>(std::move(chain), run, comm);
    }
  }
  auto chain = std::make_unique<DistributedGlauber<Model, Space>>(
      space, domain, Readout::weights(run), p.seed, comm, start, p.rule);
  configure_slab_chain(*chain, p);
  return chain_source<Readout>(std::move(chain), run, comm);
}

// Coupling from the past, sample j of this rank's share from its own seed, one sampler for
// all of them. A unit runs at most kSlotsPerUnit time slots (launches) of the sample under way,
// so that a long pass (an AD(1000) sample takes minutes) is checkpointed inside: the pass's
// position and its two chains are the state (GlauberSampler::exact_sample_part).
template <class Readout, class Space>
class CftpSource final : public SampleSource {
 public:
  using Model = typename Readout::Model;
  static constexpr std::uint64_t kSlotsPerUnit = 4096;

  CftpSource(const Space& space, const PreparedRun& run, const parallel::Communicator& comm)
      : family_(run),
        p_(run.parameters),
        share_(parallel::share_of(static_cast<std::uint64_t>(p_.samples), comm)),
        comm_(comm) {
    sampler_ = std::make_unique<GlauberSampler<Model, Space>>(
        space, Readout::domain(run), Readout::weights(run), p_.seed,
        p_.start_maximal ? Start::maximal : Start::minimal, p_.rule);
    if constexpr (Readout::tiled) sampler_->set_schedule(p_.schedule());
    sampler_->set_class_order(p_.class_order);
    options_.initial_horizon = p_.initial_horizon;
    options_.max_horizon = p_.max_horizon;
  }
  const Measures& measures() const override { return family_.measures(); }
  bool done() const override { return taken_ >= share_.size(); }
  double fraction_done() const override {
    return share_.size() == 0 ? 1.0 : static_cast<double>(taken_) / share_.size();
  }
  std::string status() const override {
    std::string text = share_status(taken_, share_.size(), comm_.size() > 1);
    const CftpPass& pass = sampler_->cftp_pass();
    if (pass.horizon > 0) text += ", horizon " + std::to_string(pass.horizon);
    return text;
  }
  void advance(Tally& tally) override {
    if (done()) return;
    const auto j = static_cast<std::int64_t>(share_.begin + taken_);
    const auto s =
        sampler_->exact_sample_part(cftp_sample_seed(p_.seed, j), options_, kSlotsPerUnit);
    if (!s) return;  // the sample is still under way
    ++taken_;
    tally.horizons.push_back(s->horizon);
    tally.steps.push_back(s->steps_run);
    tally.passes.push_back(static_cast<std::uint64_t>(s->passes));
    ++tally.samples;
    family_.add(Model::bytes(s->tiling), j + 1 == p_.samples, tally);
  }
  void save(SamplingCheckpoint& c) const override {
    const CftpPass& pass = sampler_->cftp_pass();
    std::vector<std::uint64_t> position{pass.horizon, pass.next_slot, pass.met ? 1u : 0u,
                                        pass.passes, pass.steps_run};
    std::vector<std::uint8_t> chains = sampler_->cftp_chains();
    chains.resize(2 * sampler_->cell_count(), 0);  // zeros: no sample under way
    c.cftp_pass = comm_.size() == 1 ? position : comm_.gather(position);
    c.cftp_chains = comm_.size() == 1 ? chains : comm_.gather(chains);
  }
  void restore(const SamplingCheckpoint& c, std::uint64_t taken) override {
    require_taken_fits(taken, share_.size());
    const auto rank = static_cast<std::size_t>(comm_.rank());
    const std::size_t cells = sampler_->cell_count();
    if (c.cftp_pass.size() != 5 * static_cast<std::size_t>(comm_.size()) ||
        c.cftp_chains.size() != 2 * cells * static_cast<std::size_t>(comm_.size()))
      throw std::invalid_argument("the cftp passes under way do not fit this run's domain");
    const std::uint64_t* p = c.cftp_pass.data() + 5 * rank;
    if (p[2] > 1) throw std::invalid_argument("a cftp pass with met = " + std::to_string(p[2]));
    const CftpPass pass{p[0], p[1], p[2] == 1, p[3], p[4]};
    const auto first = c.cftp_chains.begin() + static_cast<std::ptrdiff_t>(2 * cells * rank);
    sampler_->restore_cftp_pass(
        pass, std::vector<std::uint8_t>(first, first + static_cast<std::ptrdiff_t>(2 * cells)));
    taken_ = taken;
  }

 private:
  TilingFamily<Readout> family_;
  RunParameters p_;
  parallel::Share share_;
  parallel::Communicator comm_;
  std::unique_ptr<GlauberSampler<Model, Space>> sampler_;
  CftpOptions options_;
  std::uint64_t taken_ = 0;
};

// Exact Aztec diamonds by domino shuffling, one per unit: sample j of this rank's share from
// cftp_sample_seed(seed, j), so a sample does not depend on when or where it was taken.
template <class Space>
class ShufflingSource final : public SampleSource {
 public:
  ShufflingSource(const Space& space, const PreparedRun& run, const parallel::Communicator& comm)
      : shuffler_(space, run.parameters.domain_size[0], run.domino_weights),
        family_(run),
        p_(run.parameters),
        share_(parallel::share_of(static_cast<std::uint64_t>(p_.samples), comm)),
        several_ranks_(comm.size() > 1) {}
  const Measures& measures() const override { return family_.measures(); }
  bool done() const override { return taken_ >= share_.size(); }
  double fraction_done() const override {
    return share_.size() == 0 ? 1.0 : static_cast<double>(taken_) / share_.size();
  }
  std::string status() const override {
    return share_status(taken_, share_.size(), several_ranks_);
  }
  void advance(Tally& tally) override {
    if (done()) return;
    const auto j = static_cast<std::int64_t>(share_.begin + taken_++);
    ++tally.samples;
    family_.add(shuffler_.sample(cftp_sample_seed(p_.seed, j)).partner, j + 1 == p_.samples, tally);
  }
  void save(SamplingCheckpoint&) const override {}
  void restore(const SamplingCheckpoint&, std::uint64_t taken) override {
    require_taken_fits(taken, share_.size());
    taken_ = taken;
  }

 private:
  AztecShuffler<Space> shuffler_;
  TilingFamily<DominoReadout> family_;
  RunParameters p_;
  parallel::Share share_;
  bool several_ranks_;
  std::uint64_t taken_ = 0;
};

template <class Readout, class Space>
std::unique_ptr<SampleSource> make_source(const Space& space, const PreparedRun& run,
                                          const parallel::Communicator& comm) {
  switch (run.parameters.mode) {
    case SamplingMode::cftp:
      return std::make_unique<CftpSource<Readout, Space>>(space, run, comm);
    case SamplingMode::glauber:
      return glauber_source<Readout>(space, run, comm);
    case SamplingMode::shuffling:
      break;
  }
  if constexpr (Readout::tiled) return std::make_unique<ShufflingSource<Space>>(space, run, comm);
  throw std::invalid_argument("mode: shuffling samples domino tilings of Aztec diamonds only");
}

}  // namespace

template <class Space>
std::unique_ptr<SampleSource> make_domino_source(const Space& space, const PreparedRun& run,
                                                 const parallel::Communicator& comm) {
  return make_source<DominoReadout>(space, run, comm);
}

template <class Space>
std::unique_ptr<SampleSource> make_lozenge_source(const Space& space, const PreparedRun& run,
                                                  const parallel::Communicator& comm) {
  return make_source<LozengeReadout>(space, run, comm);
}

#define PORTAMC_TILINGS_INSTANTIATE_(Space)                             \
  template std::unique_ptr<SampleSource> make_domino_source<Space>(     \
      const Space&, const PreparedRun&, const parallel::Communicator&); \
  template std::unique_ptr<SampleSource> make_lozenge_source<Space>(    \
      const Space&, const PreparedRun&, const parallel::Communicator&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_INSTANTIATE_)
#undef PORTAMC_TILINGS_INSTANTIATE_

}  // namespace portamc::tilings::detail

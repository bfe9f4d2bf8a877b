// The samples of the six-vertex model: coupling from the past (SixVertexCftp: all copies of
// a rank's share together, since they share the passes, 4096 steps a unit) or one heat-bath chain
// (SixVertexGlauber, on one rank or in face-row slabs over several).
// Vertex-type densities are counted on the host from each sample's heights, so both modes
// share one code path.
#include <string>

#include "portamc/backends.hpp"
#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/engine/detail/six_vertex_glauber.hpp"
#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"
#include "sample_source.hpp"

namespace portamc::tilings::detail {
namespace {

class SixVertexFamily {
 public:
  using State = SixVertexHeights;
  explicit SixVertexFamily(const SixVertexBoundary& b) : boundary_(&b) {
    measures_ = {"c_fraction",
                 "fraction of the vertices of type c (c1 or c2)",
                 {"a1", "a2", "b1", "b2", "c1", "c2"},
                 static_cast<std::size_t>(b.rows()),
                 static_cast<std::size_t>(b.cols())};
  }
  const Measures& measures() const { return measures_; }
  void add(const SixVertexHeights& h, bool last, Tally& tally) const {
    const std::size_t rows = measures_.rows, cols = measures_.cols;
    std::vector<std::uint8_t> types(rows * cols);
    std::size_t c_vertices = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) {
        const auto type =
            static_cast<std::uint8_t>(h.vertex_type(static_cast<int>(r), static_cast<int>(c)));
        types[r * cols + c] = type;
        if (type >= static_cast<int>(VertexType::c1)) ++c_vertices;
      }
    }
    tally.count_types(types, vertex_type_count);
    tally.values.push_back(static_cast<double>(c_vertices) / static_cast<double>(rows * cols));
    if (last) {
      tally.configuration = {rows, cols, std::move(types)};
      tally.heights = {rows + 1, cols + 1, {h.values().begin(), h.values().end()}};
    }
  }
  static std::vector<std::int32_t> to_ints(const SixVertexHeights& h) {
    return {h.values().begin(), h.values().end()};
  }
  SixVertexHeights from_ints(const std::vector<std::int32_t>& ints) const {
    const std::size_t faces = (measures_.rows + 1) * (measures_.cols + 1);
    if (ints.size() != faces)
      throw std::invalid_argument("the chain state holds " + std::to_string(ints.size()) +
                                  " heights where the boundary has " + std::to_string(faces) +
                                  " faces");
    SixVertexHeights h(boundary_->rows(), boundary_->cols(), {ints.begin(), ints.end()});
    validate_six_vertex_heights(*boundary_, h);
    return h;
  }

 private:
  const SixVertexBoundary* boundary_;
  Measures measures_;
};

template <class Engine>
struct SixVertexChain {
  std::unique_ptr<Engine> chain;
  void run_sweeps(std::uint64_t n) { chain->run_sweeps(n); }
  std::uint64_t steps_done() const { return chain->step_count(); }
  SixVertexHeights state_on_root() const { return chain->state_on_root(); }
  void restore(const SixVertexHeights& h, std::uint64_t steps) {
    chain->set_state(h);
    chain->set_step_count(steps);
  }
  int move_pairs() const { return 0; }
};

// The steps and passes a copy needed on its own: horizons T0, 2 T0, ..., its coalescence horizon.
void record_cftp_copy(std::uint64_t initial, std::uint64_t horizon, Tally& t) {
  std::uint64_t steps = 0, passes = 0;
  for (std::uint64_t h = initial; h <= horizon; h *= 2) {
    steps += h;
    ++passes;
  }
  t.horizons.push_back(horizon);
  t.steps.push_back(steps);
  t.passes.push_back(passes);
}

// All copies of this rank's share run together (they share their passes); a unit applies at
// most kStepsPerUnit steps, so that a long pass is checkpointed inside (SixVertexCftp's
// position and chains are the state). Copy k draws the randomness of copy k of the one-rank
// run (first_copy), so the samples do not depend on the ranks.
template <class Space>
class SixVertexCftpSource final : public SampleSource {
 public:
  static constexpr std::uint64_t kStepsPerUnit = 4096;

  SixVertexCftpSource(const Space& space, const PreparedRun& run,
                      const parallel::Communicator& comm)
      : p_(run.parameters),
        family_(*run.boundary),
        share_(parallel::share_of(static_cast<std::uint64_t>(p_.samples), comm)),
        comm_(comm),
        faces_(run.boundary->face_count()) {
    CftpOptions options;
    options.initial_horizon = p_.initial_horizon;
    options.max_horizon = p_.max_horizon;
    cftp_ = std::make_unique<SixVertexCftp<Space>>(
        space, *run.boundary, run.six_vertex_weights, p_.seed, static_cast<int>(share_.size()),
        options, static_cast<int>(share_.begin), p_.class_order);
  }
  const Measures& measures() const override { return family_.measures(); }
  bool done() const override { return taken_; }
  double fraction_done() const override { return taken_ ? 1.0 : 0.0; }
  std::string status() const override {
    const auto& at = cftp_->position();
    return std::to_string(share_.size()) + " copies" +
           (at.horizon > 0 ? ", horizon " + std::to_string(at.horizon) : std::string());
  }
  void advance(Tally& tally) override {
    if (taken_ || !cftp_->run(kStepsPerUnit)) return;
    taken_ = true;
    const SixVertexCftpResult r = cftp_->result();
    for (std::size_t k = 0; k < r.samples.size(); ++k) {
      const bool last = share_.begin + k + 1 == static_cast<std::uint64_t>(p_.samples);
      ++tally.samples;
      family_.add(r.samples[k], last, tally);
      record_cftp_copy(p_.initial_horizon, r.coalescence_horizons[k], tally);
    }
  }
  void save(SamplingCheckpoint& c) const override {
    const auto& at = cftp_->position();
    std::vector<std::uint64_t> position{at.horizon, at.next_step, at.passes, at.steps_run};
    position.insert(position.end(), at.coalescence_horizons.begin(), at.coalescence_horizons.end());
    std::vector<int> heights;
    if (at.horizon > 0 && !taken_) {
      const std::vector<std::int32_t> chains = cftp_->chains();
      heights.assign(chains.begin(), chains.end());
    }
    heights.resize(2 * share_.size() * faces_, 0);
    c.cftp_pass = comm_.size() == 1 ? position : comm_.gather(position);
    const std::vector<int> all = comm_.size() == 1 ? heights : comm_.gather(heights);
    c.cftp_heights.assign(all.begin(), all.end());
  }
  void restore(const SamplingCheckpoint& c, std::uint64_t taken) override {
    // A rank's copies coalesce together: all of its samples are taken, or none.
    if (taken != 0 && taken != share_.size())
      throw std::invalid_argument("the checkpoint holds " + std::to_string(taken) + " of the " +
                                  std::to_string(share_.size()) +
                                  " six-vertex copies of a rank, which finish together");
    taken_ = taken == share_.size();
    if (taken_) return;  // this rank's copies are done; its samples are in the tally
    // The ranks before this one hold 4 + copies numbers and 2 copies chains each.
    std::size_t numbers = 0, values = 0;
    for (int r = 0; r < comm_.rank(); ++r) {
      const std::size_t copies =
          parallel::share_of(static_cast<std::uint64_t>(p_.samples), r, comm_.size()).size();
      numbers += 4 + copies;
      values += 2 * copies * faces_;
    }
    const std::size_t copies = share_.size();
    if (c.cftp_pass.size() < numbers + 4 + copies ||
        c.cftp_heights.size() < values + 2 * copies * faces_)
      throw std::invalid_argument("the six-vertex cftp passes under way do not fit this run");
    const std::uint64_t* p = c.cftp_pass.data() + numbers;
    typename SixVertexCftp<Space>::Position at{p[0], p[1], p[2], p[3], {p + 4, p + 4 + copies}};
    const auto first = c.cftp_heights.begin() + static_cast<std::ptrdiff_t>(values);
    cftp_->restore(at, std::vector<std::int32_t>(
                           first, first + static_cast<std::ptrdiff_t>(2 * copies * faces_)));
  }

 private:
  RunParameters p_;
  SixVertexFamily family_;
  parallel::Share share_;
  parallel::Communicator comm_;
  std::size_t faces_;
  std::unique_ptr<SixVertexCftp<Space>> cftp_;
  bool taken_ = false;
};

template <class Engine>
std::unique_ptr<SampleSource> chain_source(std::unique_ptr<Engine> chain, const PreparedRun& run,
                                           const parallel::Communicator& comm) {
  using Chain = SixVertexChain<Engine>;
  return std::make_unique<ChainSource<Chain, SixVertexFamily>>(
      Chain{std::move(chain)}, SixVertexFamily(*run.boundary), run.parameters, comm.is_root());
}

}  // namespace

template <class Space>
std::unique_ptr<SampleSource> make_six_vertex_source(const Space& space, const PreparedRun& run,
                                                     const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  if (p.mode == SamplingMode::cftp)
    return std::make_unique<SixVertexCftpSource<Space>>(space, run, comm);
  const SixVertexBoundary& boundary = *run.boundary;
  const SixVertexHeights start =
      p.start_maximal ? maximal_six_vertex_heights(boundary) : minimal_six_vertex_heights(boundary);
  auto chain = std::make_unique<SixVertexGlauber<Space>>(space, boundary, run.six_vertex_weights,
                                                         p.seed, start, 1, comm);
  configure_slab_chain(*chain, p);
  return chain_source(std::move(chain), run, comm);
}

#define PORTAMC_TILINGS_INSTANTIATE_(Space)                             \
  template std::unique_ptr<SampleSource> make_six_vertex_source<Space>( \
      const Space&, const PreparedRun&, const parallel::Communicator&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_INSTANTIATE_)
#undef PORTAMC_TILINGS_INSTANTIATE_

}  // namespace portamc::tilings::detail

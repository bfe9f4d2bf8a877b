// Sampling of the six-vertex model for portamc-tilings: all CFTP samples at once (one pair of
// chains per sample, six_vertex_cftp) or one heat-bath chain (SixVertexGlauber). Tile-type
// densities here are vertex-type densities, counted on the host from each sample so that both
// modes share one code path.
#include <string>

#include "portamc/tilings/distributed_six_vertex.hpp"
#include "portamc/tilings/six_vertex_cftp.hpp"
#include "portamc/tilings/six_vertex_glauber.hpp"
#include "portamc/tilings/six_vertex_heights.hpp"
#include "run_sampling.hpp"

namespace portamc::tilings::detail {
namespace {

class VertexTypeTally {
 public:
  explicit VertexTypeTally(const SixVertexBoundary& b)
      : rows_(static_cast<std::size_t>(b.rows())),
        cols_(static_cast<std::size_t>(b.cols())),
        counts_(vertex_type_count * rows_ * cols_, 0) {}

  /// Adds a sample; returns its fraction of c vertices.
  double add(const SixVertexHeights& h) {
    std::size_t c_vertices = 0;
    for (std::size_t r = 0; r < rows_; ++r) {
      for (std::size_t c = 0; c < cols_; ++c) {
        const int type = static_cast<int>(h.vertex_type(static_cast<int>(r), static_cast<int>(c)));
        ++counts_[static_cast<std::size_t>(type) * rows_ * cols_ + r * cols_ + c];
        if (type >= static_cast<int>(VertexType::c1)) ++c_vertices;
      }
    }
    ++samples_;
    return static_cast<double>(c_vertices) / static_cast<double>(rows_ * cols_);
  }

  /// Counts and samples summed over the ranks (exact integers), on every rank.
  void sum_over(const parallel::Communicator& comm) {
    comm.sum(counts_);
    samples_ = comm.sum(samples_);
  }

  void write_to(RunResults& r) const {
    r.type_names = {"a1", "a2", "b1", "b2", "c1", "c2"};
    r.density_samples = samples_;
    for (int t = 0; t < vertex_type_count; ++t) {
      Grid<double> g{rows_, cols_, std::vector<double>(rows_ * cols_)};
      for (std::size_t i = 0; i < rows_ * cols_; ++i)
        g.values[i] =
            static_cast<double>(counts_[static_cast<std::size_t>(t) * rows_ * cols_ + i]) /
            static_cast<double>(samples_);
      r.densities.push_back(std::move(g));
    }
  }

 private:
  std::size_t rows_, cols_;
  std::vector<std::uint64_t> counts_;
  std::uint64_t samples_ = 0;
};

void read_out(const SixVertexHeights& h, RunResults& r) {
  const auto rows = static_cast<std::size_t>(h.rows()), cols = static_cast<std::size_t>(h.cols());
  r.configuration = {rows, cols, std::vector<std::uint8_t>(rows * cols)};
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      r.configuration.values[i * cols + j] =
          static_cast<std::uint8_t>(h.vertex_type(static_cast<int>(i), static_cast<int>(j)));
  r.heights = {rows + 1, cols + 1, {h.values().begin(), h.values().end()}};
}

// The steps and passes a copy needed on its own: horizons T0, 2 T0, ..., its coalescence horizon.
void record_cftp_copy(std::uint64_t initial, std::uint64_t horizon, RunResults& r) {
  std::uint64_t steps = 0, passes = 0;
  for (std::uint64_t t = initial; t <= horizon; t *= 2) {
    steps += t;
    ++passes;
  }
  r.cftp_horizons.push_back(horizon);
  r.cftp_steps.push_back(steps);
  r.cftp_passes.push_back(passes);
}

// mode: glauber over several ranks: the chain in row slabs; each sample is gathered on rank 0
// and tallied there by the one-rank code.
RunResults sample_six_vertex_slabs(const PreparedRun& run, const ProgressCallback& progress,
                                   const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  const SixVertexBoundary& boundary = *run.boundary;
  RunResults r;
  r.observable = "c_fraction";
  r.observable_description = "fraction of the vertices of type c (c1 or c2)";
  VertexTypeTally tally(boundary);
  const SixVertexHeights start =
      p.start_maximal ? maximal_six_vertex_heights(boundary) : minimal_six_vertex_heights(boundary);
  DistributedSixVertexGlauber<> chain(boundary, run.six_vertex_weights, p.seed, start, comm);
  if (p.halo_transport != parallel::HaloTransport::automatic)
    chain.set_halo_transport(p.halo_transport);
  chain.set_class_order(p.class_order);
  chain.run_sweeps(static_cast<std::uint64_t>(p.thermalisation_sweeps));
  SixVertexHeights last;
  for (std::int64_t k = 0; k < p.samples; ++k) {
    chain.run_sweeps(static_cast<std::uint64_t>(p.sweeps_between_samples));
    last = chain.state_on_root();
    if (comm.is_root()) r.observable_values.push_back(tally.add(last));
    const double done = static_cast<double>(k + 1) / static_cast<double>(p.samples);
    const bool go_on =
        progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples));
    if (comm.max(std::uint64_t{go_on ? 0u : 1u}) != 0) return r;  // all ranks stop together
  }
  r.glauber_steps = chain.step_count();
  if (comm.is_root()) {
    read_out(last, r);
    tally.write_to(r);
  }
  return r;
}

}  // namespace

RunResults sample_six_vertex(const PreparedRun& run, const ProgressCallback& progress,
                             const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  if (comm.size() > 1 && p.mode == SamplingMode::glauber)
    return sample_six_vertex_slabs(run, progress, comm);
  const SixVertexBoundary& boundary = *run.boundary;
  RunResults r;
  r.observable = "c_fraction";
  r.observable_description = "fraction of the vertices of type c (c1 or c2)";
  VertexTypeTally tally(boundary);
  if (p.mode == SamplingMode::cftp) {
    CftpOptions options;
    options.initial_horizon = p.initial_horizon;
    options.max_horizon = p.max_horizon;
    // Over several ranks each takes a contiguous share of the copies, copy k drawing the
    // randomness of copy k of the one-rank run (six_vertex_cftp's first_copy).
    const parallel::Share share = parallel::share_of(static_cast<std::uint64_t>(p.samples), comm);
    progress(0.0, "coupling from the past, " + std::to_string(share.size()) + " copies");
    const SixVertexCftpResult cftp =
        six_vertex_cftp(boundary, run.six_vertex_weights, p.seed, static_cast<int>(share.size()),
                        options, static_cast<int>(share.begin), p.class_order);
    for (std::size_t k = 0; k < cftp.samples.size(); ++k) {
      r.observable_values.push_back(tally.add(cftp.samples[k]));
      record_cftp_copy(p.initial_horizon, cftp.coalescence_horizons[k], r);
    }
    if (share.end == static_cast<std::uint64_t>(p.samples)) read_out(cftp.samples.back(), r);
    progress(1.0, "done");
    if (comm.size() > 1) {
      tally.sum_over(comm);
      gather_samples(r, comm);
      if (!comm.is_root()) return r;
    }
  } else {
    const SixVertexHeights start = p.start_maximal ? maximal_six_vertex_heights(boundary)
                                                   : minimal_six_vertex_heights(boundary);
    SixVertexGlauber<> chain(boundary, run.six_vertex_weights, p.seed, start);
    chain.set_class_order(p.class_order);
    chain.run_sweeps(static_cast<std::uint64_t>(p.thermalisation_sweeps));
    SixVertexHeights last;
    for (std::int64_t k = 0; k < p.samples; ++k) {
      chain.run_sweeps(static_cast<std::uint64_t>(p.sweeps_between_samples));
      last = chain.state();
      r.observable_values.push_back(tally.add(last));
      const double done = static_cast<double>(k + 1) / static_cast<double>(p.samples);
      if (!progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples)))
        return r;
    }
    read_out(last, r);
    r.glauber_steps = chain.step_count();
  }
  tally.write_to(r);
  return r;
}

}  // namespace portamc::tilings::detail

// Sampling of domino and lozenge tilings for portamc-tilings: one GlauberSampler, used either
// for independent CFTP samples or as one forward chain. The two models differ only in how a
// sample is read out (the Readout structs below). Over several MPI ranks the forward chain is
// a DistributedGlauber (row slabs), and CFTP/shuffling samples are shared out whole.
#include <algorithm>
#include <string>

#include "portamc/tilings/aztec_shuffling.hpp"
#include "portamc/tilings/distributed_glauber.hpp"
#include "portamc/tilings/distributed_tiled_domino.hpp"
#include "portamc/tilings/domino_glauber.hpp"
#include "portamc/tilings/domino_heights.hpp"
#include "portamc/tilings/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge_glauber.hpp"
#include "run_sampling.hpp"

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
  static void read_out(const SquareDomain& d, const DominoTiling& t, RunResults& r) {
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
  static void read_out(const TriangularDomain& d, const LozengeTiling& t, RunResults& r) {
    r.configuration = {rows(d), cols(d), t.partners()};
    const LozengeHeights h = heights_from_tiling(d, t);
    r.heights = {rows(d) + 1, cols(d) + 1, {h.values.begin(), h.values.end()}};
  }
};

template <class Readout>
void store_densities(const TypeDensities& d, const typename Readout::Model::Domain& domain,
                     RunResults& r) {
  r.density_samples = d.samples;
  r.type_names = Readout::type_names();
  const std::size_t cells = static_cast<std::size_t>(d.cells);
  if (d.values.size() != cells * static_cast<std::size_t>(d.types)) return;  // not on rank 0
  for (int type = 0; type < d.types; ++type) {
    const auto first = d.values.begin() + static_cast<std::ptrdiff_t>(type * cells);
    r.densities.push_back({Readout::rows(domain), Readout::cols(domain),
                           std::vector<double>(first, first + static_cast<std::ptrdiff_t>(cells))});
  }
}

template <class Readout>
RunResults sample_one_rank(const PreparedRun& run, const ProgressCallback& progress);

// mode: glauber over several ranks: one chain in row slabs (DistributedGlauber, or for tiled
// domino steps DistributedTiledDomino); every sample is gathered on rank 0, which measures it
// with the one-rank code, so the output file is the one-rank file bit for bit.
template <class Readout, class Chain>
RunResults sample_slab_chain(Chain& chain, const PreparedRun& run, const ProgressCallback& progress,
                             const parallel::Communicator& comm) {
  using Model = typename Readout::Model;
  const RunParameters& p = run.parameters;
  const auto& domain = Readout::domain(run);
  if (p.halo_transport != parallel::HaloTransport::automatic)
    chain.set_halo_transport(p.halo_transport);
  chain.set_class_order(p.class_order);
  RunResults r;
  r.observable = Readout::observable();
  r.observable_description = Readout::observable_description();
  chain.run_sweeps(static_cast<std::uint64_t>(p.thermalisation_sweeps));
  for (std::int64_t k = 0; k < p.samples; ++k) {
    chain.run_sweeps(static_cast<std::uint64_t>(p.sweeps_between_samples));
    chain.accumulate_densities();
    std::vector<std::uint8_t> bytes = chain.bytes_on_root();
    if (comm.is_root()) {
      const auto tiling = Model::from_bytes(domain, std::move(bytes));
      r.observable_values.push_back(Readout::measure(domain, tiling));
      if (k + 1 == p.samples) Readout::read_out(domain, tiling, r);
    }
    const double done = static_cast<double>(k + 1) / static_cast<double>(p.samples);
    const bool go_on =
        progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples));
    // The chain is one collective computation: all ranks stop at the same sample or none.
    if (comm.max(std::uint64_t{go_on ? 0u : 1u}) != 0) return r;
  }
  r.glauber_steps = chain.steps_done();
  store_densities<Readout>(chain.densities_on_root(), domain, r);
  return r;
}

template <class Readout>
RunResults sample_slabs(const PreparedRun& run, const ProgressCallback& progress,
                        const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  const Start start = p.start_maximal ? Start::maximal : Start::minimal;
  if constexpr (Readout::tiled) {
    if (p.tile_rows != 0) {
      DistributedTiledDomino<> chain(Readout::domain(run), Readout::weights(run), p.seed,
                                     p.schedule(), comm, start, p.rule);
      return sample_slab_chain<Readout>(chain, run, progress, comm);
    }
  }
  DistributedGlauber<typename Readout::Model> chain(Readout::domain(run), Readout::weights(run),
                                                    p.seed, comm, start, p.rule);
  return sample_slab_chain<Readout>(chain, run, progress, comm);
}

// mode: cftp over several ranks: rank r takes samples share_of(samples, r), each from its own
// seed cftp_sample_seed(seed, k) as on one rank; tile counts are summed (exact integers).
template <class Readout>
RunResults sample_spread(const PreparedRun& run, const ProgressCallback& progress,
                         const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  const auto& domain = Readout::domain(run);
  GlauberSampler<typename Readout::Model> sampler(domain, Readout::weights(run), p.seed,
                                                  p.start_maximal ? Start::maximal : Start::minimal,
                                                  p.rule);
  if constexpr (Readout::tiled) sampler.set_schedule(p.schedule());
  sampler.set_class_order(p.class_order);
  RunResults r;
  r.observable = Readout::observable();
  r.observable_description = Readout::observable_description();
  CftpOptions options;
  options.initial_horizon = p.initial_horizon;
  options.max_horizon = p.max_horizon;
  const parallel::Share share = parallel::share_of(static_cast<std::uint64_t>(p.samples), comm);
  for (auto k = static_cast<std::int64_t>(share.begin); k < static_cast<std::int64_t>(share.end);
       ++k) {
    const auto s = sampler.exact_sample(cftp_sample_seed(p.seed, k), options);
    r.cftp_horizons.push_back(s.horizon);
    r.cftp_steps.push_back(s.steps_run);
    r.cftp_passes.push_back(static_cast<std::uint64_t>(s.passes));
    sampler.accumulate_densities();
    r.observable_values.push_back(Readout::measure(domain, s.tiling));
    if (k + 1 == p.samples) Readout::read_out(domain, s.tiling, r);
    const double done = static_cast<double>(k + 1 - static_cast<std::int64_t>(share.begin)) /
                        static_cast<double>(share.size());
    if (!progress(done, "sample " + std::to_string(k + 1) + " (" + std::to_string(share.begin + 1) +
                            ".." + std::to_string(share.end) + " on this rank)"))
      break;  // the collectives below are met once by every rank all the same
  }
  std::vector<std::uint64_t> counts = sampler.type_counts();  // type * cells + cell
  comm.sum(counts);
  TypeDensities d;
  d.cells = static_cast<int>(sampler.cell_count());
  d.types = sampler.tile_types;
  d.samples = comm.sum(static_cast<std::uint64_t>(r.observable_values.size()));
  if (comm.is_root() && d.samples > 0) {
    d.values.resize(counts.size());
    for (std::size_t i = 0; i < counts.size(); ++i)
      d.values[i] = static_cast<double>(counts[i]) / static_cast<double>(d.samples);
  }
  gather_samples(r, comm);
  store_densities<Readout>(d, domain, r);
  return r;
}

template <class Readout>
RunResults sample(const PreparedRun& run, const ProgressCallback& progress,
                  const parallel::Communicator& comm) {
  if (comm.size() == 1) return sample_one_rank<Readout>(run, progress);
  return run.parameters.mode == SamplingMode::cftp ? sample_spread<Readout>(run, progress, comm)
                                                   : sample_slabs<Readout>(run, progress, comm);
}

template <class Readout>
RunResults sample_one_rank(const PreparedRun& run, const ProgressCallback& progress) {
  const RunParameters& p = run.parameters;
  const auto& domain = Readout::domain(run);
  const bool cftp = p.mode == SamplingMode::cftp;
  GlauberSampler<typename Readout::Model> sampler(domain, Readout::weights(run), p.seed,
                                                  p.start_maximal ? Start::maximal : Start::minimal,
                                                  p.rule);
  if constexpr (Readout::tiled) sampler.set_schedule(p.schedule());
  sampler.set_class_order(p.class_order);
  RunResults r;
  r.observable = Readout::observable();
  r.observable_description = Readout::observable_description();
  if (!cftp) sampler.run_sweeps(static_cast<std::uint64_t>(p.thermalisation_sweeps));
  CftpOptions options;
  options.initial_horizon = p.initial_horizon;
  options.max_horizon = p.max_horizon;
  for (std::int64_t k = 0; k < p.samples; ++k) {
    if (cftp) {
      const auto s = sampler.exact_sample(cftp_sample_seed(p.seed, k), options);
      r.cftp_horizons.push_back(s.horizon);
      r.cftp_steps.push_back(s.steps_run);
      r.cftp_passes.push_back(static_cast<std::uint64_t>(s.passes));
    } else {
      sampler.run_sweeps(static_cast<std::uint64_t>(p.sweeps_between_samples));
    }
    sampler.accumulate_densities();
    const auto tiling = sampler.tiling();
    r.observable_values.push_back(Readout::measure(domain, tiling));
    if (k + 1 == p.samples) Readout::read_out(domain, tiling, r);
    const double done = static_cast<double>(k + 1) / static_cast<double>(p.samples);
    if (!progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples)))
      return r;
  }
  r.glauber_steps = sampler.steps_done();
  const TypeDensities d = sampler.densities();
  r.density_samples = d.samples;
  r.type_names = Readout::type_names();
  const std::size_t cells = static_cast<std::size_t>(d.cells);
  for (int type = 0; type < d.types; ++type) {
    const auto first = d.values.begin() + static_cast<std::ptrdiff_t>(type * cells);
    r.densities.push_back({Readout::rows(domain), Readout::cols(domain),
                           std::vector<double>(first, first + static_cast<std::ptrdiff_t>(cells))});
  }
  return r;
}

}  // namespace

RunResults sample_domino(const PreparedRun& run, const ProgressCallback& progress,
                         const parallel::Communicator& comm) {
  return sample<DominoReadout>(run, progress, comm);
}

// Over several ranks: rank r shuffles samples share_of(samples, r) (sample k from
// cftp_sample_seed(seed, k) as on one rank); counts are summed, per-sample values gathered.
RunResults sample_domino_shuffling(const PreparedRun& run, const ProgressCallback& progress,
                                   const parallel::Communicator& comm) {
  using Readout = DominoReadout;
  const RunParameters& p = run.parameters;
  const SquareDomain& domain = *run.square;  // aztec_diamond(n), as the shuffler's tilings
  AztecShuffler<> shuffler(p.domain_size[0], run.domino_weights);
  RunResults r;
  r.observable = Readout::observable();
  r.observable_description = Readout::observable_description();
  r.type_names = Readout::type_names();
  const std::size_t rows = Readout::rows(domain), cols = Readout::cols(domain);
  const std::size_t types = r.type_names.size();
  std::vector<std::uint64_t> counts(types * rows * cols, 0);  // type * cells + cell
  const parallel::Share share = parallel::share_of(static_cast<std::uint64_t>(p.samples), comm);
  for (auto k = static_cast<std::int64_t>(share.begin); k < static_cast<std::int64_t>(share.end);
       ++k) {
    const DominoTiling tiling = shuffler.sample(cftp_sample_seed(p.seed, k));
    for (std::size_t cell = 0; cell < tiling.partner.size(); ++cell)
      if (tiling.partner[cell] < types) ++counts[tiling.partner[cell] * rows * cols + cell];
    ++r.density_samples;
    r.observable_values.push_back(Readout::measure(domain, tiling));
    if (k + 1 == p.samples) Readout::read_out(domain, tiling, r);
    const double done = static_cast<double>(k + 1 - static_cast<std::int64_t>(share.begin)) /
                        static_cast<double>(share.size());
    if (!progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples))) {
      if (comm.size() == 1) return r;
      break;  // the collectives below are met once by every rank all the same
    }
  }
  if (comm.size() > 1) {
    comm.sum(counts);
    r.density_samples = comm.sum(r.density_samples);
    gather_samples(r, comm);
    if (!comm.is_root()) return r;
  }
  for (std::size_t type = 0; type < types; ++type) {
    Grid<double> density{rows, cols, std::vector<double>(rows * cols)};
    for (std::size_t cell = 0; cell < rows * cols; ++cell)
      density.values[cell] = static_cast<double>(counts[type * rows * cols + cell]) /
                             static_cast<double>(r.density_samples);
    r.densities.push_back(std::move(density));
  }
  return r;
}

RunResults sample_lozenge(const PreparedRun& run, const ProgressCallback& progress,
                          const parallel::Communicator& comm) {
  return sample<LozengeReadout>(run, progress, comm);
}

}  // namespace portamc::tilings::detail

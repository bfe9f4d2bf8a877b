#include "portamc/tilings/sampling_run.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

#include "portamc/backends.hpp"
#include "portamc/checksum.hpp"
#include "sample_source.hpp"

namespace portamc::tilings {
namespace detail {

void Tally::count_types(const std::vector<std::uint8_t>& bytes, int types) {
  const std::size_t cells = bytes.size();
  if (counts.empty()) counts.assign(cells * static_cast<std::size_t>(types), 0);
  for (std::size_t cell = 0; cell < cells; ++cell)
    if (bytes[cell] < types) ++counts[bytes[cell] * cells + cell];
}

std::string share_status(std::uint64_t taken, std::uint64_t share, bool several_ranks) {
  return "sample " + std::to_string(taken) + "/" + std::to_string(share) +
         (several_ranks ? " on this rank" : "");
}

void require_taken_fits(std::uint64_t taken, std::uint64_t share) {
  if (taken > share)
    throw std::invalid_argument("the checkpoint's run has taken " + std::to_string(taken) +
                                " samples where this one has " + std::to_string(share));
}

std::uint64_t cftp_sample_seed(std::uint64_t seed, std::int64_t k) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(k) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace detail

namespace {

template <class Space>
std::unique_ptr<detail::SampleSource> make_source(const Space& space, const PreparedRun& run,
                                                  const parallel::Communicator& comm) {
  switch (run.parameters.model) {
    case TilingModel::domino:
      return detail::make_domino_source(space, run, comm);
    case TilingModel::lozenge:
      return detail::make_lozenge_source(space, run, comm);
    case TilingModel::six_vertex:
      return detail::make_six_vertex_source(space, run, comm);
    case TilingModel::bibone:
      return detail::make_bibone_source(space, run, comm);
    case TilingModel::rect_triangle:
      return detail::make_rect_triangle_source(space, run, comm);
  }
  throw std::logic_error("tilings: unknown model");
}

// The last sample lives on the rank that took it; the others hold empty grids.
template <class T>
Grid<T> gather_grid(const Grid<T>& local, const parallel::Communicator& comm) {
  if (comm.size() == 1) return local;
  std::vector<std::uint64_t> shape{local.rows, local.cols};
  comm.max(shape);
  Grid<T> all{shape[0], shape[1], {}};
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    all.values = comm.gather(local.values);
  } else {
    const std::vector<int> values(local.values.begin(), local.values.end());
    const std::vector<int> gathered = comm.gather(values);
    all.values.assign(gathered.begin(), gathered.end());
  }
  return all;
}

template <class T>
std::vector<T> slice(const std::vector<T>& all, std::size_t first, std::size_t count,
                     const char* what) {
  if (all.size() < first + count)
    throw std::invalid_argument(std::string("the checkpoint holds ") + std::to_string(all.size()) +
                                " " + what + " where " + std::to_string(first + count) +
                                " were taken");
  return {all.begin() + static_cast<std::ptrdiff_t>(first),
          all.begin() + static_cast<std::ptrdiff_t>(first + count)};
}

// The tally of every rank, gathered and summed on rank 0 (collective).
SamplingCheckpoint gathered_tally(const detail::Tally& t, const parallel::Communicator& comm) {
  SamplingCheckpoint c;
  const bool one = comm.size() == 1;
  c.observable_values = one ? t.values : comm.gather(t.values);
  c.cftp_horizons = one ? t.horizons : comm.gather(t.horizons);
  c.cftp_steps = one ? t.steps : comm.gather(t.steps);
  c.cftp_passes = one ? t.passes : comm.gather(t.passes);
  // Ranks that took no sample yet have no counts: sum over the longest.
  std::vector<std::uint64_t> size{t.counts.size()};
  comm.max(size);
  c.type_counts = t.counts;
  c.type_counts.resize(size[0], 0);
  comm.sum(c.type_counts);
  c.density_samples = comm.sum(t.samples);
  c.configuration = gather_grid(t.configuration, comm);
  c.heights = gather_grid(t.heights, comm);
  return c;
}

}  // namespace

std::string sampling_fingerprint(const PreparedRun& run) {
  const RunParameters& p = run.parameters;
  std::ostringstream f;
  f.precision(17);
  f << "model=" << to_string(p.model) << "\nmode=" << to_string(p.mode)
    << "\ndomain=" << p.domain_description() << "\nweights=" << p.weights_kind;
  for (double w : p.weight_values) f << " " << w;
  f << "\nrule=" << static_cast<int>(p.rule) << "\ncolouring=" << static_cast<int>(p.colouring)
    << "\nclass_order=" << static_cast<int>(p.class_order) << "\nseed=" << p.seed
    << "\nhorizons=" << p.initial_horizon << " " << p.max_horizon
    << "\nstart_maximal=" << p.start_maximal << "\nsweeps=" << p.thermalisation_sweeps << " "
    << p.sweeps_between_samples << "\ntiles=" << p.tile_rows << " " << p.tile_cols << " "
    << p.substeps << " " << p.bit_sliced << "\n";
  // A mask or boundary file is named by its path: its contents must match too.
  if (!p.domain_file.empty()) {
    std::ifstream in(p.domain_file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    f << "domain_file_checksum=" << Checksum().text(text).digest() << "\n";
  }
  return f.str();
}

struct SamplingRun::Impl {
  const PreparedRun& run;
  parallel::Communicator comm;
  std::unique_ptr<detail::SampleSource> source;
  detail::Tally tally;
  std::int64_t units_done = 0;
  double seconds = 0;  // in advance(), over every run of a resumed chain of runs
};

template <class Space>
SamplingRun::SamplingRun(const Space& space, const PreparedRun& run,
                         const parallel::Communicator& comm)
    : impl_(new Impl{run, comm, nullptr, {}, 0, 0}) {
  check_ranks(run, comm.size());
  impl_->source = make_source(space, run, comm);
}

#define PORTAMC_TILINGS_INSTANTIATE_(Space)                           \
  template SamplingRun::SamplingRun(const Space&, const PreparedRun&, \
                                    const parallel::Communicator&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_INSTANTIATE_)
#undef PORTAMC_TILINGS_INSTANTIATE_

SamplingRun::~SamplingRun() = default;

void SamplingRun::advance() {
  Impl& m = *impl_;
  const auto start = std::chrono::steady_clock::now();
  m.source->advance(m.tally);
  ++m.units_done;
  m.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool SamplingRun::done() const {
  return impl_->source->done();
}

double SamplingRun::fraction_done() const {
  return impl_->source->fraction_done();
}

std::string SamplingRun::status() const {
  return impl_->source->status();
}

SamplingCheckpoint SamplingRun::checkpoint() const {
  const Impl& m = *impl_;
  SamplingCheckpoint c = gathered_tally(m.tally, m.comm);
  c.fingerprint = sampling_fingerprint(m.run);
  c.ranks = m.source->shares_samples() ? m.comm.size() : 1;
  c.samples = m.run.parameters.samples;
  c.units_done = m.units_done;
  c.seconds = m.seconds;
  const std::vector<std::uint64_t> taken{static_cast<std::uint64_t>(m.tally.values.size())};
  c.rank_samples = m.comm.size() == 1 ? taken : m.comm.gather(taken);
  m.source->save(c);  // a chain's units_done is every rank's
  return c;
}

void SamplingRun::restore(const SamplingCheckpoint& c) {
  Impl& m = *impl_;
  if (c.fingerprint != sampling_fingerprint(m.run))
    throw std::invalid_argument(
        "the checkpoint is of a run with other parameters (model, mode, domain, weights, "
        "dynamics, seed or horizons differ)");
  const bool shared = m.source->shares_samples();
  const int ranks = shared ? m.comm.size() : 1;
  if (c.ranks != ranks || (shared && c.rank_samples.size() != static_cast<std::size_t>(ranks)))
    throw std::invalid_argument("the checkpoint's samples are shared over " +
                                std::to_string(c.ranks) + " ranks: resume it on " +
                                std::to_string(c.ranks) + " ranks, not " + std::to_string(ranks));
  // Shares of another sample count would hand the samples taken to the wrong ranks.
  if (ranks > 1 && c.samples != m.run.parameters.samples)
    throw std::invalid_argument("the checkpoint's run has " + std::to_string(c.samples) +
                                " samples shared over the ranks; this one asks for " +
                                std::to_string(m.run.parameters.samples));
  // This rank's slice of the gathered samples: the ranks before it took theirs first. A chain's
  // samples all live on rank 0.
  std::uint64_t first = 0, mine = 0;
  if (shared) {
    for (int r = 0; r < m.comm.rank(); ++r) first += c.rank_samples[static_cast<std::size_t>(r)];
    mine = c.rank_samples[static_cast<std::size_t>(m.comm.rank())];
  } else if (m.comm.is_root()) {
    mine = c.observable_values.size();
  }
  detail::Tally t;
  t.values = slice(c.observable_values, first, mine, "sample values");
  if (!c.cftp_horizons.empty()) {
    t.horizons = slice(c.cftp_horizons, first, mine, "coalescence horizons");
    t.steps = slice(c.cftp_steps, first, mine, "cftp step counts");
    t.passes = slice(c.cftp_passes, first, mine, "cftp pass counts");
  }
  // Counts are summed at the end: rank 0 carries those of the checkpoint.
  if (m.comm.is_root()) {
    t.counts = c.type_counts;
    t.samples = c.density_samples;
    t.configuration = c.configuration;
    t.heights = c.heights;
  }
  m.source->restore(c, mine);
  // A checkpoint is written only while work is left: a run with nothing left asked for fewer
  // samples than the checkpoint's run had taken.
  if (m.comm.max(std::uint64_t{m.source->done() ? 0u : 1u}) == 0)
    throw std::invalid_argument(
        "the checkpoint's run has taken " + std::to_string(c.observable_values.size()) +
        " samples; this run asks for " + std::to_string(m.run.parameters.samples));
  m.tally = std::move(t);
  m.units_done = c.units_done;
  m.seconds = c.seconds;
}

RunResults SamplingRun::results() {
  Impl& m = *impl_;
  RunResults r;
  const detail::Measures& measures = m.source->measures();
  r.observable = measures.observable;
  r.observable_description = measures.observable_description;
  r.type_names = measures.type_names;
  m.source->finish(r);
  r.seconds = m.seconds;
  const SamplingCheckpoint all = gathered_tally(m.tally, m.comm);
  if (!m.comm.is_root()) return r;
  r.observable_values = all.observable_values;
  r.cftp_horizons = all.cftp_horizons;
  r.cftp_steps = all.cftp_steps;
  r.cftp_passes = all.cftp_passes;
  r.configuration = all.configuration;
  r.heights = all.heights;
  r.density_samples = all.density_samples;
  const std::size_t cells = measures.rows * measures.cols;
  if (all.density_samples > 0) {
    for (std::size_t type = 0; type < measures.type_names.size(); ++type) {
      Grid<double> density{measures.rows, measures.cols, std::vector<double>(cells, 0.0)};
      if (all.type_counts.size() >= (type + 1) * cells) {
        for (std::size_t cell = 0; cell < cells; ++cell)
          density.values[cell] = static_cast<double>(all.type_counts[type * cells + cell]) /
                                 static_cast<double>(all.density_samples);
      }
      r.densities.push_back(std::move(density));
    }
  }
  return r;
}

}  // namespace portamc::tilings

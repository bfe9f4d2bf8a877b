#pragma once
// Internal to the run code: the samples of one run, one unit of work at a time
// (sampling_run.hpp says what a unit is). Each family of models has its sources
// (sample_sources_*.cpp); SamplingRun drives them and keeps their tally.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"
#include "portamc/tilings/run.hpp"
#include "portamc/tilings/sampling_run.hpp"

namespace portamc::tilings::detail {

/// What this rank's samples add up to so far.
struct Tally {
  std::vector<double> values;
  std::vector<std::uint64_t> horizons, steps, passes;  ///< cftp, per sample
  std::vector<std::uint64_t> counts;                   ///< type * cells + cell
  std::uint64_t samples = 0;                           ///< samples in `counts`
  Grid<std::uint8_t> configuration;                    ///< the run's last sample, once taken
  Grid<std::int32_t> heights;
  /// Adds the per-cell types of a sample: cell c holds type bytes[c] (none if >= types).
  void count_types(const std::vector<std::uint8_t>& bytes, int types);
};

/// The names and grid of what a family measures (RunResults' descriptive fields).
struct Measures {
  std::string observable, observable_description;
  std::vector<std::string> type_names;
  std::size_t rows = 0, cols = 0;  ///< the density grid (rows * cols cells)
};

class SampleSource {
 public:
  virtual ~SampleSource() = default;
  virtual const Measures& measures() const = 0;
  /// True when this rank has nothing left to do.
  virtual bool done() const = 0;
  /// This rank's share done, 0..1, and a short status.
  virtual double fraction_done() const = 0;
  virtual std::string status() const = 0;
  /// One unit of work (collective for chains; nothing once this rank is done): adds the
  /// samples it completes to `tally`.
  virtual void advance(Tally& tally) = 0;
  /// Samples shared out over ranks (cftp, shuffling): a checkpoint fits this rank count only.
  virtual bool shares_samples() const { return true; }
  /// Collective: adds the source's position (every rank's, gathered on rank 0) to `c`.
  virtual void save(SamplingCheckpoint& c) const = 0;
  /// Continues from `c`, where this rank had taken `taken` samples (every rank passes the
  /// same `c`). Throws std::invalid_argument for a position this run cannot continue.
  virtual void restore(const SamplingCheckpoint& c, std::uint64_t taken) = 0;
  /// Collective, at the end: fields of RunResults the source alone knows (glauber_steps,
  /// move_pairs).
  virtual void finish(RunResults&) {}
};

/// Status text "sample k/n" of a share of independent samples.
std::string share_status(std::uint64_t taken, std::uint64_t share, bool several_ranks);

/// Throws std::invalid_argument unless `taken` samples fit a share of `share` (a checkpoint of a
/// run with more samples).
void require_taken_fits(std::uint64_t taken, std::uint64_t share);

/// The source for `run` on execution space `space` over the ranks of `comm` (one per family
/// and mode). Instantiated in sources_*.cpp for every backend of the build.
template <class Space>
std::unique_ptr<SampleSource> make_domino_source(const Space& space, const PreparedRun& run,
                                                 const parallel::Communicator& comm);
template <class Space>
std::unique_ptr<SampleSource> make_lozenge_source(const Space& space, const PreparedRun& run,
                                                  const parallel::Communicator& comm);
template <class Space>
std::unique_ptr<SampleSource> make_bibone_source(const Space& space, const PreparedRun& run,
                                                 const parallel::Communicator& comm);
template <class Space>
std::unique_ptr<SampleSource> make_rect_triangle_source(const Space& space, const PreparedRun& run,
                                                        const parallel::Communicator& comm);
template <class Space>
std::unique_ptr<SampleSource> make_six_vertex_source(const Space& space, const PreparedRun& run,
                                                     const parallel::Communicator& comm);

/// Seed of the k-th CFTP (or shuffling) sample: independent streams per sample, all fixed by
/// the run's seed (splitmix64 of the pair, so that neighbouring seeds share no sample).
std::uint64_t cftp_sample_seed(std::uint64_t seed, std::int64_t k);

/// A slab chain's halo transport (parallel.halo_transport; one rank has no halos and ignores
/// it, as GlauberSampler does) and class order, from the input.
template <class Engine>
void configure_slab_chain(Engine& chain, const RunParameters& p) {
  if (chain.communicator().size() > 1 && p.halo_transport != parallel::HaloTransport::automatic)
    chain.set_halo_transport(p.halo_transport);
  chain.set_class_order(p.class_order);
}

/// A forward chain's samples: unit 0 thermalises, unit 1 + k takes sample k. `Chain` runs
/// sweeps, gives its state on rank 0 as the family's `State` and restores it; `Family`
/// measures a state into the tally (values, counts, and the read-out of the last sample).
template <class Chain, class Family>
class ChainSource final : public SampleSource {
 public:
  ChainSource(Chain chain, Family family, const RunParameters& p, bool root)
      : chain_(std::move(chain)), family_(std::move(family)), p_(p), root_(root) {}
  const Measures& measures() const override { return family_.measures(); }
  bool done() const override { return units_ >= 1 + p_.samples; }
  double fraction_done() const override {
    return static_cast<double>(units_) / static_cast<double>(1 + p_.samples);
  }
  std::string status() const override {
    if (units_ == 0) return "thermalising";
    return "sample " + std::to_string(units_ - 1) + "/" + std::to_string(p_.samples);
  }
  void advance(Tally& tally) override {
    if (done()) return;
    const std::int64_t unit = units_++;
    if (unit == 0) {
      chain_.run_sweeps(static_cast<std::uint64_t>(p_.thermalisation_sweeps));
      return;
    }
    chain_.run_sweeps(static_cast<std::uint64_t>(p_.sweeps_between_samples));
    const auto state = chain_.state_on_root();  // collective; empty off rank 0
    if (!root_) return;
    ++tally.samples;
    family_.add(state, unit == p_.samples, tally);
  }
  bool shares_samples() const override { return false; }
  void save(SamplingCheckpoint& c) const override {
    c.units_done = units_;
    c.chain_state = Family::to_ints(chain_.state_on_root());
    c.chain_steps = chain_.steps_done();
  }
  void restore(const SamplingCheckpoint& c, std::uint64_t) override {
    // A checkpoint is written only while work is left: this run must have work left too.
    if (c.units_done < 0 || c.units_done >= 1 + p_.samples)
      throw std::invalid_argument("the checkpoint's chain has taken " +
                                  std::to_string(std::max<std::int64_t>(c.units_done - 1, 0)) +
                                  " samples; this run asks for " + std::to_string(p_.samples));
    units_ = c.units_done;
    if (units_ > 0) chain_.restore(family_.from_ints(c.chain_state), c.chain_steps);
  }
  void finish(RunResults& r) override {
    r.glauber_steps = chain_.steps_done();
    r.move_pairs = chain_.move_pairs();
  }

 private:
  Chain chain_;
  Family family_;
  RunParameters p_;
  bool root_;
  std::int64_t units_ = 0;
};

}  // namespace portamc::tilings::detail

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
  /// Units of work of this rank in the whole run.
  virtual std::int64_t units() const = 0;
  /// Unit `unit` (0-based; collective for chains): adds its samples to `tally`.
  virtual void advance(std::int64_t unit, Tally& tally) = 0;
  /// Samples this rank has in its tally after `units_done` units (restore cuts the gathered
  /// tally by these).
  virtual std::uint64_t samples_after(std::int64_t units_done) const = 0;
  /// Samples shared out over ranks (cftp, shuffling): a checkpoint fits this rank count only.
  virtual bool shares_samples() const { return true; }
  /// Chains: the state (gathered on rank 0, empty elsewhere; collective) and step counter,
  /// and their restore (every rank passes the whole state).
  virtual std::vector<std::int32_t> chain_state() const { return {}; }
  virtual std::uint64_t chain_steps() const { return 0; }
  virtual void restore_chain(const std::vector<std::int32_t>&, std::uint64_t) {}
  /// Collective, at the end: fields of RunResults the source alone knows (glauber_steps,
  /// move_pairs).
  virtual void finish(RunResults&) {}
};

/// The source for `run` over the ranks of `comm` (one per family and mode).
std::unique_ptr<SampleSource> make_domino_source(const PreparedRun& run,
                                                 const parallel::Communicator& comm);
std::unique_ptr<SampleSource> make_lozenge_source(const PreparedRun& run,
                                                  const parallel::Communicator& comm);
std::unique_ptr<SampleSource> make_bibone_source(const PreparedRun& run,
                                                 const parallel::Communicator& comm);
std::unique_ptr<SampleSource> make_rect_triangle_source(const PreparedRun& run,
                                                        const parallel::Communicator& comm);
std::unique_ptr<SampleSource> make_six_vertex_source(const PreparedRun& run,
                                                     const parallel::Communicator& comm);

/// Seed of the k-th CFTP (or shuffling) sample: independent streams per sample, all fixed by
/// the run's seed (splitmix64 of the pair, so that neighbouring seeds share no sample).
std::uint64_t cftp_sample_seed(std::uint64_t seed, std::int64_t k);

/// A slab chain's halo transport (parallel.halo_transport) and class order, from the input.
template <class Engine>
void configure_slab_chain(Engine& chain, const RunParameters& p) {
  if (p.halo_transport != parallel::HaloTransport::automatic)
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
  std::int64_t units() const override { return 1 + p_.samples; }
  void advance(std::int64_t unit, Tally& tally) override {
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
  std::uint64_t samples_after(std::int64_t units_done) const override {
    return root_ && units_done > 0 ? static_cast<std::uint64_t>(units_done - 1) : 0;
  }
  bool shares_samples() const override { return false; }
  std::vector<std::int32_t> chain_state() const override {
    return Family::to_ints(chain_.state_on_root());
  }
  std::uint64_t chain_steps() const override { return chain_.steps_done(); }
  void restore_chain(const std::vector<std::int32_t>& state, std::uint64_t steps) override {
    chain_.restore(family_.from_ints(state), steps);
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
};

/// Independent samples shared out over the ranks: unit k takes the k-th sample of this rank's
/// share, sample j drawn by `take(j)` (which returns a CftpDraw) and measured by `Family`.
template <class Draw, class Family>
class IndependentSource final : public SampleSource {
 public:
  IndependentSource(Draw draw, Family family, const RunParameters& p,
                    const parallel::Communicator& comm)
      : draw_(std::move(draw)),
        family_(std::move(family)),
        samples_(p.samples),
        share_(parallel::share_of(static_cast<std::uint64_t>(p.samples), comm)) {}
  const Measures& measures() const override { return family_.measures(); }
  std::int64_t units() const override { return static_cast<std::int64_t>(share_.size()); }
  void advance(std::int64_t unit, Tally& tally) override {
    if (unit >= units()) return;  // this rank's share is done; others are not
    const auto j = static_cast<std::int64_t>(share_.begin) + unit;
    auto sample = draw_(j);
    if (sample.cftp) {
      tally.horizons.push_back(sample.horizon);
      tally.steps.push_back(sample.steps);
      tally.passes.push_back(sample.passes);
    }
    ++tally.samples;
    family_.add(sample.state, j + 1 == samples_, tally);
  }
  std::uint64_t samples_after(std::int64_t units_done) const override {
    return static_cast<std::uint64_t>(std::min<std::int64_t>(units_done, units()));
  }

 private:
  Draw draw_;
  Family family_;
  std::int64_t samples_;
  parallel::Share share_;
};

/// What a Draw returns: the sample and, for cftp, what coalescence took.
template <class State>
struct Drawn {
  State state;
  bool cftp = false;
  std::uint64_t horizon = 0, steps = 0, passes = 0;
};

}  // namespace portamc::tilings::detail

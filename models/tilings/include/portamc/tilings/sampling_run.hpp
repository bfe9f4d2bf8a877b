#pragma once
// A tilings run one unit of work at a time, so that the run protocol (run_protocol.hpp) can
// checkpoint it between units and resume it bit for bit:
//   glauber   unit 0 is the thermalisation, unit 1 + k takes sample k of the one chain (in row
//             slabs over several ranks: every rank takes part in every unit);
//   cftp      (dominoes, lozenges) a unit runs at most 4096 time slots of the sample under way
//             in each rank's share (sample j from its own seed cftp_sample_seed(seed, j));
//             (six-vertex) at most 4096 steps of all copies of a rank's share at once (they
//             share their passes);
//   shuffling unit k takes the k-th sample of each rank's share.
// A checkpoint holds the samples' values, the integer tile-type counts, the last sample once
// taken, a cftp pass under way with its chains and, for glauber, the chain's state and step
// counter: the random numbers of step t are keyed by (seed, t), so a chain restored at step t
// continues exactly as it would have.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"
#include "portamc/tilings/run.hpp"

namespace portamc::tilings {

/// What a checkpoint of a tilings run holds (tilings/checkpoint.cpp writes and reads it).
struct SamplingCheckpoint {
  std::string fingerprint;      ///< everything that shapes the samples (sampling_fingerprint)
  std::int64_t ranks = 1;       ///< cftp and shuffling: the ranks the samples are shared over
  std::int64_t samples = 0;     ///< the run's samples (a glauber chain may be continued further)
  std::int64_t units_done = 0;  ///< units of work rank 0 completed (glauber: every rank)
  double seconds = 0;           ///< wall time of those units (rank 0's)
  std::vector<std::uint64_t> rank_samples;  ///< samples each rank has taken (ranks in order)
  /// The samples taken, in sample order of each rank, ranks in order (gathered).
  std::vector<double> observable_values;
  std::vector<std::uint64_t> cftp_horizons, cftp_steps, cftp_passes;
  std::vector<std::uint64_t> type_counts;  ///< type * cells + cell, summed over the ranks
  std::uint64_t density_samples = 0;
  Grid<std::uint8_t> configuration;  ///< the last sample, once taken (else empty)
  Grid<std::int32_t> heights;
  /// cftp, ranks in order. Dominoes and lozenges: each rank's sample under way (CftpPass:
  /// horizon, next_slot, met, passes, steps_run; 5 numbers per rank, horizon 0 for none) and
  /// its two chains in cftp_chains (upper then lower bytes; 2 cells per rank, zeros for none).
  /// Six-vertex: each rank's pass (horizon, next_step, passes, steps_run, then the coalescence
  /// horizon of each of its copies) and all its chains' heights in cftp_heights (top chains,
  /// then bottom chains; zeros before the first pass).
  std::vector<std::uint64_t> cftp_pass;
  std::vector<std::uint8_t> cftp_chains;
  std::vector<std::int32_t> cftp_heights;
  /// glauber: the chain's whole state (bytes, or six-vertex heights) and its step counter.
  std::vector<std::int32_t> chain_state;
  std::uint64_t chain_steps = 0;
};

/// The parameters of `run` that shape its samples, as text: a checkpoint is resumed only by a
/// run with the same fingerprint (samples and rank count are checked apart, with clearer words).
std::string sampling_fingerprint(const PreparedRun& run);

class SamplingRun {
 public:
  /// Collective. Builds the sampler of `run` over the ranks of `comm` (check_ranks first); its
  /// kernels run on the execution space instance `space` (any backend of the build, e.g.
  /// Kokkos::Serial(); instantiated in sampling_run.cpp via PORTAMC_FOR_EACH_SPACE). To pick
  /// the backend by name: portamc::with_backend(name, [&](auto space) {...}).
  template <class Space>
  SamplingRun(const Space& space, const PreparedRun& run, const parallel::Communicator& comm);
  ~SamplingRun();
  SamplingRun(const SamplingRun&) = delete;
  SamplingRun& operator=(const SamplingRun&) = delete;

  /// One unit of work (collective; nothing on a rank whose share is done).
  void advance();
  /// True when this rank has nothing left (the protocol asks every rank).
  bool done() const;
  /// This rank's share of its units done, 0..1.
  double fraction_done() const;
  std::string status() const;

  /// Collective: the state so far, complete on rank 0.
  SamplingCheckpoint checkpoint() const;
  /// Collective: continues from `c` (every rank passes the same). Throws std::invalid_argument
  /// when `c` is not a state of this run on this many ranks.
  void restore(const SamplingCheckpoint& c);

  /// Collective, once done() on every rank: the results, complete on rank 0.
  RunResults results();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Writes `c` as the checkpoint `path` of portamc-tilings (rank 0; committed atomically).
void write_checkpoint(const std::string& path, const SamplingCheckpoint& c,
                      const std::string& config_yaml);
/// Reads and verifies a checkpoint (checksum, sizes, ranges); h5::BadCheckpoint otherwise.
SamplingCheckpoint read_checkpoint(const std::string& path);

}  // namespace portamc::tilings

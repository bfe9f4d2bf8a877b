#pragma once
// The run protocol: one loop, in core, that every app's run goes through, so that progress,
// checkpoints, interruption, resume and the output commit behave the same in every app.
//
// An app describes its run as a RunDriver (a model run cut into units of work that can be
// saved and restored) and calls app::run_protocol. The protocol then, in this order:
//   1. checks every file the run reads and writes (check_run_files) and locks the checkpoint;
//   2. makes the driver (bad parameters: exit 2 on every rank) and starts it or, with --resume,
//      restores it from the checkpoint (an unusable file: exit 2);
//   3. advances the driver one unit at a time, with a progress/ETA line, until it is done:
//      - every `checkpoint.every` seconds of rank 0's clock it saves a checkpoint;
//      - on SIGINT/SIGTERM (on any rank), or after `checkpoint.stop_after` units of this
//        process, it saves a checkpoint and returns exit code 3;
//      each unit ends with one agreement of all ranks, so every rank stops at the same unit;
//   4. lets the driver finish (collective), then rank 0 analyses, writes the output (provenance,
//      the resolved configuration and the driver's results, committed atomically) and the
//      driver's other files, removes the checkpoint and prints the summary.
// A write error (a full disk) in a checkpoint or the output ends the run with exit code 1 and
// leaves the earlier file untouched (hdf5_file.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "portamc/app.hpp"

namespace portamc::app {

/// A model's run as the protocol drives it. "Collective": called on every rank at once.
class RunDriver {
 public:
  virtual ~RunDriver() = default;
  /// One unit of work (a step, a block of steps, a kernel launch, a sample). Collective.
  virtual void advance() = 0;
  /// True once the work is complete: the same on every rank after each advance().
  virtual bool done() const = 0;
  /// The share of the work done, 0..1 (progress and ETA; rank 0's value is shown).
  virtual double fraction_done() const = 0;
  /// A short status for the progress line.
  virtual std::string status() const { return {}; }
  /// Sets up the start of a new run (not called when resuming). Collective; std::invalid_argument
  /// or BadInput: exit 2 on every rank.
  virtual void start() {}
  /// Continues from the checkpoint at `path`: every rank reads it. Throws std::invalid_argument
  /// (h5::BadCheckpoint) for a file this run cannot continue. Collective.
  virtual void resume(const std::string& path) = 0;
  /// Writes the current state to `path` (gathered: rank 0 writes). Collective.
  virtual void save(const std::string& path, const std::string& config_yaml) = 0;
  /// After done(): the collective work before the results are written (gathers). Collective.
  virtual void finish() {}
  /// Rank 0, after finish(): the analysis. Warnings go to stderr here, even with --quiet.
  virtual void analyse() {}
  /// Rank 0: the results, into the output's root group (provenance and /config are written).
  virtual void write_results(h5::Group root) = 0;
  /// Rank 0, after the output is committed: further files of the run (plan.also_written).
  virtual void write_other_files() {}
  /// Rank 0, without --quiet: the summary on stdout.
  virtual void print_summary() const {}
};

/// Where and how often a run saves its state (the checkpoint.* keys).
struct Checkpointing {
  std::string file;          ///< the checkpoint path
  double every_seconds = 0;  ///< save when this much time has passed since the last; 0: never
  long long stop_after = 0;  ///< save and stop (exit 3) after this many units; 0: never
};

/// What the protocol needs to know of a run besides its driver.
struct RunPlan {
  std::string label;  ///< the progress line's label
  std::string output;
  Checkpointing checkpoint;
  std::uint64_t seed = 0;  ///< recorded in the output's provenance
  /// Further files the run writes or reads (checked with the output and the checkpoint).
  std::vector<NamedFile> also_written, also_read;
  /// Appended to the "continue with --resume" message, e.g. "on any number of ranks".
  std::string resume_note;
};

/// Adds checkpoint.file, checkpoint.every (seconds) and checkpoint.stop_after to `schema`;
/// `unit` names one unit of work of this app ("MC step or measurement").
void add_checkpoint_keys(config::Schema& schema, const std::string& unit);

/// The output path (-o, else output.file) and the checkpoint.* keys of the configuration.
RunPlan plan_run(const Context& context, const std::string& label, std::uint64_t seed);
RunPlan plan_run(const config::Config& config, const Options& options, const std::string& label,
                 std::uint64_t seed);

/// Checks the output and the checkpoint file of a run (plan_run's paths) as check_run_files does,
/// on this process alone, when the schema has the output.file and checkpoint.file keys, and
/// that a --resume file exists and is a non-empty regular file (h5::require_resumable_file).
/// Throws BadInput naming the file and the rule it breaks. app::main calls it before MPI and
/// Kokkos start, so that a refused path answers at once whatever the host's load; the run checks
/// every file it writes again, collectively, once planned.
void check_output_files_early(const config::Schema& schema, const config::Config& config,
                              const Options& options);

/// Runs the protocol above and returns the exit code. `make` creates the driver (collective;
/// std::invalid_argument or BadInput: exit 2 on every rank).
int run_protocol(const Context& context, const RunPlan& plan,
                 const std::function<std::unique_ptr<RunDriver>()>& make);

}  // namespace portamc::app

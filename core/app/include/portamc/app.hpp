#pragma once
// Scaffolding shared by every portamc app, so that an app is its schema, a mapping
// from configuration to model parameters, and its run loop:
//   --help, --version, --dry-run, --set key=value, -o/--output, --resume, --quiet, --backend;
//   Kokkos initialisation (--kokkos-* options pass through) and a device report;
//   input validated and the output path checked before any work starts;
//   distinct exit codes; SIGINT/SIGTERM turn into a clean stop the run loop can poll;
//   MPI (when built with it) initialised around Kokkos, one GPU per rank.
//
// Several ranks (mpiexec -n R). Every rank parses the same command line and file, so a bad
// input is found on every rank and all exit with code 2; messages, --help, --version and
// --dry-run print on rank 0 only. Errors that only some ranks might meet inside `run` go
// through collective_check, which lets every rank exit with the same code; any other
// exception escaping `run` on a rank ends all ranks (MPI_Abort with its exit code) instead of
// leaving them waiting in a collective. Only rank 0 writes the result file and the checkpoint
// (check_run_files, lock_checkpoint).
#include <functional>
#include <string>
#include <vector>

#include "portamc/config.hpp"
#include "portamc/device_info.hpp"
#include "portamc/hdf5_file.hpp"
#include "portamc/parallel.hpp"
#include "portamc/run_files.hpp"

namespace portamc::app {

enum ExitCode : int {
  exit_ok = 0,
  exit_runtime_failure = 1,  ///< the run started and failed (device error, I/O error, ...)
  exit_bad_input = 2,        ///< usage, configuration or parameters rejected before any work
  exit_interrupted = 3,      ///< stopped by a signal after writing a checkpoint
};

/// Thrown by an app's run function for inputs only detectable after parsing (e.g. a
/// lattice too large for the device): reported like configuration errors, exit code 2.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Thrown on every rank at once by collective_check: each rank returns `code`, rank 0 prints.
struct AgreedFailure : std::runtime_error {
  AgreedFailure(ExitCode exit_code, const std::string& message)
      : std::runtime_error(message), code(exit_code) {}
  ExitCode code;
};

struct Options {
  std::string input;                   ///< YAML file; empty = defaults only
  std::vector<std::string> overrides;  ///< --set key=value, in order
  std::string output;                  ///< -o; empty = the app's configured default
  std::string resume;                  ///< --resume checkpoint file
  bool dry_run = false;
  bool quiet = false;
  bool force = false;  ///< --force: a written file that is a symbolic link may be replaced
  /// --backend: the execution space the run uses (portamc/backends.hpp, e.g. "openmp"); after
  /// parsing, the default execution space's name when the flag was not given.
  std::string backend;
};

struct Context {
  const config::Config& config;
  const Options& options;
  DeviceInfo device;  ///< the backend the run uses (options.backend)
  std::string command_line;
  /// The ranks of this run (one rank without MPI or without mpiexec).
  parallel::Communicator comm;
  /// Rank 0 prints messages and writes the result file.
  bool is_root() const { return comm.is_root(); }
  /// Provenance for an output file with this run's seed.
  h5::Provenance provenance(std::uint64_t seed) const;
};

struct Description {
  std::string name;     ///< executable name, e.g. "portamc-muca"
  std::string summary;  ///< one line
  std::string example;  ///< an example command line for --help
};

/// Runs an app: parses the command line, loads and validates the configuration, prints it
/// for --dry-run, initialises Kokkos and calls `run`. Returns the process exit code.
int main(int argc, char** argv, const Description& description, const config::Schema& schema,
         const std::function<int(const Context&)>& run);

/// True once SIGINT or SIGTERM arrived; run loops poll it between units of work.
bool stop_requested();
/// True on every rank once SIGINT or SIGTERM reached any rank (collective: every rank polls
/// at the same point of its loop, so all stop at the same unit of work).
bool stop_requested(const parallel::Communicator& comm);

/// Runs `check` on every rank (or on rank 0 only) and agrees on the outcome: if it threw on
/// any rank, every rank throws AgreedFailure with the message of the lowest failing rank and
/// exit code 2 for BadInput / std::invalid_argument, 1 otherwise. Collective.
void collective_check(const Context& context, const std::function<void()>& check,
                      bool root_only = false);

/// Checks on rank 0, before any work, every file the run writes (`written`: output,
/// checkpoint, ...) against each other, the input and the --resume file, and that each can be
/// created (portamc/run_files.hpp states the rules); every rank throws AgreedFailure (exit code
/// 2) if not. Collective.
void check_run_files(const Context& context, const std::vector<NamedFile>& written,
                     const std::vector<NamedFile>& read = {});
/// The same checks on this process alone; throws BadInput naming the file and the rule.
void check_run_files_here(const RunFiles& files);
/// Locks the checkpoint file on rank 0, which alone writes it, for as long as the returned
/// lock lives; every rank throws AgreedFailure (exit code 2) when another run holds it.
/// Collective.
FileLock lock_checkpoint(const Context& context, const std::string& path);
/// For apps that do not distribute their work over ranks yet: with more than one rank every
/// rank throws AgreedFailure (exit code 2) saying so; `pending` names the missing piece.
void require_single_rank(const Context& context, const std::string& app_name,
                         const std::string& pending);

/// A one-line progress/ETA report on stderr, refreshed at most twice a second, only when
/// stderr is a terminal (or PORTAMC_PROGRESS=1) and the app is not --quiet.
class Progress {
 public:
  Progress(std::string label, bool enabled);
  /// `fraction` of the work done (0..1), and a short status text.
  void update(double fraction, const std::string& status = "");
  void finish();
  ~Progress();

 private:
  std::string label_;
  bool enabled_;
  double start_;
  double last_print_ = -1;
  double first_fraction_ = -1;
  bool printed_ = false;
};

/// Seconds since an arbitrary fixed point (steady clock).
double now_seconds();

}  // namespace portamc::app

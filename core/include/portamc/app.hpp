#pragma once
// Scaffolding shared by every portamc app, so that an app is its schema, a mapping
// from configuration to model parameters, and its run loop:
//   --help, --version, --dry-run, --set key=value, -o/--output, --resume, --quiet;
//   Kokkos initialisation (--kokkos-* options pass through) and a device report;
//   input validated and the output path checked before any work starts;
//   distinct exit codes; SIGINT/SIGTERM turn into a clean stop the run loop can poll.
#include <functional>
#include <string>
#include <vector>

#include "portamc/config.hpp"
#include "portamc/device_info.hpp"
#include "portamc/hdf5_file.hpp"

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

struct Options {
  std::string input;                   ///< YAML file; empty = defaults only
  std::vector<std::string> overrides;  ///< --set key=value, in order
  std::string output;                  ///< -o; empty = the app's configured default
  std::string resume;                  ///< --resume checkpoint file
  bool dry_run = false;
  bool quiet = false;
};

struct Context {
  const config::Config& config;
  const Options& options;
  DeviceInfo device;
  std::string command_line;
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
  bool printed_ = false;
};

/// Seconds since an arbitrary fixed point (steady clock).
double now_seconds();

}  // namespace portamc::app

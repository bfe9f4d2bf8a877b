#include "portamc/app.hpp"

#include <unistd.h>
#include <Kokkos_Core.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "portamc/backends.hpp"
#include "portamc/parallel_environment.hpp"
#include "portamc/run_protocol.hpp"
#include "portamc/version.hpp"

namespace portamc::app {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) {
  g_stop.store(true);
}

std::string backend_list() {
  std::string list;
  for (const std::string& name : enabled_backends()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

void print_help(const Description& d, const config::Schema& schema) {
  std::cout << d.name << " — " << d.summary << "\n\n"
            << "Usage: " << d.name << " [options] [input.yaml]\n\n"
            << "Options:\n"
            << "  -h, --help            show this help and the configuration keys\n"
            << "      --version         print version, git hash and Kokkos configuration\n"
            << "      --dry-run         validate the input and print the resolved configuration\n"
            << "      --set KEY=VALUE   override one configuration key (repeatable)\n"
            << "  -o, --output FILE     HDF5 output file (overrides output.file)\n"
            << "      --resume FILE     continue from a checkpoint written by an earlier run\n"
            << "  -q, --quiet           no progress line and no summary\n"
            << "      --force           replace a written file that is a symbolic link\n"
            << "      --backend NAME    run on this execution space: " << backend_list()
            << " (default " << default_backend() << ")\n"
            << "      --kokkos-...      options passed to Kokkos (e.g. --kokkos-num-threads=8)\n\n"
            << "Exit codes: 0 success, 1 runtime failure, 2 bad input, 3 interrupted "
               "(checkpoint written)\n\n"
            << "Example: " << d.example << "\n\nConfiguration keys:\n\n"
            << schema.reference_markdown() << "\n";
}

// Returns true when the arguments are complete; prints the problem otherwise.
bool parse_arguments(const std::vector<std::string>& args, Options& opt, bool& help, bool& version,
                     const std::string& name, std::ostream& err) {
  auto need_value = [&](std::size_t& i, const std::string& flag, std::string& out) {
    if (i + 1 >= args.size()) {
      err << name << ": " << flag << " needs a value\n";
      return false;
    }
    out = args[++i];
    return true;
  };
  // An empty file name would silently mean "the configured default": refuse it instead.
  auto file_name = [&](const std::string& flag, const std::string& value, std::string& out) {
    if (value.empty()) {
      err << name << ": " << flag << " needs a file name, not an empty string\n";
      return false;
    }
    out = value;
    return true;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string value;
    if (a == "-h" || a == "--help") {
      help = true;
    } else if (a == "--version") {
      version = true;
    } else if (a == "--dry-run") {
      opt.dry_run = true;
    } else if (a == "-q" || a == "--quiet") {
      opt.quiet = true;
    } else if (a == "--force") {
      opt.force = true;
    } else if (a == "--set") {
      if (!need_value(i, a, value)) return false;
      opt.overrides.push_back(value);
    } else if (a.rfind("--set=", 0) == 0) {
      opt.overrides.push_back(a.substr(6));
    } else if (a == "-o" || a == "--output") {
      if (!need_value(i, a, value) || !file_name(a, value, opt.output)) return false;
    } else if (a.rfind("--output=", 0) == 0) {
      if (!file_name("--output", a.substr(9), opt.output)) return false;
    } else if (a == "--backend" || a.rfind("--backend=", 0) == 0) {
      if (a == "--backend") {
        if (!need_value(i, a, value)) return false;
      } else {
        value = a.substr(10);
      }
      if (!backend_enabled(value)) {
        err << name << ": --backend '" << value << "' is not a backend of this build (it has "
            << backend_list() << ")\n";
        return false;
      }
      opt.backend = value;
    } else if (a == "--resume") {
      if (!need_value(i, a, value) || !file_name(a, value, opt.resume)) return false;
    } else if (a.rfind("--resume=", 0) == 0) {
      if (!file_name("--resume", a.substr(9), opt.resume)) return false;
    } else if (a.empty()) {
      err << name << ": an empty argument where the input file was expected\n";
      return false;
    } else if (a[0] == '-') {
      err << name << ": unknown option '" << a << "' (see --help)\n";
      return false;
    } else if (opt.input.empty()) {
      opt.input = a;
    } else {
      err << name << ": more than one input file given ('" << opt.input << "' and '" << a << "')\n";
      return false;
    }
  }
  return true;
}

// Where the messages of ranks other than 0 go.
std::ostream& null_stream() {
  static std::ostream discard(nullptr);
  return discard;
}

std::string join_command_line(int argc, char** argv) {
  std::ostringstream s;
  for (int i = 0; i < argc; ++i) s << (i ? " " : "") << argv[i];
  return s.str();
}

}  // namespace

h5::Provenance Context::provenance(std::uint64_t seed) const {
  h5::Provenance p;
  p.software = "portamc";
  p.version = version_string;
  p.git_hash = git_hash;
  p.kokkos_version = device.kokkos_version;
  p.backend = device.backend;
  p.device = device.device;
  p.host = h5::hostname();
  p.date = h5::now_iso8601();
  p.command_line = command_line;
  p.seed = seed;
  return p;
}

bool stop_requested() {
  return g_stop.load();
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {

// The body of main once MPI is up: every rank runs it; only rank 0 prints.
int run_app(parallel::Environment& environment, int argc, char** argv,
            const Description& description, const config::Schema& schema,
            const std::function<int(const Context&)>& run) {
  const bool root = parallel::Environment::launcher_rank() == 0;
  // Other ranks print nothing of their own: their messages would only repeat rank 0's.
  std::ostream& err = root ? std::cerr : null_stream();
  std::ostream& out = root ? std::cout : null_stream();
  const std::string command_line = join_command_line(argc, argv);
  // Kokkos consumes its own --kokkos-* arguments; everything else is ours.
  std::vector<std::string> ours;
  std::vector<std::string> kokkos_args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--kokkos-", 0) == 0)
      kokkos_args.push_back(a);
    else
      ours.push_back(a);
  }
  Options options;
  bool help = false, version = false;
  if (!parse_arguments(ours, options, help, version, description.name, err)) return exit_bad_input;
  if (options.backend.empty()) options.backend = default_backend();
  if (help) {
    if (root) print_help(description, schema);
    return exit_ok;
  }

  std::optional<config::Config> cfg;
  try {
    cfg = options.input.empty() ? config::load_string(schema, "", "<defaults>", options.overrides)
                                : config::load_file(schema, options.input, options.overrides);
  } catch (const config::ConfigError& e) {
    if (!version) {
      err << description.name << ": invalid input\n" << e.what() << "\n";
      return exit_bad_input;
    }
  }
  if (options.dry_run && !version) {
    out << "# " << description.name << " resolved configuration\n" << cfg->to_yaml(true);
    return exit_ok;
  }

  if (!version) environment.initialize_mpi(argc, argv);
  const parallel::Communicator comm = environment.world();
  // From here the communicator, not the launcher's variables, says who is rank 0.
  std::ostream& log = comm.is_root() ? std::cerr : null_stream();
  if (!version) {
    // Before Kokkos starts (seconds on a busy host): a refused output path, or a --resume file
    // that is missing or empty, answers at once.
    // Rank 0 checks, as the run's own check does, and every rank learns its verdict.
    std::string refusal;
    if (comm.is_root()) {
      try {
        check_output_files_early(schema, *cfg, options);
      } catch (const BadInput& e) {
        refusal = e.what();
      }
    }
    comm.broadcast(refusal, 0);
    if (!refusal.empty()) {
      log << description.name << ": invalid input\n" << refusal << "\n";
      return exit_bad_input;
    }
  }
  try {
    environment.initialize_kokkos(kokkos_args);
  } catch (const std::runtime_error& e) {  // a GPU build on a machine without the GPU
    log << description.name << ": " << e.what() << "\n";
    return exit_runtime_failure;
  }
  if (version) {
    // The build's default, whatever --backend says: --version describes the build.
    const DeviceInfo build_default = default_device_info();
    out << description.name << " " << version_string << " (git " << git_hash << ")\n"
        << "Kokkos " << build_default.kokkos_version << ", default execution space "
        << build_default.backend << " on " << build_default.device << ", backends "
        << backend_list() << (parallel::have_mpi ? ", MPI" : ", without MPI") << "\n";
    return exit_ok;
  }
  const DeviceInfo device = device_info(options.backend);
  if (!options.quiet) {
    log << description.name << " " << version_string << ": " << device.backend << " on "
        << device.device << " (Kokkos " << device.kokkos_version << ")";
    if (comm.size() > 1) log << ", " << comm.size() << " MPI ranks";
    log << "\n";
  }

  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  // A file-size limit (ulimit -f) would kill the process with SIGXFSZ in the middle of a write;
  // ignored, the write fails with EFBIG and the run reports it like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
  const Context context{*cfg, options, device, command_line, comm};
  // With several ranks an exception on one rank may leave the others in a collective: such
  // a failure ends every rank (Environment::abort) after this rank reported it.
  const auto fail = [&](ExitCode code, const char* what, const std::exception& e) {
    std::ostream& to = comm.size() > 1 ? std::cerr : log;
    to << description.name << ": ";
    if (comm.size() > 1) to << "rank " << comm.rank() << ": ";
    to << what << e.what() << "\n";
    if (comm.size() > 1) environment.abort(code);
    return static_cast<int>(code);
  };
  try {
    return run(context);
  } catch (const AgreedFailure& e) {
    log << description.name << ": "
        << (e.code == exit_bad_input ? "invalid input\n" : "run failed: ") << e.what() << "\n";
    return e.code;
  } catch (const BadInput& e) {
    return fail(exit_bad_input, "invalid input\n", e);
  } catch (const std::invalid_argument& e) {
    return fail(exit_bad_input, "invalid input\n", e);
  } catch (const std::exception& e) {
    return fail(exit_runtime_failure, "run failed: ", e);
  }
}

}  // namespace

int main(int argc, char** argv, const Description& description, const config::Schema& schema,
         const std::function<int(const Context&)>& run) {
  // MPI (once the input is valid) before Kokkos, and both finalised by the environment's
  // destructor in the opposite order, on every path.
  parallel::Environment environment;
  return run_app(environment, argc, argv, description, schema, run);
}

bool stop_requested(const parallel::Communicator& comm) {
  return comm.max(std::uint64_t{g_stop.load() ? 1u : 0u}) != 0;
}

void collective_check(const Context& context, const std::function<void()>& check, bool root_only) {
  const parallel::Communicator& comm = context.comm;
  std::string message;
  std::uint64_t code = 0;
  if (!root_only || comm.is_root()) {
    try {
      check();
    } catch (const AgreedFailure& e) {
      message = e.what();
      code = e.code;
    } catch (const BadInput& e) {
      message = e.what();
      code = exit_bad_input;
    } catch (const std::invalid_argument& e) {
      message = e.what();
      code = exit_bad_input;
    } catch (const std::exception& e) {
      message = e.what();
      code = exit_runtime_failure;
    }
  }
  // The lowest failing rank speaks for all: max over ranks of (size - rank) where failed.
  const auto size = static_cast<std::uint64_t>(comm.size());
  const std::uint64_t speaker =
      comm.max(code != 0 ? size - static_cast<std::uint64_t>(comm.rank()) : 0);
  if (speaker == 0) return;
  const int from = static_cast<int>(size - speaker);
  // The exit code travels as the first character of the message (codes are 1 and 2).
  std::string coded = std::to_string(code) + message;
  comm.broadcast(coded, from);
  message = coded.substr(1);
  if (from != 0) message = "(rank " + std::to_string(from) + ") " + message;
  throw AgreedFailure(static_cast<ExitCode>(coded[0] - '0'), message);
}

void check_run_files_here(const RunFiles& files) {
  try {
    check_run_files(files);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  for (const NamedFile& f : files.written) {
    if (f.path.empty()) continue;
    try {
      h5::check_writable(f.path);
    } catch (const std::runtime_error& e) {
      throw BadInput(f.role + ": " + e.what());
    }
  }
}

void check_run_files(const Context& context, const std::vector<NamedFile>& written,
                     const std::vector<NamedFile>& read) {
  collective_check(
      context,
      [&] {
        check_run_files_here(RunFiles{context.options.input, context.options.resume, written, read,
                                      context.options.force});
      },
      true);
}

FileLock lock_checkpoint(const Context& context, const std::string& path) {
  FileLock lock;
  collective_check(
      context, [&] { lock = FileLock(path, "checkpoint file"); }, true);
  return lock;
}

void require_single_rank(const Context& context, const std::string& app_name,
                         const std::string& pending) {
  if (context.comm.size() == 1) return;
  throw AgreedFailure(exit_bad_input,
                      app_name + " does not distribute its work over MPI ranks yet (" + pending +
                          ": pending work of issue #7); it was started on " +
                          std::to_string(context.comm.size()) +
                          " ranks: run it on one rank (without mpiexec, or mpiexec -n 1)");
}

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)), start_(now_seconds()) {
  const char* env = std::getenv("PORTAMC_PROGRESS");
  enabled_ = enabled && ((env != nullptr && std::string(env) == "1") || isatty(fileno(stderr)));
}

void Progress::update(double fraction, const std::string& status) {
  if (!enabled_) return;
  const double t = now_seconds();
  if (last_print_ >= 0 && t - last_print_ < 0.5) return;
  last_print_ = t;
  const double elapsed = t - start_;
  // A resumed run starts part-way: its rate is measured from where this process began.
  if (first_fraction_ < 0) first_fraction_ = fraction;
  const double done_here = fraction - first_fraction_;
  char eta[32] = "--";
  if (done_here > 0.01 && fraction < 1)
    std::snprintf(eta, sizeof eta, "%.0fs", elapsed * (1 - fraction) / done_here);
  std::fprintf(stderr, "\r%s %5.1f%% elapsed %.0fs ETA %s %s\033[K", label_.c_str(), 100 * fraction,
               elapsed, eta, status.c_str());
  std::fflush(stderr);
  printed_ = true;
}

void Progress::finish() {
  if (printed_) std::fprintf(stderr, "\r\033[K");
  printed_ = false;
}

Progress::~Progress() {
  finish();
}

}  // namespace portamc::app

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

#include "portamc/version.hpp"

namespace portamc::app {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) {
  g_stop.store(true);
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
            << "      --kokkos-...      options passed to Kokkos (e.g. --kokkos-num-threads=8)\n\n"
            << "Exit codes: 0 success, 1 runtime failure, 2 bad input, 3 interrupted "
               "(checkpoint written)\n\n"
            << "Example: " << d.example << "\n\nConfiguration keys:\n\n"
            << schema.reference_markdown() << "\n";
}

// Returns true when the arguments are complete; prints the problem otherwise.
bool parse_arguments(const std::vector<std::string>& args, Options& opt, bool& help, bool& version,
                     const std::string& name) {
  auto need_value = [&](std::size_t& i, const std::string& flag, std::string& out) {
    if (i + 1 >= args.size()) {
      std::cerr << name << ": " << flag << " needs a value\n";
      return false;
    }
    out = args[++i];
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
    } else if (a == "--set") {
      if (!need_value(i, a, value)) return false;
      opt.overrides.push_back(value);
    } else if (a.rfind("--set=", 0) == 0) {
      opt.overrides.push_back(a.substr(6));
    } else if (a == "-o" || a == "--output") {
      if (!need_value(i, a, opt.output)) return false;
    } else if (a.rfind("--output=", 0) == 0) {
      opt.output = a.substr(9);
    } else if (a == "--resume") {
      if (!need_value(i, a, opt.resume)) return false;
    } else if (a.rfind("--resume=", 0) == 0) {
      opt.resume = a.substr(9);
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << name << ": unknown option '" << a << "' (see --help)\n";
      return false;
    } else if (opt.input.empty()) {
      opt.input = a;
    } else {
      std::cerr << name << ": more than one input file given ('" << opt.input << "' and '" << a
                << "')\n";
      return false;
    }
  }
  return true;
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

int main(int argc, char** argv, const Description& description, const config::Schema& schema,
         const std::function<int(const Context&)>& run) {
  const std::string command_line = join_command_line(argc, argv);
  // Kokkos consumes its own --kokkos-* arguments; everything else is ours.
  std::vector<std::string> ours;
  std::vector<char*> kokkos_args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--kokkos-", 0) == 0)
      kokkos_args.push_back(argv[i]);
    else
      ours.push_back(a);
  }
  Options options;
  bool help = false, version = false;
  if (!parse_arguments(ours, options, help, version, description.name)) return exit_bad_input;
  if (help) {
    print_help(description, schema);
    return exit_ok;
  }

  std::optional<config::Config> cfg;
  try {
    cfg = options.input.empty() ? config::load_string(schema, "", "<defaults>", options.overrides)
                                : config::load_file(schema, options.input, options.overrides);
  } catch (const config::ConfigError& e) {
    if (!version) {
      std::cerr << description.name << ": invalid input\n" << e.what() << "\n";
      return exit_bad_input;
    }
  }
  if (options.dry_run && !version) {
    std::cout << "# " << description.name << " resolved configuration\n" << cfg->to_yaml(true);
    return exit_ok;
  }

  int kokkos_argc = static_cast<int>(kokkos_args.size());
  Kokkos::ScopeGuard kokkos(kokkos_argc, kokkos_args.data());
  const DeviceInfo device = default_device_info();
  if (version) {
    std::cout << description.name << " " << version_string << " (git " << git_hash << ")\n"
              << "Kokkos " << device.kokkos_version << ", default execution space "
              << device.backend << " on " << device.device << "\n";
    return exit_ok;
  }
  if (!options.quiet)
    std::cerr << description.name << " " << version_string << ": " << device.backend << " on "
              << device.device << " (Kokkos " << device.kokkos_version << ")\n";

  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  const Context context{*cfg, options, device, command_line};
  try {
    return run(context);
  } catch (const BadInput& e) {
    std::cerr << description.name << ": invalid input\n" << e.what() << "\n";
    return exit_bad_input;
  } catch (const std::invalid_argument& e) {
    std::cerr << description.name << ": invalid input\n" << e.what() << "\n";
    return exit_bad_input;
  } catch (const std::exception& e) {
    std::cerr << description.name << ": run failed: " << e.what() << "\n";
    return exit_runtime_failure;
  }
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
  char eta[32] = "--";
  if (fraction > 0.01 && fraction < 1)
    std::snprintf(eta, sizeof eta, "%.0fs", elapsed * (1 - fraction) / fraction);
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

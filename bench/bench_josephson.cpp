// Benchmark of the Josephson Langevin ensembles on the backend this binary was built for.
//
// One table of integration steps per second (all realisations together, random numbers
// included): the ensemble with Euler and Heun steps in float and double, with the refill
// schedule (slots take the next realisation as soon as theirs ends) and with one realisation
// per thread (static), and the paper's Algorithm 1 as written (plain_kernel.hpp: one
// realisation per thread, Euler, one Box–Muller normal per step from its own Philox block per
// pair) in float and double. "x plain" is the rate over the plain kernel's in the same
// precision and workload, measured in the same run.
//
// Workloads (normalised units, the reference set):
//   scattered  gamma = 0.5, beta = 0.05, V0 = 1, theta = 0.2 (D = beta theta = 0.01),
//              h = 0.004, cap 2e5 steps: escapes at scattered times (mean ~7e4 steps),
//              ~15% censored.
//   to-cap     the same at theta = 0.1 (D = 0.005): most realisations run to the cap.
//   ramp       switching currents: gamma(t) = 0.5 + nu t with nu = 7.8e-4, reaching 1 after
//              ~1.6e5 steps, theta = 0.2, cap 2e5 (refill schedule only; the plain kernel
//              has a constant bias).
// A step counts once per realisation and time step (idle slots count nothing): steps/s =
// steps integrated / wall time of the whole run, tail included. Each configuration runs once
// on a small ensemble first (warm-up), then once timed.
//
// Usage: bench_josephson [--quick] [--diagnose] [--workload W] [--realisations N] [--cap K]
//                       [--loop L] [--precision float|double|both] [--noise same|float|both]
// --workload: only scattered, to-cap or ramp.
// --loop: the advance kernel's loop (AdvanceLoop): pipelined (the library's default),
//   chunked, reference, both (pipelined and reference) or all (every ensemble row with each,
//   marked ":chunk" or ":ref" in the schedule column; unmarked = pipelined), to time them
//   against each other in one run; their results are the same bit for bit.
// --noise: double rows with the normals in the working precision (same, the default), in
//   float (precision column "double*": EnsembleOptions::float_noise), or both.
// --diagnose: launch-by-launch timing of the refill schedule (diagnose_refill below).
// Default realisations: 2^20 on a GPU, 512 on a CPU; --quick: 2^18 on a GPU, 128 on a CPU.
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/josephson/detail/plain_kernel.hpp"
#include "portamc/josephson/ensemble.hpp"

namespace {

using namespace portamc;
using namespace portamc::josephson;
using Space = Kokkos::DefaultExecutionSpace;

struct Options {
  bool quick = false;
  bool diagnose = false;
  std::string only;                // --workload: run only this workload
  std::uint64_t realisations = 0;  // 0: default for the device
  std::uint64_t cap = 200000;
  std::vector<AdvanceLoop> loops{AdvanceLoop::pipelined};
  bool run_float = true, run_double = true;     // --precision
  bool same_noise = true, float_noise = false;  // --noise
};

struct Workload {
  const char* name;
  LangevinParameters params;
};

std::vector<Workload> workloads(const Options& opt) {
  LangevinParameters scattered;
  scattered.V0 = 1;
  scattered.beta = 0.05;
  scattered.theta = 0.2;
  scattered.h = 0.004;
  scattered.gamma0 = 0.5;
  scattered.max_steps = opt.cap;
  scattered.realisations = opt.realisations;
  scattered.seed = 2024;
  LangevinParameters to_cap = scattered;
  to_cap.theta = 0.1;
  LangevinParameters ramp = scattered;
  ramp.nu = 7.8e-4;  // gamma = 1 after 0.5 / (nu h) = 1.6e5 steps
  return {{"scattered", scattered}, {"to-cap", to_cap}, {"ramp", ramp}};
}

struct Row {
  std::int64_t slots = 0;
  double seconds = 0;
  double steps = 0;
  std::uint64_t escaped = 0, censored = 0;
  double mean_escape_steps = 0;
  double rate() const { return steps / seconds; }
};

template <class Real>
Row time_ensemble(LangevinParameters p, Integrator integrator, Schedule schedule, AdvanceLoop loop,
                  bool float_noise = false) {
  p.integrator = integrator;
  EnsembleOptions o;
  o.schedule = schedule;
  o.loop = loop;
  o.float_noise = float_noise;
  {
    LangevinParameters warm = p;
    warm.realisations = std::min<std::uint64_t>(p.realisations, 4096);
    warm.max_steps = std::min<std::uint64_t>(p.max_steps, 1000);
    Ensemble<Space, Real> e(Space(), warm, o);
    e.run();
  }
  Ensemble<Space, Real> e(Space(), p, o);
  Kokkos::fence();
  Kokkos::Timer timer;
  e.run();
  Row row;
  row.seconds = timer.seconds();
  row.slots = e.slot_count();
  row.steps = static_cast<double>(e.steps_integrated());
  const EnsembleResults r = e.results();
  row.escaped = r.count(Outcome::escaped);
  row.censored = r.count(Outcome::censored);
  double sum = 0;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (r.outcome[i] == Outcome::escaped) sum += static_cast<double>(r.steps[i]);
  row.mean_escape_steps = row.escaped ? sum / static_cast<double>(row.escaped) : 0;
  return row;
}

template <class Real>
Row time_plain(const LangevinParameters& p) {
  {
    LangevinParameters warm = p;
    warm.realisations = std::min<std::uint64_t>(p.realisations, 4096);
    warm.max_steps = std::min<std::uint64_t>(p.max_steps, 1000);
    run_plain_escape<Space, Real>(Space(), warm);
  }
  Kokkos::fence();
  Kokkos::Timer timer;
  const auto steps = run_plain_escape<Space, Real>(Space(), p);
  Row row;
  row.seconds = timer.seconds();
  row.slots = static_cast<std::int64_t>(p.realisations);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), steps);
  double sum = 0;
  for (std::size_t i = 0; i < h.extent(0); ++i) {
    if (h(i) < 0) {
      ++row.censored;
      row.steps += static_cast<double>(p.max_steps);
    } else {
      ++row.escaped;
      sum += static_cast<double>(h(i));
      row.steps += static_cast<double>(h(i));
    }
  }
  row.mean_escape_steps = row.escaped ? sum / static_cast<double>(row.escaped) : 0;
  return row;
}

void print_row(const char* workload, const char* method, const char* precision,
               const char* schedule, const LangevinParameters& p, const Row& row,
               double plain_rate) {
  const double n = static_cast<double>(p.realisations);
  char ratio[16] = "-";
  if (plain_rate > 0) std::snprintf(ratio, sizeof ratio, "%.2f", row.rate() / plain_rate);
  std::printf("%-9s %-6s %-7s %-19s %9llu %9lld %7.1f %7.1f %10.4g %10.4g %8.3f %10.4g %7s\n",
              workload, method, precision, schedule,
              static_cast<unsigned long long>(p.realisations), static_cast<long long>(row.slots),
              100.0 * static_cast<double>(row.escaped) / n,
              100.0 * static_cast<double>(row.censored) / n, row.mean_escape_steps, row.steps,
              row.seconds, row.rate() / 1e9, ratio);
  std::fflush(stdout);
}

template <class Real>
void bench_precision(const Workload& w, const std::vector<AdvanceLoop>& loops,
                     bool float_noise = false) {
  const char* precision = std::is_same_v<Real, float> ? "float"
                          : float_noise               ? "double*"
                                                      : "double";
  const bool ramp = w.params.nu > 0;
  double plain_rate = 0;
  if (!ramp && !float_noise) {
    const Row plain = time_plain<Real>(w.params);
    plain_rate = plain.rate();
    print_row(w.name, "plain", precision, "one_per_thread", w.params, plain, plain_rate);
  }
  for (Integrator integrator : {Integrator::euler, Integrator::heun}) {
    for (Schedule schedule : {Schedule::refill, Schedule::one_per_thread}) {
      if (ramp && (schedule != Schedule::refill || integrator != Integrator::euler)) continue;
      for (AdvanceLoop loop : loops) {
        const Row row = time_ensemble<Real>(w.params, integrator, schedule, loop, float_noise);
        const char* suffix = loop == AdvanceLoop::reference ? ":ref"
                             : loop == AdvanceLoop::chunked ? ":chunk"
                                                            : "";
        const std::string name = std::string(to_string(schedule)) + suffix;
        print_row(w.name, to_string(integrator), precision, name.c_str(), w.params, row,
                  plain_rate);
      }
    }
  }
}

/// --diagnose: the scattered workload with Euler and the refill schedule, launch by launch
/// (active slots, steps integrated in the launch, its time and rate), for slot counts from a
/// quarter to four times the measured residency, so a slow run shows whether the time goes
/// into the bulk (every slot busy), the tail, or a slot count the device cannot hold at once.
template <class Real>
void diagnose_refill(const Workload& w, AdvanceLoop loop) {
  const char* precision = std::is_same_v<Real, float> ? "float" : "double";
  LangevinParameters p = w.params;
  std::int64_t resident = 0;
  {
    Ensemble<Space, Real> probe(Space(), p);
    resident = probe.slot_count();
  }
  std::printf("# diagnose %s: refill, %s loop, resident slots measured %lld\n", precision,
              to_string(loop), static_cast<long long>(resident));
  std::printf("%-6s %9s %6s %9s %12s %9s %10s\n", "prec", "slots", "launch", "active", "steps",
              "seconds", "1e9 st/s");
  for (double factor : {0.25, 0.5, 1.0, 2.0, 4.0}) {
    EnsembleOptions o;
    o.loop = loop;
    o.slots = std::max<std::int64_t>(1, static_cast<std::int64_t>(factor * resident));
    Ensemble<Space, Real> e(Space(), p, o);
    Kokkos::fence();
    Kokkos::Timer total;
    std::uint64_t before = 0;
    int launch = 0;
    while (!e.done()) {
      const std::int64_t active = e.active_slots();
      const bool bulk = e.finished() + static_cast<std::uint64_t>(e.slot_count()) < p.realisations;
      Kokkos::Timer t;
      e.advance(bulk ? o.steps_per_launch : std::max<std::uint64_t>(1, o.steps_per_launch / 4));
      const double seconds = t.seconds();
      const std::uint64_t now = e.steps_integrated();
      std::printf("%-6s %9lld %6d %9lld %12.4g %9.4f %10.4g\n", precision,
                  static_cast<long long>(o.slots), launch++, static_cast<long long>(active),
                  static_cast<double>(now - before), seconds,
                  static_cast<double>(now - before) / seconds / 1e9);
      before = now;
    }
    std::printf("%-6s %9lld  total %12.4g %9.4f %10.4g\n", precision,
                static_cast<long long>(o.slots), static_cast<double>(before), total.seconds(),
                static_cast<double>(before) / total.seconds() / 1e9);
    std::fflush(stdout);
  }
}

bool parse_count(const char* text, std::uint64_t& out) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(value >= 1) || value > 1e15) return false;
  out = static_cast<std::uint64_t>(value);
  return static_cast<double>(out) == value;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--quick")) {
      opt.quick = true;
    } else if (!std::strcmp(argv[i], "--diagnose")) {
      opt.diagnose = true;
    } else if (!std::strcmp(argv[i], "--workload") && has_value) {
      opt.only = argv[++i];
      if (opt.only != "scattered" && opt.only != "to-cap" && opt.only != "ramp") {
        std::fprintf(stderr, "bench_josephson: --workload expects scattered, to-cap or ramp\n");
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--realisations") && has_value) {
      if (!parse_count(argv[++i], opt.realisations)) {
        std::fprintf(stderr, "bench_josephson: --realisations expects an integer >= 1\n");
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--loop") && has_value) {
      const std::string loop = argv[++i];
      if (loop == "pipelined") {
        opt.loops = {AdvanceLoop::pipelined};
      } else if (loop == "chunked") {
        opt.loops = {AdvanceLoop::chunked};
      } else if (loop == "reference") {
        opt.loops = {AdvanceLoop::reference};
      } else if (loop == "both") {
        opt.loops = {AdvanceLoop::pipelined, AdvanceLoop::reference};
      } else if (loop == "all") {
        opt.loops = {AdvanceLoop::pipelined, AdvanceLoop::chunked, AdvanceLoop::reference};
      } else {
        std::fprintf(
            stderr, "bench_josephson: --loop expects chunked, reference, pipelined, both or all\n");
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--precision") && has_value) {
      const std::string precision = argv[++i];
      opt.run_float = precision == "float" || precision == "both";
      opt.run_double = precision == "double" || precision == "both";
      if (!opt.run_float && !opt.run_double) {
        std::fprintf(stderr, "bench_josephson: --precision expects float, double or both\n");
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--noise") && has_value) {
      const std::string noise = argv[++i];
      opt.same_noise = noise == "same" || noise == "both";
      opt.float_noise = noise == "float" || noise == "both";
      if (!opt.same_noise && !opt.float_noise) {
        std::fprintf(stderr, "bench_josephson: --noise expects same, float or both\n");
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--cap") && has_value) {
      if (!parse_count(argv[++i], opt.cap)) {
        std::fprintf(stderr, "bench_josephson: --cap expects an integer >= 1\n");
        return 2;
      }
    } else {
      std::fprintf(stderr,
                   "usage: bench_josephson [--quick] [--diagnose] [--workload W] [--realisations "
                   "N] [--cap K] [--loop chunked|reference|both]\n");
      return 2;
    }
  }
  const DeviceInfo info = default_device_info();
  if (opt.realisations == 0) {
    if (info.is_gpu)
      opt.realisations = opt.quick ? (1u << 18) : (1u << 20);
    else
      opt.realisations = opt.quick ? 128 : 512;
  }
  const std::vector<Workload> work = workloads(opt);
  try {
    for (const Workload& w : work) w.params.validate();
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "bench_josephson: %s\n", e.what());
    return 2;
  }

  std::printf("# bench_josephson: %s on %s, Kokkos %s\n", info.backend.c_str(), info.device.c_str(),
              info.kokkos_version.c_str());
  std::printf(
      "# V0 = 1, beta = 0.05, h = 0.004, gamma = 0.5, cap %llu steps; scattered: theta = 0.2, "
      "to-cap: theta = 0.1, ramp: theta = 0.2, nu = 7.8e-4\n",
      static_cast<unsigned long long>(opt.cap));
  std::printf(
      "# slots: concurrent trajectories (refill: as many as the device keeps resident, measured); "
      "%llu steps per slot and launch\n",
      static_cast<unsigned long long>(EnsembleOptions().steps_per_launch));
  std::printf("%-9s %-6s %-7s %-19s %9s %9s %7s %7s %10s %10s %8s %10s %7s\n", "workload", "method",
              "prec", "schedule", "N", "slots", "%esc", "%cens", "mean_esc", "steps", "seconds",
              "1e9 st/s", "x plain");
  std::fflush(stdout);
  if (opt.diagnose) {
    for (AdvanceLoop loop : opt.loops) {
      diagnose_refill<float>(work.front(), loop);
      diagnose_refill<double>(work.front(), loop);
    }
    return 0;
  }
  for (const Workload& w : work) {
    if (!opt.only.empty() && opt.only != w.name) continue;
    if (opt.run_float) bench_precision<float>(w, opt.loops);
    if (opt.run_double && opt.same_noise) bench_precision<double>(w, opt.loops);
    if (opt.run_double && opt.float_noise) bench_precision<double>(w, opt.loops, true);
  }
  return 0;
}

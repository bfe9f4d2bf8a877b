// Benchmark of the SU(2) heatbath and overrelaxation sweeps and of gradient-flow steps on the
// backend this binary was built for.
//
// One table: for float and double links on 4D lattices L^4 at beta = 2.3, from a hot start
// thermalised by a few heatbath sweeps, the heatbath (HB) and overrelaxation (OR) sweeps per
// second, the link updates per second (4 L^4 per sweep) and the bandwidth they imply under
// the byte models below. Above the table: the device-to-device copy bandwidth measured in
// the same run (Kokkos::deep_copy of a large View, read + write counted) and the link-update
// rates it bounds under each model.
//
// Bytes per link update (a link is 4 reals; D = 4, 6(D-1) = 18 staple links per link):
//   sweep minimum  2 links: every link read once and written once per sweep, i.e. ideal reuse
//                  across the 2D checkerboard passes of a sweep (the whole lattice in cache).
//   pass minimum   HB 2D = 8 links, OR 2D + 1 = 9: a pass (mu, parity) needs, for its V/2
//                  links, all V links of each other direction (2(D-1) per updated link) and
//                  the V/2 mu-links of the other parity (1), and writes its own links (1); OR
//                  also reads them (1). Ideal reuse inside one pass and none across passes,
//                  i.e. the minimum of one kernel per pass on lattices far larger than the
//                  last-level cache.
//   no reuse       HB 6(D-1) + 1 = 19 links, OR 6(D-1) + 2 = 20: every staple link fetched
//                  from memory for every link (the paper's "19 links per update").
//   gradient flow  per link and flow step (row "FLOW": "sweeps" are flow steps of 0.01 on a
//                  copy of the thermalised field, su2::WilsonFlow): 3 Runge-Kutta stages of
//                  a force kernel (links read once for the staples, the 3-real accumulator
//                  read and written) and an exp kernel (accumulator read, link read and
//                  written): 63 reals, the "pass minimum" of the flow.
// Random numbers cost no memory traffic (counter-based Philox), nor does the failure counter.
// The GB/s columns use the sweep minimum and the pass minimum; "%copy" is the pass-minimum
// GB/s over the measured copy bandwidth, i.e. the heatbath or overrelaxation rate over the
// rate the copy bandwidth allows one kernel per pass.
//
// Usage: bench_su2 [--quick] [--sizes 16,24,32,48,64] [--min-time seconds]
//                  [--heatbath per-link|queue|both]
// --heatbath picks the heatbath kernel variant (su2::HeatbathKernelVariant): per-link (the
// default, row "HB") or queue (retry_queue, row "HBq"), or times both on the same field, one
// after the other, in one run; the two give the same links bit for bit.
// Default sizes: on a GPU 16, 24, 32, 48, 64, 80, 96, then multiples of 32 and finally the
// largest L (a multiple of 8) whose field fits in the free device memory, separately for
// float and double; on a CPU 8, 12, 16. --quick: 16, 32, 64 on a GPU, 8, 12, 16 on a CPU,
// shorter timings. Sizes whose field does not fit are reported and skipped.
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_args.hpp"
#include "portamc/device_info.hpp"
#include "portamc/su2/flow.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"

namespace {

using namespace portamc;
using Space = Kokkos::DefaultExecutionSpace;

constexpr int D = 4;
constexpr double beta = 2.3;
constexpr int components = 4;  // reals per link

// Links moved per link update under each byte model (see the header comment).
constexpr int sweep_min_links = 2;
constexpr int pass_min_links_hb = 2 * D;
constexpr int pass_min_links_or = 2 * D + 1;
constexpr int no_reuse_links_hb = 6 * (D - 1) + 1;
constexpr int no_reuse_links_or = 6 * (D - 1) + 2;
// Reals per link and gradient-flow step, the minimal traffic: 3 Runge-Kutta stages of a force
// kernel (the links read once for the staples: 4; the accumulator read and written: 6) and an
// exp kernel (the accumulator read: 3; the link read and written: 8).
constexpr int flow_reals = 3 * (4 + 6 + 3 + 8);

using portamc::bench::parse_list;

struct Timing {
  long long repetitions = 0;
  double seconds = 0;
  double per_second() const { return static_cast<double>(repetitions) / seconds; }
};

// One warm-up call, then batches of calls, fenced and timed, growing until one batch takes
// at least min_seconds; that batch is the result.
template <class Step>
Timing time_repeated(Step&& step, double min_seconds) {
  step();
  Kokkos::fence();
  long long n = 1;
  for (;;) {
    Kokkos::fence();
    Kokkos::Timer timer;
    for (long long i = 0; i < n; ++i) step();
    Kokkos::fence();
    const double s = timer.seconds();
    if (s >= min_seconds) return {n, s};
    const double scale = 1.2 * min_seconds / std::max(s, 1e-9);
    n = std::max(2 * n, static_cast<long long>(std::ceil(static_cast<double>(n) * scale)));
  }
}

// GB/s of Kokkos::deep_copy between two device Views of `bytes` each, read + write counted.
double copy_bandwidth(std::size_t bytes, double min_seconds) {
  using View = Kokkos::View<double*, Space::memory_space>;
  const std::size_t n = bytes / sizeof(double);
  View src(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench_su2::copy_src"), n);
  View dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench_su2::copy_dst"), n);
  Kokkos::deep_copy(src, 1.0);
  Kokkos::deep_copy(dst, 0.0);
  const Timing t = time_repeated([&] { Kokkos::deep_copy(dst, src); }, min_seconds);
  return 2.0 * static_cast<double>(n * sizeof(double)) * t.per_second() / 1e9;
}

template <class Real>
std::size_t field_bytes(int L) {
  return su2::GaugeField<Space, Real>::device_bytes(std::vector<int>(D, L));
}

// The largest L, a multiple of 8, whose field fits in `usable` bytes (0 if not even 8 does).
template <class Real>
int largest_fitting(std::size_t usable) {
  int best = 0;
  for (int L = 8;; L += 8) {
    try {
      if (field_bytes<Real>(L) > usable) break;
    } catch (const std::invalid_argument&) {  // beyond the geometry's site limit
      break;
    }
    best = L;
  }
  return best;
}

template <class Real>
std::vector<int> default_gpu_sizes(std::size_t usable) {
  std::vector<int> ladder{16, 24, 32, 48, 64, 80, 96};
  for (int L = 128; L <= 512; L += 32) ladder.push_back(L);
  const int largest = largest_fitting<Real>(usable);
  std::vector<int> sizes;
  for (int L : ladder)
    if (L <= largest) sizes.push_back(L);
  if (largest > 0 && (sizes.empty() || sizes.back() < largest)) sizes.push_back(largest);
  return sizes;
}

struct Options {
  std::vector<int> sizes;  // empty: defaults
  bool quick = false;
  double min_seconds = 0.2;
  int thermalisation_sweeps = 5;
  bool per_link = true;  // --heatbath: which heatbath kernel variants to time
  bool queue = false;
};

// Gradient-flow steps (su2::WilsonFlow, step 0.01) on a copy of `field`: "sweeps" are flow
// steps, "1e9 upd/s" links x steps/s, and GB/s the minimal traffic of a step, flow_reals per
// link (print_bounds). Its own row, skipped when the flow's copy and accumulator do not fit.
template <class Real>
void bench_flow(const su2::GaugeField<Space, Real>& field, const Options& opt, double copy_gbs,
                double mib) {
  const char* precision = std::is_same_v<Real, float> ? "float" : "double";
  const int L = field.geometry().extent(0);
  try {
    su2::WilsonFlow<Space, Real> flow(field.space(), field);
    const Timing t = time_repeated([&] { flow.step(0.01); }, opt.min_seconds);
    const double rate = static_cast<double>(field.link_count()) * t.per_second();
    const double gbs = rate * flow_reals * sizeof(Real) / 1e9;
    std::printf("%-6s %4d %9.1f %6s %8lld %10.4g %10.4g %11s %11.4g %7.1f %10.5f %9s\n", precision,
                L, mib, "FLOW", t.repetitions, t.per_second(), rate / 1e9, "-", gbs,
                100.0 * gbs / copy_gbs, 1.0 - flow.measure().energy_plaquette / 24, "-");
  } catch (const std::invalid_argument& e) {
    std::printf("%-6s %4d %9.1f %6s skipped: %s\n", precision, L, mib, "FLOW", e.what());
  }
  std::fflush(stdout);
}

template <class Real>
void bench_precision(const Options& opt, const std::vector<int>& sizes, double copy_gbs) {
  const char* precision = std::is_same_v<Real, float> ? "float" : "double";
  const double link_bytes = components * sizeof(Real);
  for (int L : sizes) {
    const std::vector<int> extents(D, L);
    const double mib = static_cast<double>(field_bytes<Real>(L)) / (1024.0 * 1024.0);
    try {
      su2::GaugeField<Space, Real> field(Space(), extents);
      field.hot_start(1);
      su2::UpdateParameters params;
      params.beta = beta;
      params.seed = 2;
      su2::Updater<Space, Real> updater(field.space(), params);
      for (int i = 0; i < opt.thermalisation_sweeps; ++i) updater.heatbath_sweep(field);
      Kokkos::fence();
      su2::UpdateParameters queued_params = params;
      queued_params.heatbath_variant = su2::HeatbathKernelVariant::retry_queue;
      su2::Updater<Space, Real> queued(field.space(), queued_params);

      const double links = static_cast<double>(field.link_count());
      // failures: heatbath links left unchanged (retries exhausted) over all heatbath sweeps.
      auto row = [&](const char* update, const Timing& t, int pass_links,
                     const std::string& fails) {
        const double plaquette = field.plaquette().total;
        const double rate = links * t.per_second();  // link updates per second
        const double gbs_sweep = rate * sweep_min_links * link_bytes / 1e9;
        const double gbs_pass = rate * pass_links * link_bytes / 1e9;
        std::printf("%-6s %4d %9.1f %6s %8lld %10.4g %10.4g %11.4g %11.4g %7.1f %10.5f %9s\n",
                    precision, L, mib, update, t.repetitions, t.per_second(), rate / 1e9, gbs_sweep,
                    gbs_pass, 100.0 * gbs_pass / copy_gbs, plaquette, fails.c_str());
      };
      auto failures = [](const su2::Updater<Space, Real>& u) {
        return std::to_string(static_cast<unsigned long long>(u.tally().failures));
      };
      if (opt.per_link) {
        const Timing hb = time_repeated([&] { updater.heatbath_sweep(field); }, opt.min_seconds);
        row("HB", hb, pass_min_links_hb, failures(updater));
      }
      if (opt.queue) {
        queued.set_heatbath_sweeps_done(updater.heatbath_sweeps_done());  // fresh RNG keys
        const Timing hbq = time_repeated([&] { queued.heatbath_sweep(field); }, opt.min_seconds);
        row("HBq", hbq, pass_min_links_hb, failures(queued));
      }
      const Timing orx =
          time_repeated([&] { updater.overrelaxation_sweep(field); }, opt.min_seconds);
      row("OR", orx, pass_min_links_or, "-");
      std::fflush(stdout);
      bench_flow<Real>(field, opt, copy_gbs, mib);
    } catch (const std::invalid_argument& e) {
      std::printf("%-6s %4d %9.1f skipped: %s\n", precision, L, mib, e.what());
      std::fflush(stdout);
    }
  }
}

void print_bounds(double copy_gbs) {
  struct Model {
    const char* name;
    int links;
  };
  const Model models[] = {{"sweep minimum, HB and OR", sweep_min_links},
                          {"pass minimum, HB", pass_min_links_hb},
                          {"pass minimum, OR", pass_min_links_or},
                          {"no reuse, HB", no_reuse_links_hb},
                          {"no reuse, OR", no_reuse_links_or}};
  std::printf(
      "# bytes per link update (D = %d) and the link updates/s the copy bandwidth allows:\n", D);
  std::printf("#   %-26s %5s %8s %8s %14s %14s\n", "model", "links", "B float", "B double",
              "1e9/s float", "1e9/s double");
  for (const Model& m : models) {
    const double bf = m.links * components * sizeof(float);
    const double bd = m.links * components * sizeof(double);
    std::printf("#   %-26s %5d %8.0f %8.0f %14.4g %14.4g\n", m.name, m.links, bf, bd, copy_gbs / bf,
                copy_gbs / bd);
  }
  std::printf("#   %-26s %5.2f %8.0f %8.0f %14.4g %14.4g   (per link and flow step)\n",
              "gradient flow, minimum", flow_reals / 4.0, flow_reals * 4.0, flow_reals * 8.0,
              copy_gbs / (flow_reals * 4.0), copy_gbs / (flow_reals * 8.0));
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Options opt;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) opt.quick = true;
    if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) {
      try {
        opt.sizes = parse_list(argv[++i]);
      } catch (const std::exception&) {
        std::fprintf(stderr, "bench_su2: --sizes expects even integers, e.g. 16,24,32\n");
        return 2;
      }
    }
    if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc) opt.min_seconds = std::atof(argv[++i]);
    if (!std::strcmp(argv[i], "--heatbath") && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v != "per-link" && v != "queue" && v != "both") {
        std::fprintf(stderr, "bench_su2: --heatbath expects per-link, queue or both\n");
        return 2;
      }
      opt.per_link = v != "queue";
      opt.queue = v != "per-link";
    }
  }
  if (opt.quick) {
    opt.min_seconds = std::min(opt.min_seconds, 0.05);
    opt.thermalisation_sweeps = 2;
  }
  for (int L : opt.sizes) {
    if (L < 2 || L % 2 != 0) {
      std::fprintf(stderr, "bench_su2: --sizes: L = %d is not an even extent >= 2\n", L);
      return 2;
    }
  }

  const DeviceInfo info = default_device_info();
  // The margin of require_memory, taken before anything of ours is allocated.
  const std::size_t usable = info.free_memory_bytes / 10 * 9;
  std::vector<int> sizes_float = opt.sizes, sizes_double = opt.sizes;
  if (opt.sizes.empty()) {
    if (!info.is_gpu) {
      sizes_float = sizes_double = {8, 12, 16};
    } else if (opt.quick) {
      sizes_float = sizes_double = {16, 32, 64};
    } else {
      sizes_float = default_gpu_sizes<float>(usable);
      sizes_double = default_gpu_sizes<double>(usable);
    }
  }

  // Copy buffers far larger than any cache, within the free memory.
  const std::size_t cap = info.is_gpu ? (std::size_t{2} << 30) : (std::size_t{512} << 20);
  const std::size_t copy_bytes =
      std::max<std::size_t>(std::size_t{8} << 20, std::min(cap, info.free_memory_bytes / 8));
  const double copy_gbs = copy_bandwidth(copy_bytes, opt.min_seconds);

  std::printf("# bench_su2: %s on %s, Kokkos %s, %.1f GiB free\n", info.backend.c_str(),
              info.device.c_str(), info.kokkos_version.c_str(),
              static_cast<double>(info.free_memory_bytes) / (1024.0 * 1024.0 * 1024.0));
  std::printf(
      "# %dD lattices L^%d, beta = %.1f, hot start + %d heatbath sweeps, >= %.2f s per timing\n", D,
      D, beta, opt.thermalisation_sweeps, opt.min_seconds);
  std::printf("# device copy (Kokkos::deep_copy, 2 x %.0f MiB, read + write): %.1f GB/s\n",
              static_cast<double>(copy_bytes) / (1024.0 * 1024.0), copy_gbs);
  print_bounds(copy_gbs);
  std::printf(
      "# plaquette: after the timed sweeps, a sanity check (near 0.60 once thermalised;\n"
      "# FLOW rows: of the flowed field, 1 - E_plaq / 24)\n");
  std::printf("%-6s %4s %9s %6s %8s %10s %10s %11s %11s %7s %10s %9s\n", "prec", "L", "MiB",
              "update", "sweeps", "sweeps/s", "1e9 upd/s", "GB/s(sweep)", "GB/s(pass)", "%copy",
              "plaquette", "failures");
  std::fflush(stdout);
  bench_precision<float>(opt, sizes_float, copy_gbs);
  bench_precision<double>(opt, sizes_double, copy_gbs);
  return 0;
}

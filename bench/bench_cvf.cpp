// Benchmark of the CVF water model's MC steps on the backend this binary was built for.
//
// One table: for Metropolis (volume move, eta update, six arm passes) and Swendsen-Wang
// (volume move, eta update, bonds, labels, cluster flips, recount) steps on L^3 lattices, the
// time per step and per molecule per step (the paper's metric: 4.1 ns per molecule per
// Metropolis step and 32 ns per SW step on an RTX 3060), with the device bytes per molecule.
// SW rows come at the paper's two state points at 0.1 MPa (195 K "percolating", 210 K
// "non-percolating") and at 450 K; the largest cluster's share of the 6N variables (measured
// once, untimed) says which regime each row is really in.
//
// Metropolis byte model, per molecule and step (the minimum traffic of one kernel per pass):
//   sigma pass   6 x (6 B own arms read + 1 B neighbour arm + 1 B written + 1/4 B cube) = 49.5 B
//   eta update   the cube's 8 corners' arms (6 B per molecule, each molecule in two cubes:
//                12 B) + its state (1/4 B read and written)                             = 12.5 B
// = 62 B; GB/s = 62 B x molecules x steps / s, next to the measured device-copy bandwidth.
// A "sweep" row times the six sigma passes alone (49.5 B per molecule), the kernel that the
// Metropolis kernel choice changes: --metropolis per_cell (one cell per thread, metropolis.hpp),
// packed (four cells per thread, metropolis_packed.hpp) or both. The "variant" column names the
// Metropolis kernel, or the SW labelling.
//
// Usage: bench_cvf [--quick] [--sizes 32,64,128] [--sw-sizes 32,64,128] [--largest]
//                  [--min-time seconds] [--labelling union_find|label_equivalence|both]
//                  [--metropolis per_cell|packed|both] [--sw-phases] [--label-block x,y,z]
// --sw-phases adds a line per SW row with the time of each phase; --label-block sets the cells
// per block of union-find's shared-memory stage (default 8,8,4; powers of two, at most
// 1024 cells).
// --largest adds a row at the largest L (a multiple of 4) whose state fits in free device
// memory, for each algorithm: the "largest N that fits" of the issue, measured.
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "portamc/cvf/detail/cluster_bonds.hpp"
#include "portamc/cvf/detail/swendsen_wang.hpp"
#include "portamc/cvf/simulation.hpp"
#include "portamc/device_info.hpp"

namespace {

using namespace portamc;
using Space = Kokkos::DefaultExecutionSpace;

constexpr double metropolis_bytes_per_molecule = 62.0;
constexpr double sweep_bytes_per_molecule = 49.5;

using portamc::bench::parse_list;

struct Options {
  std::vector<int> sizes, sw_sizes;
  bool largest = false;
  double min_time = 1.0;
  std::vector<cvf::Labelling> labellings{cvf::Labelling::union_find};
  std::vector<cvf::MetropolisKernel> kernels{cvf::MetropolisKernel::per_cell};
  bool sw_phases = false;
  cvf::LabelBlock block;
};

double copy_bandwidth(std::size_t bytes, double min_seconds) {
  using View = Kokkos::View<double*, Space::memory_space>;
  const std::size_t n = bytes / sizeof(double);
  View src(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench_cvf::src"), n);
  View dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench_cvf::dst"), n);
  Kokkos::deep_copy(src, 1.0);
  Kokkos::deep_copy(dst, 0.0);
  Kokkos::fence();
  Kokkos::Timer timer;
  long long reps = 0;
  do {
    Kokkos::deep_copy(dst, src);
    Kokkos::fence();
    ++reps;
  } while (timer.seconds() < min_seconds);
  return 2.0 * n * sizeof(double) * reps / timer.seconds() / 1e9;
}

// Steps until min_time has passed (at least 3), after `warm` untimed steps.
template <class Step>
double seconds_per_step(Step&& step, int warm, double min_time, long long& steps) {
  for (int k = 0; k < warm; ++k) step();
  Kokkos::fence();
  Kokkos::Timer timer;
  steps = 0;
  do {
    step();
    Kokkos::fence();
    ++steps;
  } while (steps < 3 || timer.seconds() < min_time);
  return timer.seconds() / steps;
}

cvf::SimulationSettings settings(int L) {
  cvf::SimulationSettings s;
  s.L = L;
  s.seed = 12345;
  s.initial_v_iso = 1.23;
  s.volume.enabled = true;
  s.volume.delta = 1.0 / std::sqrt(static_cast<double>(L) * L * L);
  return s;
}

void header() {
  std::printf("%-11s %-17s %7s %6s %7s %13s %7s %11s %12s %9s %7s %8s\n", "algorithm", "variant",
              "T [K]", "L", "MiB", "N", "steps", "ms/step", "ns/mol/step", "GB/s", "%copy",
              "largest");
}

// A full Metropolis MC step, then (same chain, continued) the six sigma passes alone.
void metropolis_rows(int L, cvf::MetropolisKernel kernel, double min_time, double copy_gbs) {
  cvf::SimulationSettings s = settings(L);
  s.metropolis_kernel = kernel;
  cvf::Simulation<Space> sim(Space(), cvf::ModelParameters{}, cvf::StatePoint{210.0, 0.1}, s);
  const double N = static_cast<double>(sim.state().geometry().cells());
  auto row = [&](const char* algorithm, double seconds, long long steps, double bytes) {
    const double gbs = bytes * N / seconds / 1e9;
    std::printf("%-11s %-17s %7.1f %6d %7.1f %13.0f %7lld %11.4f %12.5f %9.1f %7.1f %8s\n",
                algorithm, cvf::to_string(kernel), 210.0, L, 6.25 * N / 1048576.0, N, steps,
                1e3 * seconds, 1e9 * seconds / N, gbs, 100.0 * gbs / copy_gbs, "-");
    std::fflush(stdout);
  };
  long long steps = 0;
  const double step = seconds_per_step([&] { sim.step(); }, 3, min_time, steps);
  row("metropolis", step, steps, metropolis_bytes_per_molecule);
  auto sweep_only = [&] {
    sim.metropolis_sweep();
    sim.end_step();
  };
  const double sweep = seconds_per_step(sweep_only, 1, min_time, steps);
  row("sweep", sweep, steps, sweep_bytes_per_molecule);
}

// With `phases`, a further run of the same chain fences and times each phase of the SW step
// (bonds, union-find's local / hooks / compress kernels, cluster flips; the rest is the volume
// move, the eta update and the recount) and prints it as a comment line under the row.
void swendsen_wang_row(int L, double temperature, cvf::Labelling labelling, double min_time,
                       bool phases, const cvf::LabelBlock& block, int warm = 5) {
  cvf::Simulation<Space> sim(Space(), cvf::ModelParameters{}, cvf::StatePoint{temperature, 0.1},
                             settings(L));
  cvf::SwendsenWang<Space> sw(Space(), sim.state().geometry(), labelling);
  sw.set_label_block(block);
  const double N = static_cast<double>(sim.state().geometry().cells());
  auto step = [&] {
    sim.volume_move();
    sim.eta_update();
    const auto thresholds =
        cvf::bond_thresholds(sim.bond_coupling(), sim.parameters().J_sigma, sim.point().t);
    auto& state = sim.state();
    sw.sweep(state.sigma(), state.cube_state(), thresholds, sim.settings().seed, state.step());
    state.recount();
    sim.end_step();
  };
  long long steps = 0;
  const double s = seconds_per_step(step, warm, min_time, steps);
  // The cluster-size histogram needs another label array: skipped (NaN) where it does not fit.
  const double label_bytes = sw.wide_labels() ? 8.0 : 4.0;
  const bool room =
      static_cast<double>(default_device_info().free_memory_bytes) > 1.2 * 6.0 * N * label_bytes;
  const double largest =
      room ? static_cast<double>(sw.largest_cluster_size()) / (6.0 * N) : std::nan("");
  const double mib = (6.25 + sw.bytes_per_molecule()) * N / 1048576.0;
  std::printf("%-11s %-17s %7.1f %6d %7.1f %13.0f %7lld %11.4f %12.5f %9s %7s %8.3f\n", "sw",
              cvf::to_string(labelling).c_str(), temperature, L, mib, N, steps, 1e3 * s,
              1e9 * s / N, "-", "-", largest);
  std::fflush(stdout);
  if (!phases) return;
  sw.set_phase_timing(true);
  const long long timed = std::max<long long>(3, std::min<long long>(steps, 50));
  Space().fence();
  Kokkos::Timer timer;
  for (long long i = 0; i < timed; ++i) step();
  Space().fence();
  const double total = timer.seconds();
  const cvf::SwPhaseSeconds& p = sw.phase_seconds();
  const double per = 1e3 / static_cast<double>(timed);
  const double rest = total - (p.bonds + p.local + p.hooks + p.compress + p.flip);
  std::printf(
      "#   phases, ms/step (fenced, %lld steps): bonds %.3f  local %.3f  hooks %.3f  compress "
      "%.3f  flip %.3f  volume+eta+recount %.3f  total %.3f\n",
      timed, per * p.bonds, per * p.local, per * p.hooks, per * p.compress, per * p.flip,
      per * rest, per * total);
  std::fflush(stdout);
  sw.set_phase_timing(false);
}

// Largest multiple of 4 whose L^3 molecules at `bytes_per_molecule` fit in 90 % of free memory.
int largest_size(double bytes_per_molecule) {
  const DeviceInfo info = default_device_info();
  const double molecules = 0.9 * static_cast<double>(info.free_memory_bytes) / bytes_per_molecule;
  int L = static_cast<int>(std::cbrt(molecules)) / 4 * 4;
  while (L > 4 && static_cast<double>(L) * L * L > molecules) L -= 4;
  return L;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  Options opt;
  const DeviceInfo info = default_device_info();
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--sizes" && i + 1 < argc) {
      opt.sizes = parse_list(argv[++i]);
    } else if (a == "--sw-sizes" && i + 1 < argc) {
      opt.sw_sizes = parse_list(argv[++i]);
    } else if (a == "--largest") {
      opt.largest = true;
    } else if (a == "--sw-phases") {
      opt.sw_phases = true;
    } else if (a == "--label-block" && i + 1 < argc) {
      const std::vector<int> b = parse_list(argv[++i]);
      if (b.size() != 3) {
        std::fprintf(stderr, "bench_cvf: --label-block needs three sizes x,y,z\n");
        return 2;
      }
      opt.block = {b[0], b[1], b[2]};
      try {
        cvf::check_label_block(opt.block);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_cvf: %s\n", e.what());
        return 2;
      }
    } else if (a == "--min-time" && i + 1 < argc) {
      opt.min_time = std::stod(argv[++i]);
    } else if (a == "--labelling" && i + 1 < argc) {
      const std::string l = argv[++i];
      if (l == "both") {
        opt.labellings = {cvf::Labelling::union_find, cvf::Labelling::label_equivalence};
      } else {
        opt.labellings = {cvf::labelling_from_string(l)};
      }
    } else if (a == "--metropolis" && i + 1 < argc) {
      const std::string k = argv[++i];
      if (k == "both") {
        opt.kernels = {cvf::MetropolisKernel::per_cell, cvf::MetropolisKernel::packed};
      } else {
        opt.kernels = {cvf::metropolis_kernel_from_string(k)};
      }
    } else {
      std::fprintf(stderr,
                   "usage: bench_cvf [--quick] [--sizes L,..] [--sw-sizes L,..] [--largest] "
                   "[--min-time s] [--labelling union_find|label_equivalence|both] "
                   "[--metropolis per_cell|packed|both] [--sw-phases] [--label-block x,y,z]\n");
      return 2;
    }
  }
  if (opt.sizes.empty())
    opt.sizes = info.is_gpu ? (quick ? std::vector<int>{64, 256}
                                     : std::vector<int>{32, 64, 128, 256, 512, 1024})
                            : std::vector<int>{16, 32, 64};
  if (opt.sw_sizes.empty())
    opt.sw_sizes =
        info.is_gpu ? (quick ? std::vector<int>{64, 128} : std::vector<int>{32, 128, 256, 512, 800})
                    : std::vector<int>{16, 32};
  if (quick) opt.min_time = std::min(opt.min_time, 0.3);

  std::printf("# bench_cvf: %s on %s, Kokkos %s, %.1f GiB free\n", info.backend.c_str(),
              info.device.c_str(), info.kokkos_version.c_str(),
              info.free_memory_bytes / 1073741824.0);
  const double copy_gbs =
      copy_bandwidth(std::min<std::size_t>(info.free_memory_bytes / 8, std::size_t{1} << 31), 0.3);
  std::printf("# device copy (Kokkos::deep_copy, read + write): %.1f GB/s\n", copy_gbs);
  std::printf(
      "# Metropolis bytes per molecule and step (model in the source): %.0f; state "
      "6.25 B per molecule, SW adds 28 B (6N < 2^32) or 52 B\n",
      metropolis_bytes_per_molecule);
  std::printf("# 'largest': the largest SW cluster's share of the 6N variables (untimed)\n");
  header();
  for (int L : opt.sizes)
    for (auto kernel : opt.kernels) metropolis_rows(L, kernel, opt.min_time, copy_gbs);
  if (opt.largest)
    for (auto kernel : opt.kernels)
      metropolis_rows(largest_size(6.25), kernel, std::min(opt.min_time, 2.0), copy_gbs);
  // Label equivalence needs hundreds of host-synchronised passes on percolating systems
  // (seconds per step from L = 512): it is timed up to L = 256 only.
  for (int L : opt.sw_sizes)
    for (double T : {195.0, 210.0, 450.0})
      for (auto labelling : opt.labellings)
        if (labelling == cvf::Labelling::union_find || L <= 256)
          swendsen_wang_row(L, T, labelling, opt.min_time, opt.sw_phases, opt.block);
  if (opt.largest) {
    // 32-bit labels up to 6N < 2^32, 64-bit beyond: try the wide layout's size first.
    int L = largest_size(6.25 + 52.0);
    const int narrow = largest_size(6.25 + 28.0);
    if (6.0 * narrow * narrow * static_cast<double>(narrow) < 4294967296.0) L = std::max(L, narrow);
    swendsen_wang_row(L, 450.0, cvf::Labelling::union_find, std::min(opt.min_time, 2.0),
                      opt.sw_phases, opt.block, 2);
  }
  return 0;
}

// Benchmark of the multicanonical Ising kernels on the backend this binary was built for.
//
// Table 1: picoseconds per spin-flip attempt versus the number of walkers W for
// L = 16, 32, 64, with near-multicanonical weights (from a short weight iteration), both
// for thermalisation (no histogram) and for recorded sampling. Also the bytes the kernel
// must move and the achieved rate of attempts per second.
// Table 2: wall time and iterations to convergence (d_KL < 1e-4) at the default W.
//
// Usage: bench_muca [--quick] [--sizes 16,32,64] [--walkers w1,w2,...] [--converge 16,32]
//                   [--team N] [--per-thread N] [--storage automatic|scratch|global]
//                   [--occupancy p1,p2,...]
// --team and --storage override the launch plan of the throughput table (model.team_size,
// model.storage), e.g. to try L = 64 lattices in more than 48 KB of shared memory;
// --occupancy gives a row per percent of resident threads (Parameters::occupancy, 0: the
// plan's choice).
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "portamc/device_info.hpp"
#include "portamc/muca/simulation.hpp"

namespace {

using namespace portamc;

// Weights good enough to make the walk span the energy range: iterate until every
// accessible bin was visited (or a cap), at the default walker count.
std::vector<double> rough_weights(int L, long long walkers) {
  muca::Parameters p;
  p.L = L;
  p.walkers = walkers;
  p.seed = 99;
  muca::Simulation sim(Kokkos::DefaultExecutionSpace(), p);
  for (int i = 0; i < 400 && !sim.driver().full_range; ++i) sim.iterate();
  for (int i = 0; i < 3; ++i) sim.iterate();
  return sim.model().log_weights();
}

double time_attempts(muca::IsingMuca<Kokkos::DefaultExecutionSpace>& model, std::uint64_t attempts,
                     bool record) {
  Kokkos::fence();
  Kokkos::Timer timer;
  if (record)
    model.sample(attempts);
  else
    model.thermalise(attempts);
  Kokkos::fence();
  return timer.seconds();
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const DeviceInfo info = default_device_info();
  std::vector<long long> sizes{16, 32, 64}, walker_list, converge{16, 32}, occupancies{0};
  bool quick = false;
  int team = 0, per_thread = 0;
  auto storage = muca::LatticeStorage::automatic;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc)
      sizes = portamc::bench::parse_list<long long>(argv[++i]);
    if (!std::strcmp(argv[i], "--walkers") && i + 1 < argc)
      walker_list = portamc::bench::parse_list<long long>(argv[++i]);
    if (!std::strcmp(argv[i], "--converge") && i + 1 < argc)
      converge = portamc::bench::parse_list<long long>(argv[++i]);
    if (!std::strcmp(argv[i], "--occupancy") && i + 1 < argc)
      occupancies = portamc::bench::parse_list<long long>(argv[++i]);
    if (!std::strcmp(argv[i], "--team") && i + 1 < argc) team = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--per-thread") && i + 1 < argc) per_thread = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--storage") && i + 1 < argc) {
      const std::string name = argv[++i];
      storage = name == "scratch"  ? muca::LatticeStorage::scratch
                : name == "global" ? muca::LatticeStorage::global
                                   : muca::LatticeStorage::automatic;
    }
  }
  const long long w_default = muca::default_walkers<Kokkos::DefaultExecutionSpace>();
  if (walker_list.empty()) {
    if (info.is_gpu) {
      const long long per_sm = info.max_threads_per_multiprocessor;
      for (long long f : {1LL, 2LL, 4LL, 8LL})
        walker_list.push_back(info.multiprocessors * per_sm * f / 8);
      walker_list.push_back(2 * w_default);
    } else {
      walker_list = {info.concurrency, 2LL * info.concurrency, 8LL * info.concurrency};
    }
  }
  std::printf("# bench_muca: %s on %s, Kokkos %s, default W = %lld\n", info.backend.c_str(),
              info.device.c_str(), info.kokkos_version.c_str(), w_default);
  std::printf("%4s %9s %5s %4s %8s %4s %10s %14s %14s %12s %10s\n", "L", "W", "team", "w/th",
              "scratch", "occ", "attempts", "ps/att(therm)", "ps/att(rec)", "Gatt/s", "GB/s(min)");
  for (long long L : sizes) {
    const auto lnw = rough_weights(static_cast<int>(L), w_default);
    for (long long W : walker_list)
      for (long long occupancy : occupancies) {
        muca::Parameters p;
        p.L = static_cast<int>(L);
        p.walkers = W;
        p.seed = 7;
        p.team_size = team;
        p.walkers_per_thread = per_thread;
        p.storage = storage;
        p.occupancy = static_cast<int>(occupancy);
        muca::IsingMuca<Kokkos::DefaultExecutionSpace> model(Kokkos::DefaultExecutionSpace(), p);
        model.set_log_weights(lnw);
        const double target = quick ? 2e8 : (info.is_gpu ? 4e10 : 2e9);  // attempts in total
        const auto per_walker = static_cast<std::uint64_t>(std::max(64.0, target / W));
        model.thermalise(per_walker / 8);  // warm-up, caches, launch setup
        const double t_therm = time_attempts(model, per_walker, false);
        const double t_rec = time_attempts(model, per_walker, true);
        const double n = static_cast<double>(per_walker) * W;
        // Minimum traffic if every attempt read its site and 4 neighbours once from memory at
        // 1 bit each and wrote nothing: a lower bound, the kernel moves far more from cache.
        const double gbytes = n * 5.0 / 8.0 / 1e9;
        std::printf("%4lld %9lld %5d %4d %8s %4d %10.3g %14.2f %14.2f %12.2f %10.1f\n", L, W,
                    model.plan().team_size, model.plan().walkers_per_thread,
                    model.plan().scratch_lattice ? "yes" : "no", model.plan().occupancy, n,
                    1e12 * t_therm / n, 1e12 * t_rec / n, n / t_therm / 1e9, gbytes / t_therm);
        std::fflush(stdout);
      }
  }
  std::printf("\n%4s %9s %10s %10s %12s %12s\n", "L", "W", "iterations", "converged", "seconds",
              "d_KL");
  for (long long L : converge) {
    muca::Parameters p;
    p.L = static_cast<int>(L);
    p.seed = 2018;
    muca::Simulation sim(Kokkos::DefaultExecutionSpace(), p);
    Kokkos::fence();
    Kokkos::Timer timer;
    double kl = 0;
    while (!sim.converged() && !sim.iterations_exhausted()) kl = sim.iterate().kullback_leibler;
    Kokkos::fence();
    std::printf("%4lld %9lld %10d %10s %12.3f %12.3g\n", L, sim.model().walkers(),
                sim.driver().iteration, sim.converged() ? "yes" : "no", timer.seconds(), kl);
    std::fflush(stdout);
  }
  return 0;
}

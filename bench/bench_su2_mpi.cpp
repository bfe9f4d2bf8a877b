// Benchmark of the SU(2) heatbath and overrelaxation sweeps on a lattice split over MPI ranks
// (one GPU per rank): weak scaling (--local: fixed block per rank) and strong scaling
// (--global: fixed lattice). Built only with MPI.
//
// Per run (precision x sweep kind) one line: ranks, rank grid, global and local extents,
// precision, sweeps timed, seconds, 10^9 link updates/s in total and per rank, the fraction of
// the time spent in the halo exchange (slowest rank), halo MB per sweep and rank, and the halo
// transport (parallel.halo_transport). On one rank it also times the one-rank Updater on the same
// lattice
// ("1rank" rows), the reference of the weak-scaling efficiency
//   efficiency(R) = (rate per rank on R ranks) / (one-rank rate on the local block).
//
// Usage:
//   mpiexec -n R bench_su2_mpi (--local L0,L1,L2,L3 | --global N0,N1,N2,N3) [--grid P0,..]
//       [--precision float|double|both] [--sweeps 20] [--warmup 2] [--beta 2.3]
//       [--transport auto|nccl|mpi_direct|mpi_staged] [--no-overlap]
// --local: the global lattice is the block times the grid; the grid (unless --grid) splits
// the fewest, slowest directions, i.e. R ranks along direction D-1 for a hypercubic block.
// --global: the grid (unless --grid) is Decomposition::automatic_grid.
// --no-overlap: exchange after each whole pass instead of during its inner part. The halo
// fraction counts the wall time of the exchange calls; with overlap part of it is hidden
// behind the inner update, so compare the rates of both to see what the exchange costs.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "portamc/device_info.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/parallel.hpp"
#include "portamc/parallel_environment.hpp"
#include "portamc/su2/distributed_field.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"

namespace {

using namespace portamc;
using Space = Kokkos::DefaultExecutionSpace;

struct Options {
  std::vector<int> local, global, grid;
  std::vector<std::string> precisions{"float", "double"};
  int sweeps = 20;
  int warmup = 2;
  double beta = 2.3;
  parallel::HaloTransport transport = parallel::HaloTransport::automatic;
  bool overlap = true;
};

using portamc::bench::parse_list;

// Weak scaling: the grid whose blocks have the fewest halo sites, ties to the slowest splits.
std::vector<int> weak_grid(const std::vector<int>& local, int ranks) {
  const int d = static_cast<int>(local.size());
  std::vector<int> best, grid(d, 1);
  double best_cost = 0;
  std::function<void(int, int)> search = [&](int mu, int left) {
    if (mu == d) {
      if (left != 1) return;
      double volume = 1, cost = 0;
      for (int n : local) volume *= n;
      for (int nu = 0; nu < d; ++nu)
        if (grid[nu] > 1) cost += 2 * volume / local[nu];
      bool slower = false;
      for (int nu = d - 1; nu >= 0 && !best.empty(); --nu)
        if (grid[nu] != best[nu]) {
          slower = grid[nu] > best[nu];
          break;
        }
      if (best.empty() || cost < best_cost || (cost == best_cost && slower))
        best = grid, best_cost = cost;
      return;
    }
    for (int p = 1; p <= left; ++p)
      if (left % p == 0) grid[mu] = p, search(mu + 1, left / p);
    grid[mu] = 1;
  };
  search(0, ranks);
  return best;
}

struct Result {
  double seconds = 0;
  double halo_seconds = 0;  // slowest rank
  double halo_bytes = 0;    // this rank, per sweep
};

template <class Real>
void run_precision(const Options& opt, const parallel::Communicator& comm,
                   const std::vector<int>& global, const std::vector<int>& grid,
                   const char* precision) {
  su2::ParallelOptions po;
  po.grid = grid;
  po.transport = opt.transport;
  su2::DistributedField<Space, Real> field(Space(), global, comm, po);
  const su2::Decomposition& d = field.decomposition();
  su2::UpdateParameters up;
  up.beta = opt.beta;
  up.seed = 7;
  su2::DistributedUpdater<Space, Real> updater(field.local().space(), up);
  updater.set_overlap(opt.overlap);
  field.hot_start(3);
  for (int i = 0; i < opt.warmup; ++i) updater.heatbath_sweep(field);
  const double links = static_cast<double>(field.link_count());

  auto time = [&](bool heatbath) {
    Kokkos::fence();
    comm.barrier();
    field.halo().reset_statistics();
    const double t0 = MPI_Wtime();
    for (int i = 0; i < opt.sweeps; ++i) {
      if (heatbath)
        updater.heatbath_sweep(field);
      else
        updater.overrelaxation_sweep(field);
    }
    Kokkos::fence();
    comm.barrier();
    Result r;
    r.seconds = MPI_Wtime() - t0;
    r.halo_seconds = comm.max(field.halo().seconds());
    r.halo_bytes = field.halo().bytes_sent() / opt.sweeps;
    return r;
  };
  for (const bool heatbath : {true, false}) {
    const Result r = time(heatbath);
    const double rate = links * opt.sweeps / r.seconds / 1e9;
    if (comm.is_root())
      std::printf("%-5s %5d %-9s %-15s %-13s %-6s %6d %9.4f %10.4f %10.4f %7.3f %9.2f %s\n",
                  heatbath ? "HB" : "OR", comm.size(), d.grid_text().c_str(),
                  d.global_text().c_str(), d.local_text().c_str(), precision, opt.sweeps, r.seconds,
                  rate, rate / comm.size(), r.halo_seconds / r.seconds, r.halo_bytes / 1e6,
                  parallel::to_string(field.transport()));
  }
  const su2::PlaquetteAverage plaquette = field.plaquette();
  if (comm.is_root())
    std::printf("#   plaquette %.6f (sanity: ~0.60 once thermalised)\n", plaquette.total);

  // The one-rank reference on the same lattice with the plain Updater.
  if (comm.size() == 1) {
    su2::GaugeField<Space, Real> whole(Space(), global);
    su2::Updater<Space, Real> plain(whole.space(), up);
    whole.hot_start(3);
    for (int i = 0; i < opt.warmup; ++i) plain.heatbath_sweep(whole);
    for (const bool heatbath : {true, false}) {
      Kokkos::fence();
      const double t0 = MPI_Wtime();
      for (int i = 0; i < opt.sweeps; ++i) {
        if (heatbath)
          plain.heatbath_sweep(whole);
        else
          plain.overrelaxation_sweep(whole);
      }
      Kokkos::fence();
      const double s = MPI_Wtime() - t0;
      const double rate = links * opt.sweeps / s / 1e9;
      std::printf("%-5s %5d %-9s %-15s %-13s %-6s %6d %9.4f %10.4f %10.4f %7s %9s %s\n",
                  heatbath ? "HB" : "OR", 1, "1rank", d.global_text().c_str(),
                  d.global_text().c_str(), precision, opt.sweeps, s, rate, rate, "-", "-", "-");
    }
  }
}

int usage(const char* why) {
  std::fprintf(stderr,
               "bench_su2_mpi: %s\nusage: mpiexec -n R bench_su2_mpi (--local L0,L1,L2,L3 | "
               "--global N0,N1,N2,N3) [--grid P0,..] [--precision float|double|both] "
               "[--sweeps 20] [--warmup 2] [--beta 2.3] "
               "[--transport auto|nccl|mpi_direct|mpi_staged] "
               "[--no-overlap]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  parallel::Environment environment;
  environment.initialize_mpi(argc, argv);
  std::vector<std::string> kokkos_args{argv[0]};
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a.rfind("--kokkos-", 0) == 0) {
      kokkos_args.push_back(a);
    } else if (a == "--local" && more) {
      opt.local = parse_list(argv[++i]);
    } else if (a == "--global" && more) {
      opt.global = parse_list(argv[++i]);
    } else if (a == "--grid" && more) {
      opt.grid = parse_list(argv[++i]);
    } else if (a == "--precision" && more) {
      const std::string v = argv[++i];
      if (v == "both")
        opt.precisions = {"float", "double"};
      else if (v == "float" || v == "double")
        opt.precisions = {v};
      else
        return usage("--precision expects float, double or both");
    } else if (a == "--sweeps" && more) {
      opt.sweeps = std::atoi(argv[++i]);
    } else if (a == "--warmup" && more) {
      opt.warmup = std::atoi(argv[++i]);
    } else if (a == "--beta" && more) {
      opt.beta = std::atof(argv[++i]);
    } else if (a == "--no-overlap") {
      opt.overlap = false;
    } else if (a == "--transport" && more) {
      try {
        opt.transport = parallel::parse_halo_transport(argv[++i]);
      } catch (const std::invalid_argument& e) {
        return usage(e.what());
      }
    } else {
      return usage(("unknown or incomplete option " + a).c_str());
    }
  }
  if (opt.local.empty() == opt.global.empty())
    return usage("give exactly one of --local, --global");
  if (opt.sweeps < 1) return usage("--sweeps must be >= 1");
  environment.initialize_kokkos(kokkos_args);
  const parallel::Communicator comm = environment.world();
  try {
    std::vector<int> global = opt.global, grid = opt.grid;
    if (!opt.local.empty()) {
      if (grid.empty()) grid = weak_grid(opt.local, comm.size());
      if (grid.size() != opt.local.size()) return usage("--grid needs one entry per direction");
      global.resize(opt.local.size());
      for (std::size_t mu = 0; mu < global.size(); ++mu) global[mu] = opt.local[mu] * grid[mu];
    }
    const DeviceInfo info = default_device_info();
    if (comm.is_root()) {
      std::printf(
          "# bench_su2_mpi: %s on %s, Kokkos %s, %d MPI rank(s), %s scaling, beta %g, %s\n",
          info.backend.c_str(), info.device.c_str(), info.kokkos_version.c_str(), comm.size(),
          opt.local.empty() ? "strong" : "weak", opt.beta,
          opt.overlap ? "exchange overlapped with the inner update" : "exchange after each pass");
      std::printf(
          "# rate: 10^9 link updates/s (D V links per sweep); halo: fraction of the time "
          "in the halo exchange (slowest rank); MB: halo bytes sent per sweep and rank\n");
      std::printf("%-5s %5s %-9s %-15s %-13s %-6s %6s %9s %10s %10s %7s %9s %s\n", "sweep", "ranks",
                  "grid", "global", "local", "prec", "sweeps", "seconds", "rate", "rate/rank",
                  "halo", "MB", "transport");
    }
    for (const std::string& p : opt.precisions) {
      if (p == "float")
        run_precision<float>(opt, comm, global, grid, "float");
      else
        run_precision<double>(opt, comm, global, grid, "double");
    }
  } catch (const std::exception& e) {
    if (comm.is_root()) std::fprintf(stderr, "bench_su2_mpi: %s\n", e.what());
    return 2;
  }
  return 0;
}

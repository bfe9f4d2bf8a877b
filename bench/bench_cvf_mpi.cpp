// Benchmark of the CVF Metropolis MC step split into z-slabs over MPI ranks (one GPU each):
// strong scaling at fixed L. Run it under mpiexec with 1, 2, 4 ranks and compare the rows.
//
// Per L and Metropolis kernel: the wall time of full MC steps (volume move, eta update, six
// arm passes with their halo planes) on the whole lattice, as ns per molecule per step
// (total molecules, so an ideal R-rank run shows 1/R of the one-rank value), the share of it
// spent in halo exchanges (rank 0), and how halos travel (parallel.halo_transport).
//
// Usage: mpiexec -n R bench_cvf_mpi [--sizes 256,512] [--steps 20] [--metropolis
// per_cell|packed|both] [--transport auto|nccl|mpi_direct|mpi_staged]
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "portamc/cvf/distributed_simulation.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/parallel_environment.hpp"

namespace {

using namespace portamc;

using portamc::bench::parse_list;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  parallel::Environment environment;
  environment.initialize_mpi(argc, argv);
  environment.initialize_kokkos({argv[0]});
  const parallel::Communicator& comm = environment.world();
  std::vector<int> sizes{64, 128};
  int steps = 20;
  parallel::HaloTransport transport = parallel::HaloTransport::automatic;
  std::vector<cvf::MetropolisKernel> kernels{cvf::MetropolisKernel::per_cell,
                                             cvf::MetropolisKernel::packed};
  // Bad values (a kernel or transport name, a number) end the run with exit 2 on every rank.
  for (int k = 1; k < argc; ++k) {
    try {
      if (!std::strcmp(argv[k], "--sizes") && k + 1 < argc) {
        sizes = parse_list(argv[++k]);
      } else if (!std::strcmp(argv[k], "--steps") && k + 1 < argc) {
        steps = std::stoi(argv[++k]);
      } else if (!std::strcmp(argv[k], "--metropolis") && k + 1 < argc) {
        const std::string which = argv[++k];
        if (which != "both") kernels = {cvf::metropolis_kernel_from_string(which)};
      } else if (!std::strcmp(argv[k], "--transport") && k + 1 < argc) {
        transport = parallel::parse_halo_transport(argv[++k]);
      } else {
        if (comm.is_root())
          std::fprintf(stderr,
                       "usage: bench_cvf_mpi [--sizes 256,512] [--steps 20] "
                       "[--metropolis per_cell|packed|both] "
                       "[--transport auto|nccl|mpi_direct|mpi_staged]\n");
        return 2;
      }
    } catch (const std::exception& e) {
      if (comm.is_root()) std::fprintf(stderr, "bench_cvf_mpi: %s: %s\n", argv[k], e.what());
      return 2;
    }
  }
  if (comm.is_root())
    std::printf("%5s %6s %14s %9s %16s %12s %10s  %s\n", "ranks", "L", "molecules", "kernel",
                "ns/molecule/step", "s/step", "halo share", "halo transport");
  for (const int L : sizes) {
    for (const cvf::MetropolisKernel kernel : kernels) {
      cvf::SimulationSettings s;
      s.L = L;
      s.seed = 1;
      s.initial_v_iso = 1.2;
      s.volume.delta = 1.0 / std::sqrt(static_cast<double>(L) * L * L);
      s.metropolis_kernel = kernel;
      try {
        cvf::SlabDecomposition::validate(L, comm.size());
      } catch (const std::invalid_argument& e) {
        if (comm.is_root()) std::printf("L = %d skipped: %s\n", L, e.what());
        continue;
      }
      cvf::DistributedSimulation<Kokkos::DefaultExecutionSpace> simulation(
          Kokkos::DefaultExecutionSpace(), cvf::ModelParameters{}, cvf::StatePoint{250.0, 0.1}, s,
          comm, transport);
      for (int k = 0; k < 2; ++k) simulation.step();  // warm-up
      Kokkos::fence();
      comm.barrier();
      const double halo_before = simulation.halo_seconds();
      const double start = seconds_now();
      for (int k = 0; k < steps; ++k) simulation.step();
      Kokkos::fence();
      comm.barrier();
      const double seconds = comm.max(seconds_now() - start);
      const double halo = simulation.halo_seconds() - halo_before;
      const double molecules = static_cast<double>(L) * L * L;
      if (comm.is_root())
        std::printf("%5d %6d %14.0f %9s %16.4f %12.4e %9.1f%%  %s\n", comm.size(), L, molecules,
                    cvf::to_string(kernel), seconds * 1e9 / (molecules * steps), seconds / steps,
                    100.0 * halo / seconds, simulation.halo_transport().c_str());
    }
  }
  return 0;
}

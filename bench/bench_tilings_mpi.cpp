// Benchmark of the domino and lozenge Glauber chains split into row slabs over MPI ranks (one
// GPU each; DistributedGlauber, docs/models/tilings.md "Several GPUs (MPI)"). Run it under
// mpiexec with 1, 2, 4 ranks and compare the rows.
//
// strong: fixed domains (Aztec diamonds of order n, hexagons n x n x n), total flip attempts
//         per second of the whole chain (ideal: R times the one-rank value);
// weak:   rectangles of rows_per_rank * R rows and `cols` columns (the same slab per rank),
//         attempts per second per rank (ideal: constant).
// Also the share of the wall time that rank 0 spent in halo exchanges, and how halos travel.
// --tiles R,C,K adds rows "(tiled)" for the dominoes: DistributedTiledDomino, K steps per
// launch in tiles of R x C faces (one exchange per launch; slabs need R rows per rank).
//
// Usage: mpiexec -n R bench_tilings_mpi [--aztec 1024,4096] [--hexagon 512] [--weak 2048x8192]
//        [--steps 200] [--transport auto|nccl|mpi_direct|mpi_staged] [--tiles 32,64,16]
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_args.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/parallel_environment.hpp"
#include "portamc/tilings/engine/detail/distributed_glauber.hpp"
#include "portamc/tilings/engine/detail/distributed_tiled_domino.hpp"

namespace {

using namespace portamc;
using namespace portamc::tilings;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Times `steps` steps of the chain made by make() (nothing if it throws std::invalid_argument:
/// a decomposition the ranks cannot make).
template <class Make>
void measure(const std::string& label, const Make& make, int steps, bool per_rank,
             parallel::HaloTransport transport, const parallel::Communicator& comm) {
  using Chain = std::decay_t<decltype(*make())>;
  std::unique_ptr<Chain> made;
  try {
    made = make();
  } catch (const std::invalid_argument& e) {
    if (comm.is_root()) std::printf("%s skipped: %s\n", label.c_str(), e.what());
    return;
  }
  Chain& chain = *made;
  chain.set_halo_transport(transport);
  chain.run_steps(static_cast<std::uint64_t>(2 * Chain::classes));  // warm-up
  Kokkos::fence();
  comm.barrier();
  const double halo_before = chain.halo_seconds();
  const std::uint64_t before = chain.steps_done();
  const double start = seconds_now();
  const std::uint64_t attempts = chain.run_steps(static_cast<std::uint64_t>(steps));
  Kokkos::fence();
  comm.barrier();
  const double seconds = comm.max(seconds_now() - start);
  steps = static_cast<int>(chain.steps_done() - before);  // tiled: whole launches
  const double halo = chain.halo_seconds() - halo_before;
  const double rate = static_cast<double>(attempts) / seconds / (per_rank ? comm.size() : 1);
  if (comm.is_root())
    std::printf("%5d %-28s %12.3e %12s %12.4e %9.1f%%  %s\n", comm.size(), label.c_str(), rate,
                per_rank ? "per rank" : "total", seconds / steps, 100.0 * halo / seconds,
                chain.transport().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  parallel::Environment environment;
  environment.initialize_mpi(argc, argv);
  environment.initialize_kokkos({argv[0]});
  const parallel::Communicator& comm = environment.world();
  std::vector<int> aztec{256}, hexagon{128};
  int rows_per_rank = 256, cols = 1024, steps = 100;
  parallel::HaloTransport transport = parallel::HaloTransport::automatic;
  TileSchedule tiles;
  for (int k = 1; k < argc; ++k) {
    if (!std::strcmp(argv[k], "--aztec") && k + 1 < argc) {
      aztec = bench::parse_list(argv[++k]);
    } else if (!std::strcmp(argv[k], "--hexagon") && k + 1 < argc) {
      hexagon = bench::parse_list(argv[++k]);
    } else if (!std::strcmp(argv[k], "--weak") && k + 1 < argc &&
               std::sscanf(argv[k + 1], "%dx%d", &rows_per_rank, &cols) == 2) {
      ++k;
    } else if (!std::strcmp(argv[k], "--tiles") && k + 1 < argc &&
               std::sscanf(argv[k + 1], "%d,%d,%d", &tiles.tile_rows, &tiles.tile_cols,
                           &tiles.substeps) == 3) {
      ++k;
    } else if (!std::strcmp(argv[k], "--steps") && k + 1 < argc) {
      steps = std::stoi(argv[++k]);
    } else if (!std::strcmp(argv[k], "--transport") && k + 1 < argc) {
      try {
        transport = parallel::parse_halo_transport(argv[++k]);
      } catch (const std::invalid_argument& e) {
        if (comm.is_root()) std::fprintf(stderr, "bench_tilings_mpi: --transport: %s\n", e.what());
        return 2;
      }
    } else {
      if (comm.is_root())
        std::fprintf(stderr,
                     "usage: bench_tilings_mpi [--aztec 1024,4096] [--hexagon 512] "
                     "[--weak ROWSxCOLS per rank] [--steps 100] "
                     "[--transport auto|nccl|mpi_direct|mpi_staged] [--tiles R,C,K]\n");
      return 2;
    }
  }
  if (comm.is_root())
    std::printf("%5s %-28s %12s %12s %12s %10s  %s\n", "ranks", "domain", "attempts/s", "",
                "s/step", "halo share", "halo transport");
  const auto untiled = [&](auto domain, auto weights) {
    using Model = std::conditional_t<std::is_same_v<decltype(domain), SquareDomain>, DominoModel,
                                     LozengeModel>;
    return [&comm, domain, weights] {
      return std::make_unique<DistributedGlauber<Model, Kokkos::DefaultExecutionSpace>>(
          Kokkos::DefaultExecutionSpace(), domain, weights, 1, comm);
    };
  };
  const auto tiled = [&](const SquareDomain& domain) {
    return [&comm, &tiles, domain] {
      return std::make_unique<DistributedTiledDomino<Kokkos::DefaultExecutionSpace>>(
          Kokkos::DefaultExecutionSpace(), domain, DominoWeights::uniform(), 1, tiles, comm);
    };
  };
  for (const int n : aztec) {
    const std::string label = "aztec_diamond " + std::to_string(n);
    const SquareDomain domain = SquareDomain::aztec_diamond(n);
    measure(label, untiled(domain, DominoWeights::uniform()), steps, false, transport, comm);
    if (tiles.tiled()) measure(label + " (tiled)", tiled(domain), steps, false, transport, comm);
  }
  for (const int n : hexagon)
    measure("hexagon " + std::to_string(n),
            untiled(TriangularDomain::hexagon(n, n, n), LozengeWeights{}), steps, false, transport,
            comm);
  const int rows = rows_per_rank * comm.size();
  const std::string label = "rectangle " + std::to_string(rows) + "x" + std::to_string(cols);
  const SquareDomain rectangle = SquareDomain::rectangle(rows, cols);
  measure(label, untiled(rectangle, DominoWeights::uniform()), steps, true, transport, comm);
  if (tiles.tiled()) measure(label + " (tiled)", tiled(rectangle), steps, true, transport, comm);
  return 0;
}

// GoogleTest entry point of the MPI tests, run under mpiexec: MPI around Kokkos as in the apps
// (parallel::Environment); every rank runs every test, and all ranks exit with the worst result
// so that a failure on any rank fails the run. Only rank 0 reports, besides failures.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

#include "portamc/parallel_environment.hpp"

int main(int argc, char** argv) {
  portamc::parallel::Environment environment;
  environment.initialize_mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  try {
    environment.initialize_kokkos({argv[0]});
  } catch (const std::runtime_error& e) {  // no GPU for a GPU build: reported as skipped
    if (environment.world().is_root()) std::printf("%s\n", e.what());
    return 0;
  }
  const portamc::parallel::Communicator& world = environment.world();
  if (!world.is_root()) {
    // Keep failure messages of every rank, drop the other ranks' progress lines.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int local = RUN_ALL_TESTS();
  const auto worst = world.max(static_cast<std::int64_t>(local));
  if (world.is_root() && worst != 0 && local == 0)
    std::fprintf(stderr, "a test failed on another rank (see its messages above)\n");
  return static_cast<int>(worst);
}

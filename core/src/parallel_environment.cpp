#include "portamc/parallel_environment.hpp"

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "portamc/device_info.hpp"
#include "portamc/kokkos_devices.hpp"

namespace portamc::parallel {

int Environment::launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return 0;
}

void Environment::initialize_mpi(int& argc, char**& argv) {
#ifdef PORTAMC_HAVE_MPI
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    finalize_mpi_ = true;
  }
  world_ = Communicator(MPI_COMM_WORLD);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_.rank(), MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
#else
  (void)argc, (void)argv;
#endif
}

Environment::~Environment() {
  if (kokkos_initialized_) Kokkos::finalize();
#ifdef PORTAMC_HAVE_MPI
  if (finalize_mpi_) MPI_Finalize();
#endif
}

void Environment::initialize_kokkos(std::vector<std::string> arguments) {
  if (!default_execution_space_available()) throw std::runtime_error(no_device_message());
  bool chosen = std::getenv("KOKKOS_DEVICE_ID") != nullptr;
  for (const std::string& a : arguments)
    for (const char* option : {"--kokkos-device-id", "--kokkos-map-device-id-by",
                               "--kokkos-num-devices", "--kokkos-ndevices"})
      if (a.rfind(option, 0) == 0) chosen = true;
  const int devices = visible_device_count();
  if (!chosen && devices > 0) {
    device_id_ = local_rank_ % devices;
    arguments.push_back("--kokkos-device-id=" + std::to_string(device_id_));
  }
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(arguments.size());
  Kokkos::initialize(argc, argv.data());
  kokkos_initialized_ = true;
}

void Environment::abort(int code) const {
  std::cerr.flush();
#ifdef PORTAMC_HAVE_MPI
  if (world_.size() > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

}  // namespace portamc::parallel

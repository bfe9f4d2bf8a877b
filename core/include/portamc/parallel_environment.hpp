#pragma once
// MPI and Kokkos for the lifetime of a process (apps, MPI test drivers) in the order MPI asks
// for: MPI_Init_thread before Kokkos::initialize, Kokkos::finalize before MPI_Finalize. One
// rank per GPU: each rank takes the device of its rank among the ranks of its node.
#include <string>
#include <vector>

#include "portamc/parallel.hpp"

namespace portamc::parallel {

class Environment {
 public:
  Environment() = default;
  /// Initialises MPI (MPI_THREAD_FUNNELED: only the main thread calls MPI, while Kokkos may
  /// run host threads) unless it already is; nothing without MPI. Apps call it only once their
  /// input is valid: --help, --version and bad input then cost no MPI start-up (a singleton
  /// MPI_Init takes a good fraction of a second), and under mpiexec every rank exits alike.
  void initialize_mpi(int& argc, char**& argv);
  /// Kokkos::finalize if initialize_kokkos ran, then MPI_Finalize if MPI was initialised here.
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  const Communicator& world() const { return world_; }
  /// This rank among the ranks of its node (MPI_Comm_split_type SHARED); 0 without MPI.
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }

  /// Initialises Kokkos with `arguments` (argv[0] first, then --kokkos-* options). When Kokkos
  /// runs on GPUs and the arguments choose no device (--kokkos-device-id,
  /// --kokkos-map-device-id-by, --kokkos-num-devices, or KOKKOS_DEVICE_ID in the environment),
  /// adds --kokkos-device-id = local_rank mod the visible devices. Throws std::runtime_error
  /// (no_device_message(), device_info.hpp) instead of letting Kokkos abort when the default
  /// execution space has no device on this machine.
  void initialize_kokkos(std::vector<std::string> arguments);
  /// The device id this rank asked Kokkos for; -1 when it left the choice to Kokkos.
  int device_id() const { return device_id_; }

  /// The rank the MPI launcher gave this process (Open MPI, PMI, PMIx, Slurm variables), for
  /// deciding who prints before MPI is initialised; 0 when none is set.
  static int launcher_rank();

  /// Ends the process with `code`. With more than one rank MPI_Abort ends all of them: a rank
  /// that fails on its own must not leave the others waiting in a collective.
  [[noreturn]] void abort(int code) const;

 private:
  Communicator world_;
  int local_rank_ = 0;
  int local_size_ = 1;
  int device_id_ = -1;
  bool finalize_mpi_ = false;
  bool kokkos_initialized_ = false;
};

}  // namespace portamc::parallel

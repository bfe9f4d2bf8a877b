#include "portamc/su2/halo_exchange.hpp"

#include "portamc/parallel.hpp"
#include "portamc/su2/distributed_field.hpp"

namespace portamc::su2 {

bool resolve_gpu_aware(GpuAwareMpi option, bool host_memory) {
  if (host_memory) return false;  // nothing to be aware of: MPI reads host memory anyway
  switch (option) {
    case GpuAwareMpi::on:
      return true;
    case GpuAwareMpi::off:
      return false;
    default:
      return parallel::mpi_accepts_device_memory();
  }
}

}  // namespace portamc::su2

#include "portamc/su2/halo_exchange.hpp"

#include "portamc/su2/distributed_field.hpp"

#if defined(PORTAMC_HAVE_MPI) && defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace portamc::su2 {

bool mpi_reports_gpu_support() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

bool resolve_gpu_aware(GpuAwareMpi option, bool host_memory) {
  if (host_memory) return false;  // nothing to be aware of: MPI reads host memory anyway
  switch (option) {
    case GpuAwareMpi::on:
      return true;
    case GpuAwareMpi::off:
      return false;
    default:
      return mpi_reports_gpu_support();
  }
}

}  // namespace portamc::su2

// Instantiates the bibone sampler on the default execution space, so the library build checks
// the kernel compiles for every enabled backend (nvcc included).
#include "portamc/tilings/detail/bibone_glauber.hpp"

namespace portamc::tilings {
template class BiboneGlauber<Kokkos::DefaultExecutionSpace>;
}  // namespace portamc::tilings

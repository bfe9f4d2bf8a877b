// Instantiates the bibone sampler on every execution space of the build, so the library build
// checks the kernel compiles for every enabled backend (nvcc included).
#include "portamc/tilings/engine/detail/bibone_glauber.hpp"
#include "portamc/backends.hpp"

namespace portamc::tilings {
#define PORTAMC_TILINGS_INSTANTIATE_(Space) template class BiboneGlauber<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_INSTANTIATE_)
#undef PORTAMC_TILINGS_INSTANTIATE_
}  // namespace portamc::tilings

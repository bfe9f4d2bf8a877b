// Ensemble of the washboard in double, on the default execution space and, where it differs,
// the default host space (one file per precision so that builds compile them in parallel).
#include "portamc/josephson/detail/ensemble_impl.hpp"

namespace portamc::josephson {

template class Ensemble<Kokkos::DefaultExecutionSpace, double, WashboardForce>;
#ifdef PORTAMC_HAVE_DEVICE_BACKEND
template class Ensemble<Kokkos::DefaultHostExecutionSpace, double, WashboardForce>;
#endif

}  // namespace portamc::josephson

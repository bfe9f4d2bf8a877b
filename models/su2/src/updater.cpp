#include "updater_impl.hpp"

namespace portamc::su2 {

template class Updater<Kokkos::DefaultExecutionSpace, float>;
template class Updater<Kokkos::DefaultExecutionSpace, double>;
#ifdef PORTAMC_HAVE_DEVICE_BACKEND
template class Updater<Kokkos::DefaultHostExecutionSpace, float>;
template class Updater<Kokkos::DefaultHostExecutionSpace, double>;
#endif

}  // namespace portamc::su2

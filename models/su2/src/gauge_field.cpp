#include "gauge_field_impl.hpp"

namespace portamc::su2 {

template class GaugeField<Kokkos::DefaultExecutionSpace, float>;
template class GaugeField<Kokkos::DefaultExecutionSpace, double>;
#ifdef PORTAMC_HAVE_DEVICE_BACKEND
template class GaugeField<Kokkos::DefaultHostExecutionSpace, float>;
template class GaugeField<Kokkos::DefaultHostExecutionSpace, double>;
#endif

}  // namespace portamc::su2

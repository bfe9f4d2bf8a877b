#include "wilson_loops_impl.hpp"

namespace portamc::su2 {

template std::vector<double> wilson_loops(const GaugeField<Kokkos::DefaultExecutionSpace, float>&,
                                          int, int);
template std::vector<double> wilson_loops(const GaugeField<Kokkos::DefaultExecutionSpace, double>&,
                                          int, int);
#ifdef PORTAMC_HAVE_DEVICE_BACKEND
template std::vector<double> wilson_loops(
    const GaugeField<Kokkos::DefaultHostExecutionSpace, float>&, int, int);
template std::vector<double> wilson_loops(
    const GaugeField<Kokkos::DefaultHostExecutionSpace, double>&, int, int);
#endif

}  // namespace portamc::su2

#include "distributed_field_impl.hpp"

namespace portamc::su2 {

template class DistributedField<Kokkos::DefaultExecutionSpace, float>;
template class DistributedField<Kokkos::DefaultExecutionSpace, double>;
template class DistributedUpdater<Kokkos::DefaultExecutionSpace, float>;
template class DistributedUpdater<Kokkos::DefaultExecutionSpace, double>;

}  // namespace portamc::su2

#include "distributed_field_impl.hpp"

namespace portamc::su2 {

#define PORTAMC_SU2_DISTRIBUTED_(Space)            \
  template class DistributedField<Space, float>;   \
  template class DistributedField<Space, double>;  \
  template class DistributedUpdater<Space, float>; \
  template class DistributedUpdater<Space, double>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_DISTRIBUTED_)
#undef PORTAMC_SU2_DISTRIBUTED_

}  // namespace portamc::su2

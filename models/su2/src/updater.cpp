#include "updater_impl.hpp"

namespace portamc::su2 {

#define PORTAMC_SU2_UPDATER_(Space)     \
  template class Updater<Space, float>; \
  template class Updater<Space, double>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_UPDATER_)
#undef PORTAMC_SU2_UPDATER_

}  // namespace portamc::su2

// Ensemble of the washboard in double, on every execution space of the build (one file per
// precision so that builds compile them in parallel).
#include "portamc/josephson/detail/ensemble_impl.hpp"

namespace portamc::josephson {

#define PORTAMC_JOSEPHSON_INSTANTIATE_(Space) \
  template class Ensemble<Space, double, WashboardForce>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_JOSEPHSON_INSTANTIATE_)
#undef PORTAMC_JOSEPHSON_INSTANTIATE_

}  // namespace portamc::josephson

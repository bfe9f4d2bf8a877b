#include "wilson_loops_impl.hpp"

namespace portamc::su2 {

#define PORTAMC_SU2_WILSON_LOOPS_(Space)                                                         \
  template std::vector<double> wilson_loops(const Space&, const GaugeField<Space, float>&, int,  \
                                            int);                                                \
  template std::vector<double> wilson_loops(const Space&, const GaugeField<Space, double>&, int, \
                                            int);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_WILSON_LOOPS_)
#undef PORTAMC_SU2_WILSON_LOOPS_

}  // namespace portamc::su2

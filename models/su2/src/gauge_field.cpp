#include "gauge_field_impl.hpp"

namespace portamc::su2 {

PlaquetteAverage plaquette_average(double spatial_sum, double temporal_sum, const Geometry& whole) {
  const auto ns = static_cast<double>(whole.spatial_plaquettes());
  const auto nt = static_cast<double>(whole.temporal_plaquettes());
  PlaquetteAverage avg;
  avg.spatial = ns > 0 ? 1.0 - spatial_sum / ns : std::numeric_limits<double>::quiet_NaN();
  avg.temporal = 1.0 - temporal_sum / nt;
  avg.total = 1.0 - (spatial_sum + temporal_sum) / (ns + nt);
  return avg;
}

#define PORTAMC_SU2_GAUGE_FIELD_(Space)    \
  template class GaugeField<Space, float>; \
  template class GaugeField<Space, double>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_GAUGE_FIELD_)
#undef PORTAMC_SU2_GAUGE_FIELD_

}  // namespace portamc::su2

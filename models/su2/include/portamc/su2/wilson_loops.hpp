#pragma once
// On-axis Wilson loops W(R,T) = < ½ Tr U(R x T) >: the input of the static potential
// V(R) = -lim_T log(W(R,T+1)/W(R,T)) (potential.hpp). Measured on the device of the field,
// products in double and sums in double whatever the storage precision.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <vector>

#include "portamc/su2/gauge_field.hpp"

namespace portamc::su2 {

/// On-axis Wilson loops W(R,T) = < ½ Tr (R x T loop) >, averaged over all sites and the D-1
/// spatial directions 0..D-2 (T along direction D-1), for R = 1..r_max, T = 1..t_max.
/// Returns r_max*t_max doubles, index (R-1)*t_max + (T-1). The kernels run on the instance
/// `space` (give it field.space(), or one ordered with it).
///
/// Throws std::invalid_argument, naming the limit, if r_max < 1, t_max < 1,
/// r_max > min_{i<D-1} N_i / 2, t_max > N_{D-1} / 2 (beyond half the lattice a loop and its
/// periodic image are no longer distinct), or D < 2.
template <class Space, class Real>
std::vector<double> wilson_loops(const Space& space, const GaugeField<Space, Real>& field,
                                 int r_max, int t_max);

/// Index of W(R,T) in the vector returned by wilson_loops.
inline std::size_t wilson_loop_index(int r, int t, int t_max) {
  return static_cast<std::size_t>(r - 1) * static_cast<std::size_t>(t_max) +
         static_cast<std::size_t>(t - 1);
}

#define PORTAMC_SU2_WILSON_LOOPS_(Space)                                                           \
  extern template std::vector<double> wilson_loops(const Space&, const GaugeField<Space, float>&,  \
                                                   int, int);                                      \
  extern template std::vector<double> wilson_loops(const Space&, const GaugeField<Space, double>&, \
                                                   int, int);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_WILSON_LOOPS_)
#undef PORTAMC_SU2_WILSON_LOOPS_

}  // namespace portamc::su2

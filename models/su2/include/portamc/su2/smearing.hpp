#pragma once
// APE smearing of the spatial links, to raise the overlap of Wilson loops with the ground
// state of the static potential (cleaner effective masses at small T).
//
// Convention (one iteration, every spatial link at once, from the previous iteration's
// links; temporal links are never changed):
//   U_i(x) <- Proj_SU(2)[ (1 - alpha) U_i(x) + alpha / (2 (D-2)) * sum_{j != i, j < D-1}
//             ( U_j(x) U_i(x+j) U_j(x+i)^dagger + U_j(x-j)^dagger U_i(x-j) U_j(x-j+i) ) ]
// i.e. the 2(D-2) spatial staples are averaged, so alpha is the weight of the staples and
// alpha = 0 leaves the links unchanged (alpha = 0 or 0 iterations return an exact copy). A
// sum of SU(2) matrices is a non-negative multiple of an SU(2) matrix, so Proj_SU(2) is the
// normalisation of the quaternion, exact (no iteration as in SU(3)).
//
// The paper (shared/papers/su2-lattice-gauge-gpu.txt, eq. 19, whose formula the text
// extract lost) smears 25 times in the spatial directions with the form
// Proj[ U + w * sum of staples ]. Because the projection removes any positive overall factor,
// that is this convention with alpha = 2(D-2) w / (1 + 2(D-2) w) (4D: alpha = 4w / (1 + 4w);
// w = 0.2, the value we recall from the original paper but could not check in the extract,
// gives alpha = 4/9). The staple sum includes only spatial directions in both, since only
// spatial links are smeared.
#include <Kokkos_Core.hpp>

#include "portamc/su2/gauge_field.hpp"

namespace portamc::su2 {

/// APE-smeared copy of `field` (see the convention above): `iterations` Jacobi steps with
/// staple weight alpha, run on the instance `space` (give it field.space(), or one ordered with
/// it), which also runs the kernels of the returned field; the input is unchanged. Throws
/// std::invalid_argument if alpha is not in [0, 1], iterations < 0, or D = 2 (no spatial
/// staples exist).
template <class Space, class Real>
GaugeField<Space, Real> ape_smear(const Space& space, const GaugeField<Space, Real>& field,
                                  double alpha, int iterations);

#define PORTAMC_SU2_APE_SMEAR_(Space)                              \
  extern template GaugeField<Space, float> ape_smear(              \
      const Space&, const GaugeField<Space, float>&, double, int); \
  extern template GaugeField<Space, double> ape_smear(             \
      const Space&, const GaugeField<Space, double>&, double, int);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_APE_SMEAR_)
#undef PORTAMC_SU2_APE_SMEAR_

}  // namespace portamc::su2

#pragma once
// The exact law of v_iso when J_sigma = 0, the reference of the volume-move tests.
//
// With J_sigma = 0 the sigma/eta sum at fixed v_iso is closed: every eta configuration allows
// exactly 2 N edges, each a pair of q^2 states of which q bond with weight e^{J_eff/t}, and the
// other 2 N variables are free, so
//   Z_sigma(v) = [q^2 - q + q e^{J_eff/t}]^{2N} q^{2N}   where HBs may form at v,
//   Z_sigma(v) = q^{6N}                                  where the system is gas-like
// (times the constant number of eta configurations). The density of v_iso on v >= 1 is then
//   exp(-N (u_LJ(v) + p v) / t) Z_sigma(v) [v^N with the Jacobian],
// which jumps at the gas threshold; 1D quadrature (midpoint rule on a fine grid split at the
// threshold) gives its moments.
#include <cstdint>

#include "portamc/cvf/parameters.hpp"

namespace portamc::cvf::exact {

/// log of the unnormalised density of v_iso (requires J_sigma = 0); -infinity below v = 1.
double log_volume_weight(const ModelParameters& parameters, const ReducedStatePoint& point,
                         std::int64_t molecules, double v_iso);

struct VolumeLaw {
  double mean = 0;             ///< <v_iso>
  double variance = 0;         ///< Var v_iso
  double gas_probability = 0;  ///< P(no HBs allowed), i.e. v_iso >= gas threshold
  double v_max = 0;            ///< upper end of the quadrature (density below e^-60 of its peak)
};

/// Throws std::invalid_argument unless J_sigma = 0 and p > 0 (else the law is not normalisable).
VolumeLaw volume_law(const ModelParameters& parameters, const ReducedStatePoint& point,
                     std::int64_t molecules, int points = 100000);

}  // namespace portamc::cvf::exact

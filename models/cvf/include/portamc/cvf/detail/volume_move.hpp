#pragma once
// Metropolis move of the isotropic volume per cell v_iso (host, double precision): the paper's
// step 1 of an MC step, sigma and eta fixed.
//
// v' = v + delta (2 u - 1) with u from draw(seed, purpose_cvf_volume, 0, step) (words 0, 1;
// words 2, 3 decide acceptance). v' < 1 is rejected (hard core). With N_HB the effective
// bond count (zero when the system is gas-like),
//   Delta H = N (u_LJ(v') - u_LJ(v)) + p N (v' - v) - J_eff (N_HB(v') - N_HB(v)),
// where the last term is nonzero only when v and v' lie on different sides of the gas
// threshold; only then is the raw count N_HB needed (a device read), so the usual move never
// waits for the device. Acceptance min(1, exp(-Delta H / t + N ln(v'/v))), the logarithm only
// with ModelParameters::volume_jacobian.
#include <cstdint>
#include <functional>

#include "portamc/cvf/parameters.hpp"

namespace portamc::cvf {

struct VolumeMoveSettings {
  bool enabled = true;  ///< false keeps v_iso fixed (tests of the sigma/eta parts)
  double delta = 0.05;  ///< largest change of v_iso per move, in v0
};

/// Throws std::invalid_argument when the move is on and delta is not positive and finite.
void validate(const VolumeMoveSettings& settings);

/// log of the acceptance ratio of v -> v' (u = u_LJ per molecule at each), or -infinity for
/// v' < 1. `n_hb_raw` is only called when the gas criterion differs between v and v'.
double volume_log_acceptance(const ModelParameters& parameters, const ReducedStatePoint& point,
                             std::int64_t molecules, double v_old, double u_old, double v_new,
                             double u_new, const std::function<std::int64_t()>& n_hb_raw);

struct VolumeMoveOutcome {
  bool accepted = false;
  double v_iso = 0;  ///< after the move
  double u = 0;      ///< u_LJ(v_iso) after the move
};

/// One move from (v_iso, u_LJ(v_iso)) with the draws of MC step `step`.
VolumeMoveOutcome volume_move(const ModelParameters& parameters, const ReducedStatePoint& point,
                              std::int64_t molecules, double v_iso, double u_iso, double delta,
                              std::uint64_t seed, std::uint64_t step,
                              const std::function<std::int64_t()>& n_hb_raw);

}  // namespace portamc::cvf

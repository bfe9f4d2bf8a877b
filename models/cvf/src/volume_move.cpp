#include "portamc/cvf/detail/volume_move.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/cvf/lennard_jones.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf {

void validate(const VolumeMoveSettings& settings) {
  if (settings.enabled && !(settings.delta > 0 && std::isfinite(settings.delta)))
    throw std::invalid_argument(
        "the volume move's largest change delta (v0 per molecule) must be positive, got " +
        std::to_string(settings.delta));
}

double volume_log_acceptance(const ModelParameters& m, const ReducedStatePoint& point,
                             std::int64_t molecules, double v_old, double u_old, double v_new,
                             double u_new, const std::function<std::int64_t()>& n_hb_raw) {
  if (!(v_new >= 1.0)) return -std::numeric_limits<double>::infinity();
  const double n = static_cast<double>(molecules);
  double delta_h = n * (u_new - u_old) + point.p * n * (v_new - v_old);
  const bool bonds_old = hydrogen_bonds_allowed(m, v_old);
  const bool bonds_new = hydrogen_bonds_allowed(m, v_new);
  if (bonds_old != bonds_new) {
    const double j_eff = effective_coupling(m, point);
    const double n_hb = static_cast<double>(n_hb_raw());
    // -J_eff N_HB switches on (entering the liquid side) or off (leaving it).
    delta_h += bonds_new ? -j_eff * n_hb : j_eff * n_hb;
  }
  double log_ratio = -delta_h / point.t;
  if (m.volume_jacobian) log_ratio += n * std::log(v_new / v_old);
  return log_ratio;
}

VolumeMoveOutcome volume_move(const ModelParameters& m, const ReducedStatePoint& point,
                              std::int64_t molecules, double v_iso, double u_iso, double delta,
                              std::uint64_t seed, std::uint64_t step,
                              const std::function<std::int64_t()>& n_hb_raw) {
  const rng::Block w = rng::draw(seed, rng::purpose_cvf_volume, 0, step);
  const double v_new = v_iso + delta * (2.0 * rng::uniform_double(w[0], w[1]) - 1.0);
  if (!(v_new >= 1.0)) return {false, v_iso, u_iso};
  const double u_new = lennard_jones_energy_per_molecule(m, v_new);
  const double log_ratio =
      volume_log_acceptance(m, point, molecules, v_iso, u_iso, v_new, u_new, n_hb_raw);
  if (log_ratio >= 0 || rng::uniform_double(w[2], w[3]) < std::exp(log_ratio))
    return {true, v_new, u_new};
  return {false, v_iso, u_iso};
}

}  // namespace portamc::cvf

#include "portamc/cvf/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace portamc::cvf {

void validate(const ReducedStatePoint& point) {
  if (!(point.t > 0) || !std::isfinite(point.t))
    throw std::invalid_argument("the reduced temperature t = kT/epsilon must be positive, got " +
                                std::to_string(point.t));
  if (!std::isfinite(point.p)) throw std::invalid_argument("the reduced pressure p must be finite");
}

Measurement make_measurement(const ModelParameters& m, const ReducedStatePoint& point,
                             std::int64_t molecules, double v_iso, double u_lj, BondCounts counts,
                             const std::array<std::int64_t, arms>& sigma_counts) {
  Measurement out;
  out.n_hb_raw = counts.hb;
  out.n_hb = hydrogen_bonds_allowed(m, v_iso) ? counts.hb : 0;
  out.n_sigma = counts.sigma;
  out.sigma_counts = sigma_counts;
  const double n = static_cast<double>(molecules);
  out.order_parameter =
      static_cast<double>(*std::max_element(sigma_counts.begin(), sigma_counts.end())) / (6 * n);
  out.v_iso = v_iso;
  out.volume = v_iso + m.v_hb * static_cast<double>(out.n_hb) / n;
  out.energy = u_lj - m.J * static_cast<double>(out.n_hb) / n -
               m.J_sigma * static_cast<double>(out.n_sigma) / n;
  out.enthalpy = out.energy + point.p * out.volume;
  return out;
}

}  // namespace portamc::cvf

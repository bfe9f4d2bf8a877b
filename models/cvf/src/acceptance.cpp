#include "portamc/cvf/detail/acceptance.hpp"

#include <cmath>
#include <stdexcept>

namespace portamc::cvf {

std::uint64_t acceptance_threshold(double log_ratio) {
  if (std::isnan(log_ratio)) throw std::invalid_argument("acceptance_threshold: NaN log ratio");
  if (log_ratio >= 0) return always_accept;
  // ldexp is exact, and the product is below 2^32, so floor fits and never reaches always.
  return static_cast<std::uint64_t>(std::floor(std::ldexp(std::exp(log_ratio), 32)));
}

namespace {
void require_temperature(double t) {
  if (!(t > 0) || !std::isfinite(t))
    throw std::invalid_argument("the reduced temperature t = kT/epsilon must be positive");
}
}  // namespace

SigmaAcceptance sigma_acceptance(double bond_coupling, double J_sigma, double t) {
  require_temperature(t);
  SigmaAcceptance table{};
  for (int hb = -SigmaAcceptance::hb_range; hb <= SigmaAcceptance::hb_range; ++hb)
    for (int s = -SigmaAcceptance::sigma_range; s <= SigmaAcceptance::sigma_range; ++s) {
      const double delta_h = -bond_coupling * hb - J_sigma * s;
      table.threshold[(hb + SigmaAcceptance::hb_range) * SigmaAcceptance::sigma_values + s +
                      SigmaAcceptance::sigma_range] = acceptance_threshold(-delta_h / t);
    }
  return table;
}

EtaAcceptance eta_acceptance(double bond_coupling, double t) {
  require_temperature(t);
  EtaAcceptance table{};
  for (int hb = -EtaAcceptance::hb_range; hb <= EtaAcceptance::hb_range; ++hb)
    table.threshold[hb + EtaAcceptance::hb_range] = acceptance_threshold(bond_coupling * hb / t);
  return table;
}

}  // namespace portamc::cvf

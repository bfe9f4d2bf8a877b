#include <cmath>
#include <stdexcept>
#include <string>

#include "portamc/su2/updater.hpp"

namespace portamc::su2 {

void UpdateParameters::validate() const {
  auto fail = [](const std::string& what) { throw std::invalid_argument("su2 update: " + what); };
  if (!(beta > 0) || !std::isfinite(beta))
    fail("beta = " + std::to_string(beta) + ": expected a finite coupling > 0");
  if (heatbath_sweeps < 0)
    fail("heatbath_sweeps = " + std::to_string(heatbath_sweeps) + ": expected >= 0");
  if (overrelaxation_sweeps < 0)
    fail("overrelaxation_sweeps = " + std::to_string(overrelaxation_sweeps) + ": expected >= 0");
  if (method != HeatbathMethod::automatic && method != HeatbathMethod::creutz &&
      method != HeatbathMethod::kennedy_pendleton)
    fail("unknown heatbath method " + std::to_string(static_cast<int>(method)));
  if (heatbath_variant != HeatbathKernelVariant::per_link &&
      heatbath_variant != HeatbathKernelVariant::retry_queue)
    fail("unknown heatbath kernel variant " + std::to_string(static_cast<int>(heatbath_variant)));
  if (!(kp_threshold >= 0))
    fail("kp_threshold = " + std::to_string(kp_threshold) + ": expected >= 0");
  if (max_attempts < 1 || max_attempts > max_heatbath_attempts)
    fail("max_attempts = " + std::to_string(max_attempts) + ": expected 1 .. " +
         std::to_string(max_heatbath_attempts));
  if (reunitarise_every < 0)
    fail("reunitarise_every = " + std::to_string(reunitarise_every) + ": expected >= 0");
}

}  // namespace portamc::su2

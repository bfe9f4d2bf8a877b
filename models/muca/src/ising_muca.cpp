#include "ising_muca_impl.hpp"

#include <cmath>

#include "portamc/device_info.hpp"

namespace portamc::muca {

long long default_walkers(const std::string& backend) {
  const DeviceInfo info = device_info(backend);
  // On a CPU one group of walkers per thread (see LaunchPlan::walkers_per_thread).
  return info.is_gpu ? info.resident_threads() : 8LL * info.concurrency;
}

std::uint32_t acceptance_threshold(double log_weight_from, double log_weight_to) {
  constexpr double two31 = 2147483648.0;
  const double delta = log_weight_to - log_weight_from;
  if (!(delta < 0)) return std::uint32_t{1} << 31;  // uphill in weight: always accept
  const double p = std::exp(delta);
  return static_cast<std::uint32_t>(std::floor(p * two31));
}

#define PORTAMC_MUCA_INSTANTIATE_(Space) template class IsingMuca<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_INSTANTIATE_)
#undef PORTAMC_MUCA_INSTANTIATE_

}  // namespace portamc::muca

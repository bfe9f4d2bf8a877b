#include "portamc/cvf/lennard_jones.hpp"

#include <cmath>
#include <limits>

#include "portamc/cvf/parameters.hpp"

namespace portamc::cvf {

double lennard_jones_energy_per_molecule(const ModelParameters& parameters, double v_iso) {
  if (!(v_iso >= 1.0)) return std::numeric_limits<double>::infinity();
  const double r = std::cbrt(v_iso);
  // |n| r <= cutoff with r >= 1 bounds every component of n by the cutoff.
  const int reach = static_cast<int>(std::floor(parameters.cutoff / r));
  const double cutoff_squared = parameters.cutoff * parameters.cutoff;
  double sum = 0;
  for (int i = -reach; i <= reach; ++i)
    for (int j = -reach; j <= reach; ++j)
      for (int k = -reach; k <= reach; ++k) {
        const int n2 = i * i + j * j + k * k;
        if (n2 == 0) continue;
        const double d2 = n2 * r * r;  // squared distance in r0^2
        if (d2 > cutoff_squared) continue;
        const double inv6 = 1.0 / (d2 * d2 * d2);
        sum += 4.0 * (inv6 * inv6 - inv6);
      }
  return 0.5 * sum;
}

}  // namespace portamc::cvf

#include "portamc/su2/detail/geometry.hpp"

#include <stdexcept>
#include <string>

namespace portamc::su2 {

Geometry::Geometry(const std::vector<int>& extents) {
  const int d = static_cast<int>(extents.size());
  if (d < 2 || d > max_dimensions)
    throw std::invalid_argument("su2 lattice: " + std::to_string(d) +
                                " extents given; expected 2, 3 or 4 (N_0 .. N_{D-1})");
  // V/2 < 2^32 keeps the 32-bit coordinate arithmetic of the kernels exact.
  constexpr index_type max_volume = index_type{1} << 33;
  index_type stride = 1;
  for (int mu = 0; mu < d; ++mu) {
    const int n = extents[mu];
    if (n < 2 || n % 2 != 0)
      throw std::invalid_argument("su2 lattice: extent " + std::to_string(n) + " in direction " +
                                  std::to_string(mu) +
                                  " is invalid; the checkerboard update needs an even extent >= 2");
    extent_[mu] = n;
    stride_[mu] = stride;
    stride *= n;
    if (stride >= max_volume)
      throw std::invalid_argument("su2 lattice: more than 2^33 sites are not supported");
  }
  for (int mu = d; mu < max_dimensions; ++mu) extent_[mu] = 1, stride_[mu] = stride;
  dims_ = d;
  volume_ = stride;
  half_divisor_[0] = FastDivisor(static_cast<std::uint32_t>(extent_[0] / 2));
  for (int mu = 1; mu < max_dimensions; ++mu)
    half_divisor_[mu] = FastDivisor(static_cast<std::uint32_t>(extent_[mu]));
}

}  // namespace portamc::su2

#include "portamc/su2/detail/single_link_sampler.hpp"

#include <stdexcept>
#include <string>

#include "portamc/backends.hpp"

namespace portamc::su2 {

template <class ExecutionSpace, class Real>
SingleLinkSamples sample_single_link(const ExecutionSpace& space, HeatbathMethod method,
                                     double alpha, std::uint64_t n, std::uint64_t seed,
                                     int max_attempts, double kp_threshold) {
  if (!(alpha >= 0)) throw std::invalid_argument("sample_single_link: alpha must be >= 0");
  if (max_attempts < 1 || max_attempts > max_heatbath_attempts)
    throw std::invalid_argument(
        "sample_single_link: max_attempts = " + std::to_string(max_attempts) + " is outside 1 .. " +
        std::to_string(max_heatbath_attempts));
  using memory_space = typename ExecutionSpace::memory_space;
  SingleLinkKernel<ExecutionSpace, Real> kernel{
      Kokkos::View<Real*, memory_space>("su2::single_link_y", n),
      Kokkos::View<int*, memory_space>("su2::single_link_attempts", n),
      Kokkos::View<Real*, memory_space>("su2::single_link_axis_cos", n),
      Kokkos::View<std::uint32_t*, memory_space>("su2::single_link_axis_phi", n),
      method,
      static_cast<Real>(alpha),
      static_cast<Real>(kp_threshold),
      max_attempts,
      seed};
  Kokkos::parallel_for("su2::single_link_sampler",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                           space, 0, static_cast<std::int64_t>(n)),
                       kernel);
  space.fence();
  auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel.y);
  auto attempts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel.attempts);
  auto axis_cos = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel.axis_cos_uniform);
  auto axis_phi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kernel.axis_phi_word);
  SingleLinkSamples out;
  out.a0.reserve(n);
  out.axis_cos_uniform.reserve(n);
  out.axis_phi_word.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    out.attempts += static_cast<std::uint64_t>(attempts(i));
    if (y(i) < 0) {
      ++out.failures;
    } else {
      out.a0.push_back(1.0 - static_cast<double>(y(i)));
      out.axis_cos_uniform.push_back(static_cast<double>(axis_cos(i)));
      out.axis_phi_word.push_back(axis_phi(i));
    }
  }
  return out;
}

#define PORTAMC_SU2_SINGLE_LINK(Space)                                                  \
  template SingleLinkSamples sample_single_link<Space, float>(                          \
      const Space&, HeatbathMethod, double, std::uint64_t, std::uint64_t, int, double); \
  template SingleLinkSamples sample_single_link<Space, double>(                         \
      const Space&, HeatbathMethod, double, std::uint64_t, std::uint64_t, int, double);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_SINGLE_LINK)
#undef PORTAMC_SU2_SINGLE_LINK

}  // namespace portamc::su2

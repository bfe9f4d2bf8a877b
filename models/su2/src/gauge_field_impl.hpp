#pragma once
// Definitions of GaugeField's members; included once by gauge_field.cpp, which instantiates
// the class for float and double on every execution space of the build.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/device_info.hpp"
#include "portamc/su2/detail/field_kernels.hpp"
#include "portamc/su2/gauge_field.hpp"

namespace portamc::su2 {

namespace detail {

inline std::string extents_string(const std::vector<int>& extents) {
  std::string s;
  for (std::size_t i = 0; i < extents.size(); ++i) s += (i ? "x" : "") + std::to_string(extents[i]);
  return s;
}

}  // namespace detail

template <class ExecutionSpace, class Real>
std::size_t GaugeField<ExecutionSpace, Real>::device_bytes(const std::vector<int>& extents) {
  const Geometry g(extents);
  return static_cast<std::size_t>(g.link_count()) * 4 * sizeof(Real);
}

template <class ExecutionSpace, class Real>
GaugeField<ExecutionSpace, Real>::GaugeField(const ExecutionSpace& space,
                                             const std::vector<int>& extents)
    : geometry_(extents), space_(space) {
  require_memory<ExecutionSpace>(device_bytes(extents),
                                 "an SU(2) field on " + detail::extents_string(extents) + " in " +
                                     (std::is_same_v<Real, float> ? "float" : "double"));
  links_ = link_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "su2::links"),
                     chunks_per_link<Real>, geometry_.link_count());
  cold_start();
}

template <class ExecutionSpace, class Real>
std::vector<int> GaugeField<ExecutionSpace, Real>::extents() const {
  std::vector<int> e(geometry_.dimensions());
  for (int mu = 0; mu < geometry_.dimensions(); ++mu) e[mu] = geometry_.extent(mu);
  return e;
}

template <class ExecutionSpace, class Real>
void GaugeField<ExecutionSpace, Real>::cold_start() {
  // The unit link (1, 0, 0, 0): a0 = 1 is the first real of chunk 0.
  LinkChunk<Real> one{}, zero{};
  one.v[0] = Real(1);
  Kokkos::deep_copy(space_, links_, zero);
  Kokkos::deep_copy(space_, Kokkos::subview(links_, 0, Kokkos::ALL), one);
  space_.fence();
}

template <class ExecutionSpace, class Real>
void GaugeField<ExecutionSpace, Real>::hot_start(std::uint64_t seed) {
  HotStartKernel<ExecutionSpace, Real> kernel{links_, geometry_, seed};
  Kokkos::parallel_for("su2::hot_start",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                           space_, 0, geometry_.link_count()),
                       kernel);
  space_.fence();
}

template <class ExecutionSpace, class Real>
void GaugeField<ExecutionSpace, Real>::from_canonical(const std::vector<double>& canonical) {
  const auto expected = static_cast<std::size_t>(geometry_.link_count()) * 4;
  if (canonical.size() != expected)
    throw std::invalid_argument("su2 configuration: " + std::to_string(canonical.size()) +
                                " numbers given, the " + detail::extents_string(extents()) +
                                " lattice needs " + std::to_string(expected) + " (V D 4)");
  auto host = Kokkos::create_mirror_view(links_);
  const int d = geometry_.dimensions();
  for (std::int64_t site = 0; site < geometry_.volume(); ++site) {
    const int parity = geometry_.parity(site);
    for (int mu = 0; mu < d; ++mu) {
      const std::int64_t slot = geometry_.slot(mu, parity, site);
      const double* q = &canonical[static_cast<std::size_t>(geometry_.global_link(site, mu)) * 4];
      store_link(host, slot, Quaternion<double>{q[0], q[1], q[2], q[3]});
    }
  }
  Kokkos::deep_copy(space_, links_, host);
  space_.fence();
}

template <class ExecutionSpace, class Real>
std::vector<double> GaugeField<ExecutionSpace, Real>::to_canonical() const {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), links_);
  std::vector<double> canonical(static_cast<std::size_t>(geometry_.link_count()) * 4);
  const int d = geometry_.dimensions();
  for (std::int64_t site = 0; site < geometry_.volume(); ++site) {
    const int parity = geometry_.parity(site);
    for (int mu = 0; mu < d; ++mu) {
      const std::int64_t slot = geometry_.slot(mu, parity, site);
      double* q = &canonical[static_cast<std::size_t>(geometry_.global_link(site, mu)) * 4];
      const Quaternion<double> u = load_link(host, slot).template cast<double>();
      q[0] = u.a0, q[1] = u.a1, q[2] = u.a2, q[3] = u.a3;
    }
  }
  return canonical;
}

template <class ExecutionSpace, class Real>
void GaugeField<ExecutionSpace, Real>::reunitarise() {
  Kokkos::parallel_for("su2::reunitarise",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                           space_, 0, geometry_.link_count()),
                       ReunitariseKernel<ExecutionSpace, Real>{links_});
}

template <class ExecutionSpace, class Real>
double GaugeField<ExecutionSpace, Real>::max_unitarity_violation() const {
  double worst = 0;
  Kokkos::parallel_reduce("su2::unitarity",
                          Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                              space_, 0, geometry_.link_count()),
                          UnitarityKernel<ExecutionSpace, Real>{links_},
                          Kokkos::Max<double>(worst));
  return worst;
}

template <class ExecutionSpace, class Real>
PlaquetteAverage GaugeField<ExecutionSpace, Real>::plaquette() const {
  PlaquetteSums sums;
  dispatch_dimensions(geometry_.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    Kokkos::parallel_reduce("su2::plaquette",
                            Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                                space_, 0, geometry_.volume()),
                            PlaquetteKernel<ExecutionSpace, Real, D>{links_, geometry_},
                            Kokkos::Sum<PlaquetteSums>(sums));
  });
  return plaquette_average(sums.spatial, sums.temporal, geometry_);
}

template <class ExecutionSpace, class Real>
double GaugeField<ExecutionSpace, Real>::action(double beta) const {
  PlaquetteSums sums;
  dispatch_dimensions(geometry_.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    Kokkos::parallel_reduce("su2::action",
                            Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                                space_, 0, geometry_.volume()),
                            PlaquetteKernel<ExecutionSpace, Real, D>{links_, geometry_},
                            Kokkos::Sum<PlaquetteSums>(sums));
  });
  return beta * (sums.spatial + sums.temporal);
}

template <class ExecutionSpace, class Real>
double GaugeField<ExecutionSpace, Real>::polyakov_loop() const {
  double sum = 0;
  dispatch_dimensions(geometry_.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    PolyakovKernel<ExecutionSpace, Real, D> kernel{links_, {}, geometry_};
    Kokkos::parallel_reduce("su2::polyakov_loop",
                            Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                                space_, 0, geometry_.spatial_volume()),
                            kernel, sum);
  });
  return sum / static_cast<double>(geometry_.spatial_volume());
}

template <class ExecutionSpace, class Real>
std::vector<double> GaugeField<ExecutionSpace, Real>::polyakov_loops() const {
  Kokkos::View<double*, memory_space> values("su2::polyakov_loops", geometry_.spatial_volume());
  dispatch_dimensions(geometry_.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    PolyakovKernel<ExecutionSpace, Real, D> kernel{links_, values, geometry_};
    double sum = 0;
    Kokkos::parallel_reduce("su2::polyakov_loops",
                            Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                                space_, 0, geometry_.spatial_volume()),
                            kernel, sum);
  });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  return std::vector<double>(host.data(), host.data() + host.extent(0));
}

template <class ExecutionSpace, class Real>
void GaugeField<ExecutionSpace, Real>::random_gauge_transformation(std::uint64_t seed,
                                                                   std::uint64_t step) {
  dispatch_dimensions(geometry_.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    Kokkos::parallel_for(
        "su2::gauge_transformation",
        Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
            space_, 0, geometry_.link_count()),
        GaugeTransformKernel<ExecutionSpace, Real, D>{links_, geometry_, seed, step});
  });
  space_.fence();
}

}  // namespace portamc::su2

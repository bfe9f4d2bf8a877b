#pragma once
// Exact integer observables of a CVF configuration, reduced on the device: the raw hydrogen-bond
// count N_HB (allowed edges with sigma_ij == sigma_ji, whatever the volume), the cooperative
// count N_sigma (equal pairs among each molecule's six sigma) and the histogram of sigma values.
// The kernels keep N_HB and N_sigma up to date incrementally; these full recounts are the
// reference the tests compare with and what other algorithms (Swendsen-Wang) call after they
// change sigma.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>

#include "portamc/cvf/detail/fast_index.hpp"
#include "portamc/cvf/geometry.hpp"

namespace portamc::cvf {

/// {N_HB (raw), N_sigma}, or a change of them. A reduction value type: the volatile overloads
/// are what Kokkos 3.x's reducers call; Kokkos 4 uses the plain ones.
struct BondCounts {
  std::int64_t hb = 0;
  std::int64_t sigma = 0;

  BondCounts() = default;
  KOKKOS_INLINE_FUNCTION BondCounts(std::int64_t h, std::int64_t s) : hb(h), sigma(s) {}
  KOKKOS_INLINE_FUNCTION BondCounts(const BondCounts& o) : hb(o.hb), sigma(o.sigma) {}
  KOKKOS_INLINE_FUNCTION BondCounts(const volatile BondCounts& o) : hb(o.hb), sigma(o.sigma) {}
  KOKKOS_INLINE_FUNCTION BondCounts& operator=(const BondCounts& o) {
    hb = o.hb;
    sigma = o.sigma;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator=(const BondCounts& o) volatile {
    hb = o.hb;
    sigma = o.sigma;
  }
  KOKKOS_INLINE_FUNCTION BondCounts& operator+=(const BondCounts& o) {
    hb += o.hb;
    sigma += o.sigma;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile BondCounts& o) volatile {
    // Separate reads and writes: C++20 deprecates compound assignment to volatile.
    hb = hb + o.hb;
    sigma = sigma + o.sigma;
  }
};

/// Number of sigma in each of the six states, a reduction value type like BondCounts.
struct SigmaHistogram {
  std::int64_t count[arms] = {0, 0, 0, 0, 0, 0};

  SigmaHistogram() = default;
  KOKKOS_INLINE_FUNCTION SigmaHistogram(const SigmaHistogram& o) {
    for (int q = 0; q < arms; ++q) count[q] = o.count[q];
  }
  KOKKOS_INLINE_FUNCTION SigmaHistogram(const volatile SigmaHistogram& o) {
    for (int q = 0; q < arms; ++q) count[q] = o.count[q];
  }
  KOKKOS_INLINE_FUNCTION SigmaHistogram& operator=(const SigmaHistogram& o) {
    for (int q = 0; q < arms; ++q) count[q] = o.count[q];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator=(const SigmaHistogram& o) volatile {
    for (int q = 0; q < arms; ++q) count[q] = o.count[q];
  }
  KOKKOS_INLINE_FUNCTION SigmaHistogram& operator+=(const SigmaHistogram& o) {
    for (int q = 0; q < arms; ++q) count[q] += o.count[q];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile SigmaHistogram& o) volatile {
    for (int q = 0; q < arms; ++q) count[q] = count[q] + o.count[q];
  }
};

}  // namespace portamc::cvf

namespace Kokkos {
template <>
struct reduction_identity<portamc::cvf::BondCounts> {
  KOKKOS_FORCEINLINE_FUNCTION static portamc::cvf::BondCounts sum() {
    return portamc::cvf::BondCounts();
  }
};
template <>
struct reduction_identity<portamc::cvf::SigmaHistogram> {
  KOKKOS_FORCEINLINE_FUNCTION static portamc::cvf::SigmaHistogram sum() {
    return portamc::cvf::SigmaHistogram();
  }
};
}  // namespace Kokkos

namespace portamc::cvf {

namespace detail {

/// Each cell's six-arm pairs and its three + edges, so every edge is counted once.
template <class SigmaView, class CubeView>
struct CountBonds {
  FastCoordinates fast;
  Geometry g;
  SigmaView sigma;
  CubeView cube_state;
  std::int64_t N;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t cell, BondCounts& acc) const {
    const Coordinates c = fast.cell(cell);
    int s[arms];
    for (int a = 0; a < arms; ++a) s[a] = sigma(a * N + cell);
    std::int64_t pairs = 0;
    for (int a = 0; a < arms; ++a)
      for (int b = a + 1; b < arms; ++b) pairs += s[a] == s[b];
    std::int64_t bonds = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const int arm = 2 * axis;
      const std::int64_t nbr = g.neighbour(c, arm);
      if (s[arm] == sigma((arm + 1) * N + nbr) && edge_allowed(g, cube_state, c, arm)) ++bonds;
    }
    acc += BondCounts(bonds, pairs);
  }
};

template <class SigmaView>
struct CountSigmaStates {
  SigmaView sigma;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t v, SigmaHistogram& acc) const {
    // Compare with every state: a dynamic index would put acc in local memory on GPUs.
    const int s = sigma(v);
    for (int q = 0; q < arms; ++q) acc.count[q] += s == q;
  }
};

}  // namespace detail

/// Full recount of {N_HB raw, N_sigma} on `space`: each cell counts its six-arm pairs and its
/// three + edges, so every edge is seen once.
template <class Space, class SigmaView, class CubeView>
BondCounts count_bonds(const Space& space, const Geometry& g, const SigmaView& sigma,
                       const CubeView& cube_state) {
  BondCounts total;
  Kokkos::parallel_reduce(
      "cvf::count_bonds",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, g.cells()),
      detail::CountBonds<SigmaView, CubeView>{FastCoordinates(g), g, sigma, cube_state, g.cells()},
      Kokkos::Sum<BondCounts>(total));
  return total;
}

/// Number of bonding variables in each state q = 0..5, counted on `space`.
template <class Space, class SigmaView>
std::array<std::int64_t, arms> sigma_histogram(const Space& space, const Geometry& g,
                                               const SigmaView& sigma) {
  SigmaHistogram total;
  Kokkos::parallel_reduce(
      "cvf::sigma_histogram",
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, g.variables()),
      detail::CountSigmaStates<SigmaView>{sigma}, Kokkos::Sum<SigmaHistogram>(total));
  std::array<std::int64_t, arms> out{};
  for (int q = 0; q < arms; ++q) out[q] = total.count[q];
  return out;
}

}  // namespace portamc::cvf

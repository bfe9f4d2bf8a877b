#pragma once
// Small aggregate results of parallel_reduce (Kokkos::Sum over a struct): several sums in
// one pass, no atomics. Kokkos needs operator+= (a volatile overload for Kokkos 3.x
// backends) and a reduction_identity specialisation.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace portamc::su2 {

/// Bookkeeping of heatbath link updates. links and failures are always counted; attempts
/// and kennedy_pendleton only with UpdateParameters::count_attempts (else 0).
struct HeatbathTally {
  std::uint64_t links = 0;              ///< link updates tried
  std::uint64_t attempts = 0;           ///< a0 proposals made
  std::uint64_t failures = 0;           ///< links left unchanged: max_attempts exhausted
  std::uint64_t kennedy_pendleton = 0;  ///< links drawn by Kennedy–Pendleton (others: Creutz)

  KOKKOS_INLINE_FUNCTION HeatbathTally& operator+=(const HeatbathTally& o) {
    links += o.links, attempts += o.attempts, failures += o.failures;
    kennedy_pendleton += o.kennedy_pendleton;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile HeatbathTally& o) volatile {
    // Separate statements: C++20 deprecates using the value of a volatile assignment.
    links = links + o.links;
    attempts = attempts + o.attempts;
    failures = failures + o.failures;
    kennedy_pendleton = kennedy_pendleton + o.kennedy_pendleton;
  }
};

/// Sums of (1 - ½ Tr U_p) over plaquettes, split by plane type. Summing the deficit rather
/// than ½ Tr keeps full relative precision close to the cold configuration.
struct PlaquetteSums {
  double spatial = 0;   ///< planes (mu, nu), nu < D-1
  double temporal = 0;  ///< planes (mu, D-1)

  KOKKOS_INLINE_FUNCTION PlaquetteSums& operator+=(const PlaquetteSums& o) {
    spatial += o.spatial, temporal += o.temporal;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile PlaquetteSums& o) volatile {
    spatial = spatial + o.spatial;
    temporal = temporal + o.temporal;
  }
};

/// Gradient-flow observables (flow.cpp): sums over sites of the plaquette deficits, of the
/// clover |c|^2 / 8 and of the unnormalised charge density.
struct FlowSums {
  double plaquette = 0, clover = 0, charge = 0;
  KOKKOS_INLINE_FUNCTION FlowSums& operator+=(const FlowSums& o) {
    plaquette += o.plaquette, clover += o.clover, charge += o.charge;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile FlowSums& o) volatile {
    plaquette = plaquette + o.plaquette;
    clover = clover + o.clover;
    charge = charge + o.charge;
  }
};

}  // namespace portamc::su2

namespace Kokkos {
template <>
struct reduction_identity<portamc::su2::HeatbathTally> {
  KOKKOS_FORCEINLINE_FUNCTION static portamc::su2::HeatbathTally sum() { return {}; }
};
template <>
struct reduction_identity<portamc::su2::PlaquetteSums> {
  KOKKOS_FORCEINLINE_FUNCTION static portamc::su2::PlaquetteSums sum() { return {}; }
};
template <>
struct reduction_identity<portamc::su2::FlowSums> {
  KOKKOS_FORCEINLINE_FUNCTION static portamc::su2::FlowSums sum() { return {}; }
};
}  // namespace Kokkos

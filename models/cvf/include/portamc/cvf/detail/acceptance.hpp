#pragma once
// Integer Metropolis acceptance for the CVF kernels. The enthalpy changes of a sigma flip and of
// a cube (eta) move take a few discrete values, so the host tabulates min(1, exp(-Delta H / t))
// once as 32-bit fixed-point thresholds and the device compares one random word with an entry:
// no floating point on the device, hence bitwise-identical states on Serial, OpenMP and CUDA.
//
// A move is accepted iff word < threshold, word uniform in [0, 2^32): the acceptance probability
// is exactly threshold / 2^32, with threshold = 2^32 (always) where Delta H <= 0 and
// floor(2^32 exp(-Delta H / t)) otherwise.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace portamc::cvf {

struct ModelParameters;

inline constexpr std::uint64_t always_accept = std::uint64_t{1} << 32;

/// Threshold for acceptance probability min(1, exp(log_ratio)).
std::uint64_t acceptance_threshold(double log_ratio);

/// Sigma flip: Delta N_HB in -1..1 (one edge) and Delta N_sigma in -5..5 (five partners).
struct SigmaAcceptance {
  static constexpr int hb_range = 1;
  static constexpr int sigma_range = 5;
  static constexpr int sigma_values = 2 * sigma_range + 1;
  Kokkos::Array<std::uint64_t, 3 * sigma_values> threshold;

  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(int delta_hb, int delta_sigma) const {
    return threshold[(delta_hb + hb_range) * sigma_values + delta_sigma + sigma_range];
  }
  KOKKOS_INLINE_FUNCTION bool accept(int delta_hb, int delta_sigma, std::uint32_t word) const {
    return word < (*this)(delta_hb, delta_sigma);
  }
};

/// Cube move: Delta N_HB in -4..4 (a perfect matching has four edges).
struct EtaAcceptance {
  static constexpr int hb_range = 4;
  Kokkos::Array<std::uint64_t, 2 * hb_range + 1> threshold;

  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(int delta_hb) const {
    return threshold[delta_hb + hb_range];
  }
  KOKKOS_INLINE_FUNCTION bool accept(int delta_hb, std::uint32_t word) const {
    return word < (*this)(delta_hb);
  }
};

/// Delta H = -J_eff Delta N_HB - J_sigma Delta N_sigma, at temperature t (all in epsilon).
/// `bond_coupling` is the J_eff that acts at the current volume: zero in a gas-like system.
SigmaAcceptance sigma_acceptance(double bond_coupling, double J_sigma, double t);
/// Delta H = -J_eff Delta N_HB.
EtaAcceptance eta_acceptance(double bond_coupling, double t);

}  // namespace portamc::cvf

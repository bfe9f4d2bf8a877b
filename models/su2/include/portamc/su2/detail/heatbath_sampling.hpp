#pragma once
// The SU(2) heatbath's one-dimensional problem: draw a0 in [-1, 1] with density
//   P(a0) ∝ sqrt(1 - a0^2) exp(alpha a0),     alpha = beta k >= 0,
// where k V (V in SU(2)) is the link's staple sum. Two rejection methods, both written in
// y = 1 - a0 in [0, 2] (precise when a0 is close to 1, which float needs):
//
//  * Creutz (PRD 21 (1980) 2308, the paper's method): y from the exponential proposal
//    exp(-alpha y) on [0, 2] by inversion, accepted with probability sqrt(1 - a0^2).
//    Acceptance pi I1(alpha) / (2 sinh alpha): pi/4 at alpha -> 0, ~ sqrt(pi / 2 alpha) large.
//  * Kennedy–Pendleton (PLB 156 (1985) 393): y = (E + Z^2/2) / alpha ~ Gamma(3/2) / alpha,
//    accepted with probability sqrt(1 - y/2). Acceptance sqrt(2 pi alpha) I1(alpha) e^-alpha:
//    -> 1 for large alpha, -> 0 for small.
//
// The acceptances cross at alpha* = 1.6847 (both 0.711; the heatbath sampler test measures
// both curves), so `automatic` uses Kennedy–Pendleton for alpha >= alpha* and Creutz below:
// no link sees an acceptance under 0.711.
//
// Retries are bounded (max_attempts). When they run out the link keeps its old value and
// the update is counted as a failure. That keeps the chain exact: the failure probability
// depends on alpha only, not on the old link, so the update is a mixture of the identity
// and the exact heatbath, both of which leave the Boltzmann distribution invariant.
//
// Random words (one Philox call = 4 words) for the update of global link l in heatbath
// sweep n: call c = draw(seed, purpose_su2_heatbath, l, n * 256 + c), c = 0..255.
//   call 0: words 0, 1 the rotation axis; words 2, 3 Creutz's first attempt;
//   call c >= 1: one Kennedy–Pendleton attempt, or two Creutz attempts.
// Float Kennedy–Pendleton needs no call 0: a float uniform uses the top 24 bits of a word,
// so the accepted attempt's block still holds 32 unused bits (the low byte of each word),
// which give the axis angle phi; and given acceptance (r^2 <= q) the acceptance uniform r is
// uniform on [0, sqrt q), so r / sqrt q is a fresh uniform for the axis' cos theta. One
// Philox call per link instead of two, the whole cost of a float link update being ~1000
// instructions of which a call is ~80 (the sampler test checks the axis for uniformity and
// independence of a0).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "portamc/fast_math.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"
#include "portamc/su2/detail/random_su2.hpp"
#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

enum class HeatbathMethod : int {
  automatic = 0,  ///< Kennedy–Pendleton for alpha >= the threshold, else Creutz
  creutz = 1,
  kennedy_pendleton = 2,
};

/// alpha where the two acceptances are equal (root of pi / (1 - e^{-2 alpha}) = sqrt(2 pi alpha)).
inline constexpr double acceptance_crossover_alpha = 1.6847376360;

/// Philox calls available to one link update; bounds max_attempts.
inline constexpr int calls_per_link_update = 256;
inline constexpr int max_heatbath_attempts = calls_per_link_update - 1;

/// Exact acceptance probabilities of one attempt (host; for tests and documentation).
double creutz_acceptance(double alpha);
double kennedy_pendleton_acceptance(double alpha);
/// Exact probability that a0 lies in [lo, hi] under P(a0) ∝ sqrt(1 - a0^2) exp(alpha a0).
double a0_interval_probability(double alpha, double lo, double hi);

/// The random words of one link update.
struct LinkDraws {
  std::uint64_t seed;
  std::uint64_t link;
  std::uint64_t step_base;  ///< heatbath sweep * calls_per_link_update
  KOKKOS_INLINE_FUNCTION rng::Block operator()(int call) const {
    return rng::draw(seed, rng::purpose_su2_heatbath, link, step_base + call);
  }
};

template <class Real>
struct A0Draw {
  Real y;        ///< 1 - a0 when accepted
  int attempts;  ///< proposals made
  bool accepted;
  Real axis_cos_uniform = 0;        ///< uniform on [0, 1): the axis' cos theta (when accepted)
  std::uint32_t axis_phi_word = 0;  ///< uniform word: the axis' angle phi (when accepted)
};

/// Inversion of the truncated exponential exp(-alpha y) on [0, 2]:
/// y(u) = -log(1 - u c) / alpha with c = 1 - e^{-2 alpha}. Below alpha = 1e-3 a series in
/// z = u c keeps full precision down to alpha = 0 (where y = 2u, a0 uniform).
template <class Real>
struct CreutzProposal {
  Real alpha, c, c_over_alpha;
  bool series;

  KOKKOS_INLINE_FUNCTION explicit CreutzProposal(Real a) : alpha(a), series(a < Real(1e-3)) {
    if (series) {
      // (1 - e^{-2a}) / a = 2 - 2a + 4a^2/3 - 2a^3/3 + 4a^4/15 - 4a^5/45 + ...
      c_over_alpha =
          Real(2) +
          a * (Real(-2) + a * (Real(4.0 / 3) +
                               a * (Real(-2.0 / 3) + a * (Real(4.0 / 15) + a * Real(-4.0 / 45)))));
      c = a * c_over_alpha;
    } else {
      c = Real(1) - kmath::exp(Real(-2) * a);
      c_over_alpha = c / a;
    }
  }

  KOKKOS_INLINE_FUNCTION Real y(Real u) const {
    if (series) {
      // -log(1 - z) / z = 1 + z/2 + z^2/3 + ...; z <= 2e-3, so six terms reach 1e-17.
      const Real z = u * c;
      const Real s =
          Real(1) + z * (Real(0.5) + z * (Real(1.0 / 3) +
                                          z * (Real(0.25) + z * (Real(0.2) + z * Real(1.0 / 6)))));
      return u * c_over_alpha * s;
    }
    return -fastmath::log(Real(1) - u * c) / alpha;
  }
};

/// One Creutz proposal from words (wu, wv); on acceptance sets y.
template <class Real>
KOKKOS_INLINE_FUNCTION bool creutz_try(const CreutzProposal<Real>& proposal, std::uint32_t wu,
                                       std::uint32_t wv, Real& y) {
  const Real t = proposal.y(Uniform<Real>::closed0(wu));
  const Real v = Uniform<Real>::closed0(wv);
  // accept with probability sqrt(1 - a0^2) = sqrt(t (2 - t))
  if (v * v <= t * (Real(2) - t)) {
    y = t;
    return true;
  }
  return false;
}

/// One Kennedy–Pendleton proposal from a block of four words: y = t is accepted iff
/// r^2 <= q = 1 - t/2 (probability sqrt(1 - t/2), which also rejects t > 2).
template <class Real>
struct KennedyPendletonProposal {
  Real t, r, q;
  KOKKOS_INLINE_FUNCTION KennedyPendletonProposal(Real inverse_alpha, const rng::Block& b) {
    const Real c = fastmath::cos(two_pi<Real> * Uniform<Real>::closed0(b[1]));
    t = -(fastmath::log(Uniform<Real>::open0(b[0])) +
          c * c * fastmath::log(Uniform<Real>::open0(b[2]))) *
        inverse_alpha;
    r = Uniform<Real>::closed0(b[3]);
    q = Real(1) - Real(0.5) * t;
  }
  KOKKOS_INLINE_FUNCTION bool accepted() const { return r * r <= q; }
};

/// The low bytes of a block's words, which float uniforms leave unused, as one word.
KOKKOS_INLINE_FUNCTION std::uint32_t low_bytes_word(const rng::Block& b) {
  return (b[0] & 0xFFu) | ((b[1] & 0xFFu) << 8) | ((b[2] & 0xFFu) << 16) | (b[3] << 24);
}

/// Creutz's first proposal and the axis, both from call 0 (`first`) of the link.
template <class Real>
KOKKOS_INLINE_FUNCTION A0Draw<Real> creutz_first_attempt(const CreutzProposal<Real>& proposal,
                                                         const rng::Block& first) {
  A0Draw<Real> d{Real(0), 1, false};
  d.axis_cos_uniform = Uniform<Real>::closed0(first[0]);
  d.axis_phi_word = first[1];
  d.accepted = creutz_try(proposal, first[2], first[3], d.y);
  return d;
}

/// Creutz's proposals 2 .. max_attempts after a rejected first one (d.attempts == 1).
template <class Real>
KOKKOS_INLINE_FUNCTION void continue_creutz(const CreutzProposal<Real>& proposal,
                                            const LinkDraws& draws, int max_attempts,
                                            A0Draw<Real>& d) {
  for (int call = 1; !d.accepted && d.attempts < max_attempts; ++call) {
    const rng::Block b = draws(call);
    ++d.attempts;
    d.accepted = creutz_try(proposal, b[0], b[1], d.y);
    if (!d.accepted && d.attempts < max_attempts) {
      ++d.attempts;
      d.accepted = creutz_try(proposal, b[2], b[3], d.y);
    }
  }
}

/// Creutz's method with at most max_attempts proposals; `first` is call 0 of the link, whose
/// words 0 and 1 are the axis.
template <class Real>
KOKKOS_INLINE_FUNCTION A0Draw<Real> draw_creutz(Real alpha, const rng::Block& first,
                                                const LinkDraws& draws, int max_attempts) {
  const CreutzProposal<Real> proposal(alpha);
  A0Draw<Real> d = creutz_first_attempt(proposal, first);
  continue_creutz(proposal, draws, max_attempts, d);
  return d;
}

/// Kennedy–Pendleton proposal number d.attempts + 1, from call d.attempts + 1; on acceptance
/// sets y and, in float, the axis (see the header comment).
template <class Real>
KOKKOS_INLINE_FUNCTION void kennedy_pendleton_attempt(Real inverse_alpha, const LinkDraws& draws,
                                                      A0Draw<Real>& d) {
  ++d.attempts;
  const rng::Block b = draws(d.attempts);
  const KennedyPendletonProposal<Real> p(inverse_alpha, b);
  if (p.accepted()) {
    d.accepted = true;
    d.y = p.t;
    if constexpr (std::is_same_v<Real, float>) {
      d.axis_cos_uniform = p.q > 0 ? p.r * kmath::rsqrt(p.q) : 0.0f;
      d.axis_phi_word = low_bytes_word(b);
    }
  }
}

/// The axis of a Kennedy–Pendleton draw in double: call 0 (float took it from its block).
template <class Real>
KOKKOS_INLINE_FUNCTION void kennedy_pendleton_axis(const LinkDraws& draws, A0Draw<Real>& d) {
  if constexpr (!std::is_same_v<Real, float>) {
    const rng::Block first = draws(0);
    d.axis_cos_uniform = Uniform<Real>::closed0(first[0]);
    d.axis_phi_word = first[1];
  }
}

/// Kennedy–Pendleton proposals d.attempts + 1 .. max_attempts until one is accepted, then
/// the axis.
template <class Real>
KOKKOS_INLINE_FUNCTION void continue_kennedy_pendleton(Real alpha, const LinkDraws& draws,
                                                       int max_attempts, A0Draw<Real>& d) {
  const Real inverse_alpha = Real(1) / alpha;
  while (!d.accepted && d.attempts < max_attempts)
    kennedy_pendleton_attempt(inverse_alpha, draws, d);
  kennedy_pendleton_axis(draws, d);
}

/// Kennedy–Pendleton with at most max_attempts proposals (calls 1 .. max_attempts); the axis
/// from call 0 in double, from the accepted block in float (see the header comment).
template <class Real>
KOKKOS_INLINE_FUNCTION A0Draw<Real> draw_kennedy_pendleton(Real alpha, const LinkDraws& draws,
                                                           int max_attempts) {
  A0Draw<Real> d{Real(0), 0, false};
  continue_kennedy_pendleton(alpha, draws, max_attempts, d);
  return d;
}

/// Whether a link with staple strength alpha is drawn by Kennedy–Pendleton.
template <class Real>
KOKKOS_INLINE_FUNCTION bool uses_kennedy_pendleton(HeatbathMethod method, Real alpha,
                                                   Real threshold) {
  return method == HeatbathMethod::kennedy_pendleton ||
         (method == HeatbathMethod::automatic && alpha >= threshold);
}

/// a0 = 1 - y and the axis' random inputs for a link with staple strength alpha by the
/// chosen method: the one draw of a link update.
template <class Real>
KOKKOS_INLINE_FUNCTION A0Draw<Real> draw_a0(HeatbathMethod method, Real alpha, Real threshold,
                                            const LinkDraws& draws, int max_attempts) {
  return uses_kennedy_pendleton(method, alpha, threshold)
             ? draw_kennedy_pendleton(alpha, draws, max_attempts)
             : draw_creutz(alpha, draws(0), draws, max_attempts);
}

/// draw_a0 in two parts, for kernels that set the links rejected by their first proposal
/// aside and retry them together (queued_heatbath_kernel.hpp): draw_a0_first makes the first
/// proposal only; when it is rejected, draw_a0_rest makes proposals 2 .. max_attempts. Each
/// proposal uses the same random words as in draw_a0, so the pair returns draw_a0's result
/// bit for bit (attempt count included). `kp`: uses_kennedy_pendleton(method, alpha, ...).
template <class Real>
KOKKOS_INLINE_FUNCTION A0Draw<Real> draw_a0_first(bool kp, Real alpha, const LinkDraws& draws) {
  if (kp) {
    A0Draw<Real> d{Real(0), 0, false};
    kennedy_pendleton_attempt(Real(1) / alpha, draws, d);
    if (d.accepted) kennedy_pendleton_axis(draws, d);
    return d;
  }
  return creutz_first_attempt(CreutzProposal<Real>(alpha), draws(0));
}

/// Proposals 2 .. max_attempts of a link whose first proposal was rejected. Creutz's axis
/// words live in call 0, which is drawn again rather than carried along: Creutz links are
/// rare where retries matter (alpha >= alpha* takes Kennedy–Pendleton).
template <class Real>
KOKKOS_INLINE_FUNCTION A0Draw<Real> draw_a0_rest(bool kp, Real alpha, const LinkDraws& draws,
                                                 int max_attempts) {
  A0Draw<Real> d{Real(0), 1, false};
  if (kp) {
    continue_kennedy_pendleton(alpha, draws, max_attempts, d);
  } else {
    const CreutzProposal<Real> proposal(alpha);
    const rng::Block first = draws(0);
    d.axis_cos_uniform = Uniform<Real>::closed0(first[0]);
    d.axis_phi_word = first[1];
    continue_creutz(proposal, draws, max_attempts, d);
  }
  return d;
}

}  // namespace portamc::su2

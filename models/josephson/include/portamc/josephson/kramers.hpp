#pragma once
// Thermal escape rates from the well of the tilted washboard U(phi) = -V0 (cos phi + gamma phi)
// for the model's Langevin equation phi'' + beta phi' = -U'(phi) + xi, <xi xi'> = 2 beta theta
// delta (unit mass, energies in E_C, time in hbar/E_C). All formulas are leading order in
// theta / DeltaU: they need DeltaU >> theta (in practice DeltaU > ~5 theta) and lose their
// meaning as the barrier vanishes (gamma -> 1), where they stay finite (the prefactor goes to
// zero with omega0) but no longer describe the escape.
//
// Notation: omega0 = omega_b = sqrt(V0) (1 - gamma^2)^(1/4) (washboard.hpp), S_b = action of the
// orbit at the saddle energy, delta = beta S_b / theta = energy lost per oscillation at the
// barrier energy, in units of theta.
//
// The rate is for escape over the downhill barrier at pi - arcsin(gamma) only. The uphill
// barrier is higher by 2 pi gamma V0; near gamma = 0 the two are comparable and the total rate
// out of the well is up to twice the value given here (the simulations count only the downhill
// threshold, so this is the rate they measure as long as uphill escapes are rare).
//
// References: H. A. Kramers, Physica 7, 284 (1940); M. Büttiker, E. P. Harris and R. Landauer,
// Phys. Rev. B 28, 1268 (1983) (energy diffusion in the Josephson junction); V. I. Mel'nikov and
// S. V. Meshkov, J. Chem. Phys. 85, 1018 (1986); review: P. Hänggi, P. Talkner and M. Borkovec,
// Rev. Mod. Phys. 62, 251 (1990).

namespace portamc::josephson {

enum class RateFormula {
  // Smoluchowski limit, r = omega0 omega_b / (2 pi beta) exp(-DeltaU / theta). The exact
  // low-noise rate of the first-order (overdamped) equation beta phi' = -U' + xi; for the
  // second-order equation valid when beta >> omega_b.
  overdamped,
  // Kramers' spatial-diffusion rate, r = (omega0 / 2 pi) (sqrt(1 + kappa^2) - kappa)
  // exp(-DeltaU / theta), kappa = beta / (2 omega_b): moderate to strong damping, delta >> 1.
  // Tends to transition-state theory (omega0 / 2 pi) exp(-DeltaU / theta) as beta -> 0, which
  // overestimates the rate there, and to `overdamped` for beta >> omega_b.
  kramers_moderate,
  // Kramers' energy-diffusion rate, r = (omega0 / 2 pi) delta exp(-DeltaU / theta): weak
  // damping, delta << 1, where the replenishment of the energy near the barrier limits escape.
  energy_diffusion,
  // Mel'nikov–Meshkov turnover, r = A(delta) * r_kramers_moderate, A the depopulation factor
  // below: valid for all damping (leading order in theta / DeltaU), reducing to
  // `energy_diffusion` for delta << 1 and to `kramers_moderate` for delta >> 1. The
  // single-barrier form (the particle that crossed the saddle does not come back), appropriate
  // for a junction that switches to the running state.
  melnikov_meshkov,
};

// Lower-case name of the formula as used in configuration files ("overdamped", ...), from
// rate_formula_names() (names.hpp).
const char* rate_formula_name(RateFormula formula);

// The Mel'nikov–Meshkov depopulation factor
//   A(delta) = exp( (1/pi) int_0^inf ln(1 - exp(-delta (x^2 + 1/4))) / (x^2 + 1/4) dx ),
// evaluated through x = tan(u) / 2 as exp( (2/pi) int_0^{pi/2} ln(1 - exp(-delta / (4 cos^2 u)))
// du ) by adaptive quadrature (relative accuracy ~1e-12). A(0) = 0, A -> delta (1 + O(sqrt
// delta)) for small delta, 1 - A ~ 2 exp(-delta/4) / sqrt(pi delta) for large delta, A(inf) = 1,
// and A(delta) <= min(delta, 1). Throws std::invalid_argument unless delta >= 0 (infinity
// allowed).
double melnikov_meshkov_factor(double delta);

// Escape rate over the downhill barrier, in inverse normalised time. Throws
// std::invalid_argument unless V0, beta and theta are finite and positive and 0 <= gamma < 1.
// Returns 0 where exp(-DeltaU / theta) underflows.
double escape_rate(RateFormula formula, double v0, double beta, double theta, double gamma);

// The rate without the Arrhenius factor, r * exp(DeltaU / theta): finite where the rate itself
// underflows, for logarithmic work (ln r = ln prefactor - DeltaU / theta).
double escape_rate_prefactor(RateFormula formula, double v0, double beta, double theta,
                             double gamma);

// Mean escape time 1 / r (+infinity where the rate underflows).
double mean_escape_time(RateFormula formula, double v0, double beta, double theta, double gamma);

}  // namespace portamc::josephson

#pragma once
// Geometry of the tilted washboard U(phi) = -V0 (cos phi + gamma phi) in the model's normalised
// units (energies in E_C, time in hbar/E_C, unit mass): the well that the phase particle starts
// in, the saddle it escapes over, the barrier, the small-oscillation frequencies and the action
// of the orbit at the saddle energy, which the weak-damping escape theory needs.
//
// Host-only, double precision. Every function validates its inputs and throws
// std::invalid_argument naming the parameter: V0 must be finite and positive; gamma must lie in
// [0, 1) wherever a barrier is needed (at gamma >= 1 the well has disappeared and the particle
// runs down the washboard; negative gamma is the mirror image, escaping to the left, and is not
// supported so that "the saddle" is always the one at pi - arcsin(gamma)).

namespace portamc::josephson {

// U(phi) and U'(phi) = V0 (sin phi - gamma); any finite gamma.
double washboard_potential(double v0, double gamma, double phi);
double washboard_force(double v0, double gamma, double phi);  ///< -U'(phi)

// phi_min = arcsin(gamma): bottom of the well the particle starts in.
double well_bottom(double gamma);
// phi_max = pi - arcsin(gamma): the saddle (top of the barrier) on the downhill side.
double saddle_point(double gamma);
// Default escape threshold of the simulations (the paper's): the saddle, pi - arcsin(gamma).
double default_escape_threshold(double gamma);

// DeltaU = U(phi_max) - U(phi_min) = 2 V0 (sqrt(1 - gamma^2) - gamma arccos(gamma)). Written as
// 2 V0 (sin a - a cos a) with a = arccos(gamma) and summed as a series for small a, because the
// two terms cancel as gamma -> 1, where DeltaU -> (4 sqrt 2 / 3) V0 (1 - gamma)^(3/2).
double barrier_height(double v0, double gamma);

// omega0 = sqrt(U''(phi_min)) = sqrt(V0) (1 - gamma^2)^(1/4), the plasma frequency of the
// tilted well; the barrier frequency omega_b = sqrt(-U''(phi_max)) has the same value for this
// potential (U'' = V0 cos phi is +-V0 sqrt(1 - gamma^2) at the two points). Both are kept as
// separate functions so that formulas say which one they mean.
double well_frequency(double v0, double gamma);
double barrier_frequency(double v0, double gamma);

// The left turning point of the orbit at the saddle energy: the phi < phi_min with
// U(phi) = U(phi_max). For gamma = 0 it is the neighbouring saddle, -pi.
double saddle_orbit_turning_point(double v0, double gamma);

// S_b = closed-orbit action at the saddle energy, 2 * int_{phi_turn}^{phi_max}
// sqrt(2 (U(phi_max) - U(phi))) dphi (unit mass): the energy a particle on that orbit loses per
// period is beta * S_b, the quantity that controls escape at weak damping. Limits: 16 sqrt(V0)
// at gamma = 0 (the pendulum separatrix) and 36 DeltaU / (5 omega0) as gamma -> 1 (the cubic
// potential). Computed by adaptive quadrature to a relative accuracy of about 1e-12, with the
// integrand written so that it keeps its relative accuracy as gamma -> 1.
double saddle_orbit_action(double v0, double gamma);

}  // namespace portamc::josephson

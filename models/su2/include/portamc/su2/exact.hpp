#pragma once
// Reference values of the average plaquette P = <1/2 Tr U_p> for the SU(2) Wilson action
// S = beta * sum_p (1 - 1/2 Tr U_p), beta = 4/g^2, used to validate the Monte Carlo:
//  - two dimensions: exact, in infinite volume and on a finite periodic lattice;
//  - three and four dimensions: strong-coupling (small beta) and, in 4D, weak-coupling (large
//    beta) series, each with an estimate of its truncation error.
// Host-only and header-light (no Kokkos), so it compiles in any translation unit, nvcc included.
//
// Every function throws std::invalid_argument for beta that is not finite and positive, or for
// an unsupported number of dimensions.
#include <cstdint>
#include <vector>

namespace portamc::su2::exact {

// A truncated series: its value, an estimate of the magnitude of everything left out, and the
// highest power of the expansion variable (beta, or 1/beta) that the value gets exactly.
struct SeriesValue {
  double value;
  double truncation_error;
  int order;
};

// u(beta) = I2(beta)/I1(beta): the ratio of the fundamental to the trivial character coefficient
// of exp(beta/2 Tr U), i.e. the expectation of 1/2 Tr U for one link in the field beta.
double character_ratio(double beta);
// du/dbeta = 1 - 3u/beta - u^2 (from I1' = I2 + I1/beta and I2' = I1 - 2 I2/beta).
double character_ratio_derivative(double beta);

// 2D, infinite volume (or open boundaries, where the plaquettes decouple): P = I2(beta)/I1(beta).
double plaquette_2d(double beta);

// 2D on a periodic Nx x Ny lattice with V = Nx*Ny plaquettes. The torus partition function is
// Z = sum_{n>=1} (2 I_n(beta)/beta)^V (character expansion on a closed surface of Euler
// characteristic 0; n = 2j+1 is the dimension of the spin-j representation), hence
//   P = sum_n w_n [I_{n+1}/I_n + (n-1)/beta],   w_n = I_n^V / sum_m I_m^V.
// It differs from plaquette_2d by terms of order (I2/I1)^V, which matter on small test lattices
// (1.0e-3 at beta = 8 on 4x4, 1.3e-2 at beta = 2 on 2x2). Throws std::invalid_argument for
// plaquettes < 1 and std::domain_error where the Bessel functions overflow (beta above ~700).
double plaquette_2d_torus(double beta, std::int64_t plaquettes);

// Strong-coupling (character) expansion in D = 2, 3 or 4 dimensions, infinite volume:
//   ln Z / sites = D(D-1)/2 ln c0 + [number of elementary cubes per site] * 2^2 u^6 + O(u^10),
// each cube being a closed surface of 6 plaquettes in the fundamental representation, weighted
// by d^(Euler characteristic) u^6 = 4 u^6 (d = 2 for SU(2)); there are D(D-1)(D-2)/6 cubes per
// site and no closed surface with fewer plaquettes. Differentiating,
//   P = u + 8(D-2) u^5 u' + O(u^9),
// which in 4D expands to P = beta/4 - beta^3/96 + 7 beta^5/1536 - 31 beta^7/23040 + O(beta^9)
// (see strong_coupling_taylor_4d). This is the classic leading cube correction "u + 4u^5" of
// Balian, Drouffe and Itzykson, Phys. Rev. D 11 (1975) 2104 and Drouffe and Zuber, Phys. Rep.
// 102 (1983) 1; the coefficients here were derived from that expansion and were not checked
// against a copy of those papers. The truncation estimate is twice the next term, which comes
// from the 10-plaquette closed surfaces (two cubes sharing a face, without that face; C(2(D-2),2)
// of them per plaquette, each weighted 4 u^10): 2 * 40 C(2(D-2),2) u^9 u'. In D = 2 the value is
// exact (error 0). Finite periodic lattices add closed surfaces that wrap around the torus
// (planes of L1*L2 and tubes of 4L plaquettes), negligible when every extent is at least 4.
// order = 7: the value is exact through beta^7.
SeriesValue plaquette_strong_coupling(int dimensions, double beta);

// Taylor coefficients c_k of the 4D strong-coupling plaquette P = sum_k c_k beta^k, k = 0..7:
// {0, 1/4, 0, -1/96, 0, 7/1536, 0, -31/23040}.
std::vector<double> strong_coupling_taylor_4d();

// Weak-coupling (perturbative) expansion in 4D: 1 - P = 3/(4 beta) + O(1/beta^2).
// The leading term is exact by equipartition: at large beta the action is a quadratic form in
// the 9 physical gluon degrees of freedom per site (12 link components minus 3 gauge
// directions), each contributing 1/2 to <S> = 6 beta (1 - P) per site; in general dimension D
// this gives 1 - P = 3/(D beta), i.e. (N^2-1)/(8N) g^2 for N = 2. Only this order is used: the
// two-loop coefficient c2 (1 - P = 3/(4 beta) + c2/beta^2 + ...) is quoted in the literature as
// c2 ~ 0.151 for SU(2) (from the SU(N) results of Di Giacomo and Rossi, Phys. Lett. B 100
// (1981) 481, and Alles et al., Phys. Lett. B 324 (1994) 433), but that number could not be
// verified here, so it only sets the truncation estimate 0.4/beta^2 (covering c2 and, for
// beta >= 4, the three-loop term with room to spare). Finite periodic lattices have relative
// O(1/V) corrections from the zero modes (constant abelian fields), not included.
// order = 1: exact through 1/beta.
SeriesValue plaquette_weak_coupling_4d(double beta);

}  // namespace portamc::su2::exact

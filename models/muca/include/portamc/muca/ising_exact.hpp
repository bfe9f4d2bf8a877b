// Exact results for the 2D Ising model H = -J sum_<ij> s_i s_j (J = 1) on the L x L square
// lattice, periodic in both directions, N = L^2 spins. These are the yardstick the multicanonical
// simulation is validated against, so they are computed by independent routes that check each
// other: brute-force enumeration, a transfer matrix, and the Ferdinand-Fisher closed form.
// Host-only; nothing here touches Kokkos.
//
// Energy bins: E = -2N + 4k for k = 0..N (N + 1 bins). On the torus every row and column is a
// closed loop and so crosses an even number of domain walls, hence the number of unsatisfied
// bonds is even and E moves in steps of 4. Bins k = 1 and k = N - 1 are never occupied: a single
// flipped spin already breaks four bonds. For odd L more bins near k = N stay empty because no
// perfect antiferromagnet fits. The density of states g(E) counts all 2^N configurations.
#pragma once

#include <vector>

namespace portamc::muca::exact {

// Configuration counts reach 2^64 at L = 8 (and 2^100 at L = 10), one past what uint64 holds.
// __extension__ keeps -Wpedantic quiet about the GCC/Clang built-in 128-bit integer.
__extension__ typedef unsigned __int128 Count;

// Exact counts g(k), k = 0..N, by enumerating all 2^(L^2) states. Throws std::invalid_argument
// unless 2 <= L <= 5 (L = 6 would be 2^36 states).
std::vector<Count> dos_counts_enumeration(int L);

// Exact counts g(k), k = 0..N, by a site-by-site (broken-row) transfer matrix. Throws
// std::invalid_argument unless 2 <= L <= 10. Runs in ~40 ms at L = 8 and ~1.4 s at L = 10 (-O2);
// at L = 11 the counts would still fit, but the 2^11-state front times 243 energy bins per first
// row makes it slower than is useful.
std::vector<Count> dos_counts_transfer_matrix(int L);

// ln g(k) for k = 0..N from exact counts; -infinity for empty bins.
std::vector<double> log_dos_from_counts(const std::vector<Count>& counts);

// ln g(k) by bin k = 0..N; -infinity for empty bins. Same validity ranges as the counts above.
std::vector<double> log_dos_enumeration(int L);
std::vector<double> log_dos_transfer_matrix(int L);

// Canonical observables per spin at inverse temperature beta.
struct Canonical {
  double energy_per_spin;         // U/N = <E>/N
  double specific_heat_per_spin;  // C/N = beta^2 (<E^2> - <E>^2)/N
  double free_energy_per_spin;    // F/N = -ln Z/(beta N); -infinity at beta = 0
  double entropy_per_spin;        // S/N = beta (U - F)/N, evaluated as ln Z/N + beta U/N
};

// Canonical observables from a (possibly unnormalised) log density of states over bins k = 0..N
// (size N + 1 required; -infinity marks empty bins). Uses log-sum-exp with a two-pass variance,
// so it is stable for any finite beta (in particular beta in [0, 5]). Throws
// std::invalid_argument on a size mismatch, non-finite beta or an all-empty density of states.
Canonical canonical_from_log_dos(const std::vector<double>& log_dos, int L, double beta);

// The same for any model: log_dos[k] is ln g at energy[k] (same size) of a system of `sites`
// sites; the per-site observables are divided by `sites`.
Canonical canonical_from_log_dos(const std::vector<double>& log_dos,
                                 const std::vector<double>& energy, double sites, double beta);

// ln Z of the finite L x L torus from the Ferdinand & Fisher (1969) / Kaufman closed form, any
// L >= 2 and beta >= 0. Throws std::invalid_argument otherwise.
double ferdinand_fisher_log_z(int L, double beta);

// U, C from analytic K-derivatives of the same closed form; F = -ln Z/(beta N), S = beta (U - F).
// Agrees with the exact density of states to ~1e-15 for beta >= 1e-2. Below that the prefactor
// and the products cancel; long double internals keep U and C to ~1e-9 relative even at
// beta = 1e-6, and beta = 0 itself is returned exactly.
Canonical ferdinand_fisher(int L, double beta);

}  // namespace portamc::muca::exact

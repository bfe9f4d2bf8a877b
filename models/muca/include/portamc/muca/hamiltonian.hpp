#pragma once
// The discrete-energy spin models of the multicanonical engine (issue #26), as plain data:
// which model, on which periodic lattice, and the integer parts its energy is made of.
//
// Conventions (coupling J = 1, periodic L^d lattice, bonds (i, i + e_mu) for every site and
// direction, so N d bonds; at L = 2 a pair of sites is joined by two bonds, one each way):
//   ising        s = +-1 (state a = 0, 1 <-> s = -1, +1);  E = -sum_<ij> s_i s_j
//   potts        sigma = 0..q-1;                           E = -sum_<ij> delta(sigma_i, sigma_j)
//   blume_capel  s = -1, 0, +1 (a = 0, 1, 2 <-> s = a - 1); E = -sum_<ij> s_i s_j + D sum_i s_i^2
// Every energy is bond + D field, with two integer parts: bond = the sum of the bond energies
// (bond_energy below) and field = the sum of field_count over the sites (the number of
// non-zero spins of Blume-Capel, 0 for the other models). Counting configurations by these two
// integers, not by the real energy, serves every crystal field D at once.
//
// A Blume-Capel run is at a fixed inverse temperature `beta` and covers every D at once: its
// multicanonical variable is the field part, with the bonds in the Boltzmann weight
// exp(-beta bond) (Zierenberg, Fytas and Janke, PRE 91, 032126 (2015)), so the model of a run
// is (L, d, beta), not D.
//
// The Potts convention is Janke's and Baxter's: the transition of the 2D model is at
// beta_c = ln(1 + sqrt(q)); q = 2 is the Ising model at half the coupling
// (E_potts = (E_ising - bonds) / 2).
#include <string>

namespace portamc::muca {

enum class HamiltonianKind { ising, potts, blume_capel };

struct Hamiltonian {
  HamiltonianKind kind = HamiltonianKind::ising;
  int dimension = 2;  ///< 2 (square) or 3 (simple cubic)
  int L = 4;          ///< linear size: L^dimension sites
  int q = 2;          ///< Potts states, 2..10 (potts only)
  double beta = 0.;   ///< the run's inverse temperature (blume_capel only)

  /// States of one site: 2 (Ising), q (Potts), 3 (Blume-Capel).
  int site_states() const;
  /// Bits of one packed site state: ceil(log2 site_states()).
  int state_bits() const;
  long long sites() const;
  long long bonds() const { return dimension * sites(); }
  /// Energy of one bond between site states a and b (an integer: J = 1).
  int bond_energy(int a, int b) const;
  /// The smallest and largest bond energy (min <= 0 <= max for every model).
  int min_bond_energy() const;
  int max_bond_energy() const;
  /// Field part of a site state: s^2 for Blume-Capel, 0 otherwise.
  int field_count(int a) const;
  /// Values the summed field part takes: N + 1 for Blume-Capel, 1 otherwise.
  int field_levels() const;
  /// E.g. "potts q = 10 on the 32 x 32 square lattice".
  std::string describe() const;
};

/// The model with these settings (validate checks them).
Hamiltonian make_hamiltonian(HamiltonianKind kind, int dimension, int L, int q = 2,
                             double beta = 0.);

/// The same model: kind, dimension, L, and q (Potts) or beta (Blume-Capel) where they matter.
bool same_model(const Hamiltonian& a, const Hamiltonian& b);

/// Throws std::invalid_argument naming the YAML key (model.dimension, model.L, model.q) of the
/// first setting out of range: dimension 2 or 3, L >= 2 (and L^dimension below 2^31), q in
/// 2..10 for Potts. Enough for the exact counts, which hold for every beta.
void validate(const Hamiltonian& h);
/// validate, and for a run of Blume-Capel 0 < beta <= 100 (naming model.beta).
void validate_run(const Hamiltonian& h);

}  // namespace portamc::muca

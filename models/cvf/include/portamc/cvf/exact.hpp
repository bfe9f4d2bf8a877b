#pragma once
// Exactly solvable limits of the CVF model, the references of its physics tests.
//
// 1. J_sigma = 0: the bonding variables of one molecule do not interact, so every allowed
//    edge (eta = 1) is an independent pair (sigma_ij, sigma_ji) of q^2 states, q of them bonded
//    with weight exp(J_eff / t). Every eta configuration allows exactly 2 N edges, so at fixed
//    v_iso N_HB ~ Binomial(2 N, p_bond) whatever eta does.
// 2. J_eff = 0 (J = 0 and P v_HB = 0): molecules are independent; one molecule's six variables
//    have weight exp(J_sigma N_sigma / t), N_sigma = number of equal pairs among them. The
//    6^6 states are enumerated.
#include <array>

namespace portamc::cvf::exact {

/// Probability that an allowed edge holds a hydrogen bond when J_sigma = 0:
/// e^{x} / (e^{x} + q - 1), x = J_eff / t.
double independent_bond_probability(double J_eff_over_t, int q = 6);

/// Law of N_sigma (0..15) of one isolated molecule at coupling x = J_sigma / t.
struct MoleculeLaw {
  std::array<double, 16> probability{};  ///< P(N_sigma = k)
  double mean = 0;                       ///< <N_sigma>
  double variance = 0;                   ///< Var N_sigma
};
MoleculeLaw isolated_molecule(double J_sigma_over_t);

}  // namespace portamc::cvf::exact

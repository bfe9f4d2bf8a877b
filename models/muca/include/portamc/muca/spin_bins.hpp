#pragma once
// The bins of the generic multicanonical engine (spin_muca.hpp): for Ising and Potts one bin
// per reachable bond energy, bin k holding bond = -d N + unit k; for Blume-Capel one bin per
// field part n = number of non-zero spins, 0 .. N (its bonds stay in the Boltzmann weight at
// the run's beta, hamiltonian.hpp).
//
//   ising  unit 4: a flip with a aligned neighbours of 2d changes the bond energy by
//          4 (a - d), and the number of unaligned bonds is even on a periodic lattice (each
//          closed line of bonds has an even number), so bond = -d N + 4 m. Bins 0 .. d N / 2;
//          in 2D these are EnergyBins (parameters.hpp), E = -2N + 4k.
//   potts  unit 1: a change of state moves the bond energy by n_old - n_new, the neighbours
//          in the old and the new state, in -2d .. 2d. Bins 0 .. d N (bond = 0: no bond
//          satisfied).
//   blume_capel  bin n, n = 0 .. N; a change of one spin moves n by -1, 0 or +1, and every n is
//          reachable (any n sites non-zero). `energy` of bin n is n.
// Bins inside the range may be unreachable (next to the ground states, for example); the
// engine counts visits and leaves reachability to the weight iteration (anchor_bins).
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/muca/hamiltonian.hpp"

namespace portamc::muca {

struct SpinBins {
  int unit = 1;      ///< bond energy per bin
  int min_bond = 0;  ///< bond energy of bin 0: -d N
  int count = 1;     ///< bins 0 .. count - 1
  int max_jump = 1;  ///< largest |bin change| of one attempt: d (Ising), 2d (Potts), 1 (B-C)

  explicit SpinBins(const Hamiltonian& h) {
    if (h.kind == HamiltonianKind::blume_capel) {
      min_bond = 0;
      unit = 1;
      count = static_cast<int>(h.sites() + 1);
      max_jump = 1;
      return;
    }
    const long long bonds = h.bonds();
    min_bond = static_cast<int>(-bonds);
    if (h.kind == HamiltonianKind::ising) {
      unit = 4;
      count = static_cast<int>(bonds / 2 + 1);
      max_jump = h.dimension;
    } else {
      unit = 1;
      count = static_cast<int>(bonds + 1);
      max_jump = 2 * h.dimension;
    }
  }
  /// The bond energy of bin k.
  int energy(int k) const { return min_bond + unit * k; }
  /// The bin of bond energy `bond` (a reachable one: (bond - min_bond) divisible by unit).
  int bin(int bond) const { return (bond - min_bond) / unit; }
};

/// Blume-Capel: every bin. Otherwise the two bins every run over the whole range must visit: the
/// ground states (bin 0, all sites alike) and the highest energy (the last bin: no bond satisfied,
/// every bond antiparallel for Ising). The highest is reached when the lattice can be coloured with
/// the model's states so that no two neighbours agree: the periodic lattice of even L is
/// bipartite (two colours), and a product of odd cycles needs three (chi(G x H) = max), so
/// Potts with q >= 3 reaches it at any L. Which bins between them are reachable depends on the
/// model, d and q (2D Potts cannot have 1, 2, 3 or 5 unsatisfied bonds), and the weight
/// iteration finds them by visiting them. Throws std::invalid_argument naming model.L for the
/// Ising model (or Potts q = 2) with odd L, whose highest reachable energy is not known here.
inline std::vector<unsigned char> anchor_bins(const Hamiltonian& h) {
  const SpinBins bins(h);
  // Blume-Capel's field part takes every value 0 .. N.
  if (h.kind == HamiltonianKind::blume_capel)
    return std::vector<unsigned char>(static_cast<std::size_t>(bins.count), 1);
  const bool two_states = h.kind == HamiltonianKind::ising || h.q == 2;
  if (two_states && h.L % 2 != 0)
    throw std::invalid_argument("model.L = " + std::to_string(h.L) +
                                " is odd: a two-state model on an odd periodic lattice is "
                                "frustrated and its highest energy is not known; use an even L");
  std::vector<unsigned char> anchors(static_cast<std::size_t>(bins.count), 0);
  anchors.front() = 1;
  anchors.back() = 1;
  return anchors;
}

}  // namespace portamc::muca

#pragma once
// The energy bins of the generic multicanonical engine (spin_muca.hpp) for a Hamiltonian
// without crystal field (Ising and Potts, hamiltonian.hpp): one bin per reachable bond
// energy, bin k holding bond = -d N + unit k.
//
//   ising  unit 4: a flip with a aligned neighbours of 2d changes the bond energy by
//          4 (a - d), and the number of unaligned bonds is even on a periodic lattice (each
//          closed line of bonds has an even number), so bond = -d N + 4 m. Bins 0 .. d N / 2;
//          in 2D these are EnergyBins (parameters.hpp), E = -2N + 4k.
//   potts  unit 1: a change of state moves the bond energy by n_old - n_new, the neighbours
//          in the old and the new state, in -2d .. 2d. Bins 0 .. d N (bond = 0: no bond
//          satisfied).
// Bins inside the range may be unreachable (next to the ground states, for example); the
// engine counts visits and leaves reachability to the weight iteration.
#include <stdexcept>

#include "portamc/muca/hamiltonian.hpp"

namespace portamc::muca {

struct SpinBins {
  int unit = 1;      ///< bond energy per bin
  int min_bond = 0;  ///< bond energy of bin 0: -d N
  int count = 1;     ///< bins 0 .. count - 1
  int max_jump = 1;  ///< largest |bin change| of one attempt: d (Ising), 2d (Potts)

  /// Throws std::invalid_argument for Blume-Capel, whose crystal field gives a second energy
  /// part the engine does not bin yet.
  explicit SpinBins(const Hamiltonian& h) {
    if (h.kind == HamiltonianKind::blume_capel)
      throw std::invalid_argument(
          "muca engine: Blume-Capel (model.crystal_field) has no energy bins yet");
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

}  // namespace portamc::muca

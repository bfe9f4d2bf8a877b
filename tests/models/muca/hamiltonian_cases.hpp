#pragma once
// A Hamiltonian in one line, for the tests of the generic engine and the exact counts.
#include "portamc/muca/hamiltonian.hpp"

namespace muca_test {

inline portamc::muca::Hamiltonian model(portamc::muca::HamiltonianKind kind, int dimension, int L,
                                        int q = 2, double crystal_field = 0) {
  portamc::muca::Hamiltonian h;
  h.kind = kind;
  h.dimension = dimension;
  h.L = L;
  h.q = q;
  h.crystal_field = crystal_field;
  return h;
}

}  // namespace muca_test

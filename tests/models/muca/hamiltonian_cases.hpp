#pragma once
// A Hamiltonian in one line, for the tests of the generic engine and the exact counts.
#include "portamc/muca/hamiltonian.hpp"

namespace muca_test {

inline portamc::muca::Hamiltonian model(portamc::muca::HamiltonianKind kind, int dimension, int L,
                                        int q = 2, double beta = 0) {
  return portamc::muca::make_hamiltonian(kind, dimension, L, q, beta);
}

}  // namespace muca_test

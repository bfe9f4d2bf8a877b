// The spin models' conventions; see the header.
#include "portamc/muca/hamiltonian.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "portamc/muca/names.hpp"

namespace portamc::muca {

int Hamiltonian::site_states() const {
  switch (kind) {
    case HamiltonianKind::ising:
      return 2;
    case HamiltonianKind::potts:
      return q;
    case HamiltonianKind::blume_capel:
      return 3;
  }
  return 0;
}

long long Hamiltonian::sites() const {
  long long n = 1;
  for (int k = 0; k < dimension; ++k) n *= L;
  return n;
}

int Hamiltonian::bond_energy(int a, int b) const {
  switch (kind) {
    case HamiltonianKind::ising:
      return -(2 * a - 1) * (2 * b - 1);
    case HamiltonianKind::potts:
      return a == b ? -1 : 0;
    case HamiltonianKind::blume_capel:
      return -(a - 1) * (b - 1);
  }
  return 0;
}

int Hamiltonian::min_bond_energy() const {
  return -1;
}

int Hamiltonian::max_bond_energy() const {
  return kind == HamiltonianKind::potts ? 0 : 1;
}

int Hamiltonian::field_count(int a) const {
  return kind == HamiltonianKind::blume_capel && a != 1 ? 1 : 0;
}

int Hamiltonian::field_levels() const {
  return kind == HamiltonianKind::blume_capel ? static_cast<int>(sites()) + 1 : 1;
}

int Hamiltonian::state_bits() const {
  int bits = 1;
  while ((1 << bits) < site_states()) ++bits;
  return bits;
}

std::string Hamiltonian::describe() const {
  std::string text = to_string(kind);
  if (kind == HamiltonianKind::potts) text += " q = " + std::to_string(q);
  if (kind == HamiltonianKind::blume_capel) {
    char d[32];
    std::snprintf(d, sizeof d, "%g", beta);
    text += std::string(" at beta = ") + d;
  }
  const std::string n = std::to_string(L);
  return text + " on the " + n + " x " + n +
         (dimension == 3 ? " x " + n + " simple cubic" : " square") + " lattice";
}

Hamiltonian make_hamiltonian(HamiltonianKind kind, int dimension, int L, int q, double beta) {
  Hamiltonian h;
  h.kind = kind;
  h.dimension = dimension;
  h.L = L;
  h.q = q;
  h.beta = beta;
  return h;
}

bool same_model(const Hamiltonian& a, const Hamiltonian& b) {
  if (a.kind != b.kind || a.dimension != b.dimension || a.L != b.L) return false;
  if (a.kind == HamiltonianKind::potts) return a.q == b.q;
  if (a.kind == HamiltonianKind::blume_capel) return a.beta == b.beta;
  return true;
}

void validate(const Hamiltonian& h) {
  if (h.dimension != 2 && h.dimension != 3)
    throw std::invalid_argument("model.dimension must be 2 or 3, not " +
                                std::to_string(h.dimension));
  if (h.L < 2)
    throw std::invalid_argument("model.L must be at least 2, not " + std::to_string(h.L));
  if (h.sites() >= (1LL << 31))
    throw std::invalid_argument("model.L = " + std::to_string(h.L) + " gives " +
                                std::to_string(h.sites()) + " sites in dimension " +
                                std::to_string(h.dimension) + ", more than 2^31 - 1");
  if (h.kind == HamiltonianKind::potts && (h.q < 2 || h.q > 10))
    throw std::invalid_argument("model.q must be in 2..10 for the Potts model, not " +
                                std::to_string(h.q));
}

void validate_run(const Hamiltonian& h) {
  validate(h);
  if (h.kind == HamiltonianKind::blume_capel && !(h.beta > 0 && h.beta <= 100))
    throw std::invalid_argument(
        "model.beta must be in (0, 100] for Blume-Capel (the run's inverse temperature), not " +
        std::to_string(h.beta));
}

}  // namespace portamc::muca

#include "portamc/muca/names.hpp"

namespace portamc::muca {

const EnumNames<LatticeStorage>& lattice_storage_names() {
  static const EnumNames<LatticeStorage> names{{"auto", LatticeStorage::automatic},
                                               {"scratch", LatticeStorage::scratch},
                                               {"global", LatticeStorage::global}};
  return names;
}

const char* to_string(LatticeStorage storage) {
  return lattice_storage_names().name(storage);
}

const EnumNames<HamiltonianKind>& hamiltonian_kind_names() {
  static const EnumNames<HamiltonianKind> names{{"ising", HamiltonianKind::ising},
                                                {"potts", HamiltonianKind::potts},
                                                {"blume_capel", HamiltonianKind::blume_capel}};
  return names;
}

const char* to_string(HamiltonianKind kind) {
  return hamiltonian_kind_names().name(kind);
}

}  // namespace portamc::muca

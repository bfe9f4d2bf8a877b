#pragma once
// The names of the muca enumerations, one table each (portamc/enum_names.hpp): the choices of
// portamc-muca's keys and the to_string functions come from these.
#include "portamc/enum_names.hpp"
#include "portamc/muca/hamiltonian.hpp"
#include "portamc/muca/parameters.hpp"

namespace portamc::muca {

const EnumNames<LatticeStorage>& lattice_storage_names();
const char* to_string(LatticeStorage storage);

/// model.hamiltonian's choices: "ising", "potts", "blume_capel".
const EnumNames<HamiltonianKind>& hamiltonian_kind_names();
const char* to_string(HamiltonianKind kind);

}  // namespace portamc::muca

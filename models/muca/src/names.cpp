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

}  // namespace portamc::muca

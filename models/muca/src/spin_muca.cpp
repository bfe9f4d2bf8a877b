// The generic multicanonical engine (detail/spin_muca.hpp), once per backend of the build.
#include "spin_muca_impl.hpp"

namespace portamc::muca {

int threshold_columns(const Hamiltonian& h) {
  if (h.kind == HamiltonianKind::blume_capel) return 3 * (8 * h.dimension + 1);
  return 2 * SpinBins(h).max_jump + 1;
}

#define PORTAMC_SPIN_MUCA_INSTANTIATE_(Space) template class SpinMuca<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SPIN_MUCA_INSTANTIATE_)
#undef PORTAMC_SPIN_MUCA_INSTANTIATE_

}  // namespace portamc::muca

// The six-vertex device code compiled once into the library, for every execution space of the
// build (the headers declare these instantiations extern).
#include "portamc/backends.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/engine/detail/six_vertex_glauber.hpp"

namespace portamc::tilings {

#define PORTAMC_TILINGS_INSTANTIATE_(Space)                                                        \
  template class SixVertexGlauber<Space>;                                                          \
  template class SixVertexCftp<Space>;                                                             \
  template SixVertexCftpResult six_vertex_cftp<Space>(const Space&, const SixVertexBoundary&,      \
                                                      const SixVertexWeights&, std::uint64_t, int, \
                                                      const CftpOptions&, int, ClassOrder);
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_INSTANTIATE_)
#undef PORTAMC_TILINGS_INSTANTIATE_

}  // namespace portamc::tilings

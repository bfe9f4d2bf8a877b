// The six-vertex device code compiled once into the library, for the default execution space
// and, where it differs, the host one (the headers declare these instantiations extern).
#include "portamc/kokkos_compat.hpp"
#include "portamc/tilings/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/detail/six_vertex_dynamics.hpp"
#include "portamc/tilings/detail/six_vertex_glauber.hpp"

namespace portamc::tilings {

template class SixVertexDynamics<Kokkos::DefaultExecutionSpace>;
template class SixVertexGlauber<Kokkos::DefaultExecutionSpace>;
template class SixVertexCftp<Kokkos::DefaultExecutionSpace>;
template SixVertexCftpResult six_vertex_cftp<Kokkos::DefaultExecutionSpace>(
    const SixVertexBoundary&, const SixVertexWeights&, std::uint64_t, int, const CftpOptions&, int,
    ClassOrder);
#ifdef PORTAMC_HAVE_DEVICE_BACKEND
template class SixVertexDynamics<Kokkos::DefaultHostExecutionSpace>;
template class SixVertexGlauber<Kokkos::DefaultHostExecutionSpace>;
template class SixVertexCftp<Kokkos::DefaultHostExecutionSpace>;
template SixVertexCftpResult six_vertex_cftp<Kokkos::DefaultHostExecutionSpace>(
    const SixVertexBoundary&, const SixVertexWeights&, std::uint64_t, int, const CftpOptions&, int,
    ClassOrder);
#endif

}  // namespace portamc::tilings

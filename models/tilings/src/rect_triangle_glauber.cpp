// Instantiates the rectangle-triangle sampler on the default execution space, so the library
// build checks the kernel compiles for every enabled backend (nvcc included).
#include "portamc/tilings/detail/rect_triangle_glauber.hpp"

namespace portamc::tilings {
template class RectTriangleGlauber<Kokkos::DefaultExecutionSpace>;
}  // namespace portamc::tilings

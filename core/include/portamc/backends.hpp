#pragma once
// The execution spaces ("backends") this build's Kokkos enabled, by name: the one place in the
// code base that knows which Kokkos backends exist. Models instantiate their engines once per
// enabled space (PORTAMC_FOR_EACH_SPACE), apps run on the one named by --backend
// (with_backend), and the tests run on each (tests/CMakeLists.txt).
//
// A backend's name is its Kokkos execution space's name in lower case: "serial", "openmp",
// "threads", "cuda", "hip". Serial, OpenMP and Cuda are the ones tested (docs/design.md).
#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifdef KOKKOS_ENABLE_SERIAL
#define PORTAMC_SPACE_SERIAL_(M) M(Kokkos::Serial)
#else
#define PORTAMC_SPACE_SERIAL_(M)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define PORTAMC_SPACE_OPENMP_(M) M(Kokkos::OpenMP)
#else
#define PORTAMC_SPACE_OPENMP_(M)
#endif
#ifdef KOKKOS_ENABLE_THREADS
#define PORTAMC_SPACE_THREADS_(M) M(Kokkos::Threads)
#else
#define PORTAMC_SPACE_THREADS_(M)
#endif
#ifdef KOKKOS_ENABLE_CUDA
#define PORTAMC_SPACE_CUDA_(M) M(Kokkos::Cuda)
#else
#define PORTAMC_SPACE_CUDA_(M)
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
#define PORTAMC_SPACE_HIP_(M) M(Kokkos::HIP)
#else
#define PORTAMC_SPACE_HIP_(M)
#endif

/// Expands M(Space) once for every execution space of this build, host spaces first, e.g.
///   #define INSTANTIATE(Space) template class Ensemble<Space, double>;
///   PORTAMC_FOR_EACH_SPACE(INSTANTIATE)
#define PORTAMC_FOR_EACH_SPACE(M) \
  PORTAMC_SPACE_SERIAL_(M)        \
  PORTAMC_SPACE_OPENMP_(M) PORTAMC_SPACE_THREADS_(M) PORTAMC_SPACE_CUDA_(M) PORTAMC_SPACE_HIP_(M)

namespace portamc {

namespace detail {
#define PORTAMC_IS_DEFAULT_SPACE_(S) std::is_same_v<Kokkos::DefaultExecutionSpace, S> ||
// Engines are instantiated for the listed spaces only: a default space outside the list
// (a backend portamc has never run on) would fail at link time; it fails here, by name.
static_assert(PORTAMC_FOR_EACH_SPACE(PORTAMC_IS_DEFAULT_SPACE_) false,
              "Kokkos' default execution space is not one of the backends portamc supports "
              "(Serial, OpenMP, Threads, Cuda, HIP): see core/include/portamc/backends.hpp");
#undef PORTAMC_IS_DEFAULT_SPACE_

std::string lower_case(const char* name);
}  // namespace detail

/// The name of execution space `Space`, e.g. "cuda".
template <class Space>
std::string backend_name() {
  return detail::lower_case(Space::name());
}

/// The names of this build's backends, host spaces first, e.g. {"serial", "openmp", "cuda"}.
std::vector<std::string> enabled_backends();

/// The name of Kokkos::DefaultExecutionSpace: what a run uses without --backend.
std::string default_backend();

/// Whether `name` is one of enabled_backends().
bool backend_enabled(const std::string& name);

/// Throws std::invalid_argument naming `name` and the enabled backends unless it is one of them.
void require_backend(const std::string& name);

/// Calls f(Space()) with a default instance of the execution space called `name` and returns
/// its result; every space's call must return the same type. Kokkos must be initialised.
/// Throws std::invalid_argument (see require_backend) for a backend this build lacks. As for
/// for_each_space, `f` calls function templates that launch kernels and defines none itself.
template <class F>
decltype(auto) with_backend(const std::string& name, F&& f) {
#define PORTAMC_CALL_IF_NAMED_(S) \
  if (name == backend_name<S>()) return f(S());
  PORTAMC_FOR_EACH_SPACE(PORTAMC_CALL_IF_NAMED_)
#undef PORTAMC_CALL_IF_NAMED_
  require_backend(name);
  // require_backend has thrown; this keeps the return type deduced from the calls above.
  return f(Kokkos::DefaultExecutionSpace());
}

/// Calls f(Space()) for every execution space of this build, host spaces first (e.g. a test
/// comparing every backend's result with Serial's). Kokkos must be initialised. nvcc cannot
/// define a device lambda (KOKKOS_LAMBDA) inside a generic lambda: let `f` call a function
/// template of the space that launches the kernels, e.g. [&](auto space) { run_on(space); }.
template <class F>
void for_each_space(F&& f) {
#define PORTAMC_CALL_WITH_SPACE_(S) f(S());
  PORTAMC_FOR_EACH_SPACE(PORTAMC_CALL_WITH_SPACE_)
#undef PORTAMC_CALL_WITH_SPACE_
}

}  // namespace portamc

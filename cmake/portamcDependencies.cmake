# Dependency discovery shared by the build tree and the installed package
# (portamcConfig.cmake includes this file), so both see the same targets.
include_guard(GLOBAL)
include(CMakeFindDependencyMacro)

# In the build tree a missing dependency is a hard error; in an installed
# package find_dependency reports it through portamc_FOUND instead.
macro(_portamc_find)
  if(PORTAMC_BUILD_TREE)
    find_package(${ARGN} REQUIRED)
  else()
    find_dependency(${ARGN})
  endif()
endmacro()

# Kokkos 3.4 (Debian/Trilinos build, CI) through 4.x (CUDA + OpenMP on GPUs).
# Kokkos' version files accept only their own major version, so the range is checked here.
if(NOT TARGET Kokkos::kokkos)
  _portamc_find(Kokkos)
endif()
if(Kokkos_VERSION VERSION_LESS 3.4 OR NOT Kokkos_VERSION VERSION_LESS 5.0)
  message(FATAL_ERROR "portamc needs Kokkos >= 3.4 and < 5.0; found ${Kokkos_VERSION} in ${Kokkos_DIR}")
endif()

# Debian's Trilinos build of Kokkos puts its headers in <prefix>/include/trilinos (named by
# Kokkos_INCLUDE_DIRS) while Kokkos::kokkos advertises an include directory that lacks them
# and may not exist at all (CMake then refuses the target). Only in that case, replace the
# advertised directories with the real one.
function(_portamc_fix_kokkos_includes)
  get_target_property(advertised Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  foreach(dir IN LISTS advertised)
    if(EXISTS "${dir}/Kokkos_Core.hpp")
      return()
    endif()
  endforeach()
  foreach(dir IN LISTS Kokkos_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    if(EXISTS "${dir}/Kokkos_Core.hpp")
      message(STATUS "portamc: Kokkos advertises include path '${advertised}' without its headers; using ${dir}")
      set(kept "${dir}")
      foreach(other IN LISTS advertised)
        if(IS_DIRECTORY "${other}")
          list(APPEND kept "${other}")
        endif()
      endforeach()
      set_property(TARGET Kokkos::kokkos PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${kept}")
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "portamc: Kokkos_Core.hpp is in none of ${advertised} ${Kokkos_INCLUDE_DIRS}")
endfunction()
_portamc_fix_kokkos_includes()

# Kokkos Kernels: Kokkos::kokkoskernels upstream, trilinos_kokkoskernels on Debian.
if(PORTAMC_ENABLE_KOKKOSKERNELS)
  if(NOT TARGET Kokkos::kokkoskernels)
    _portamc_find(KokkosKernels)
    if(NOT TARGET Kokkos::kokkoskernels AND TARGET trilinos_kokkoskernels)
      add_library(Kokkos::kokkoskernels INTERFACE IMPORTED)
      set_property(TARGET Kokkos::kokkoskernels PROPERTY INTERFACE_LINK_LIBRARIES trilinos_kokkoskernels Kokkos::kokkos)
    endif()
  endif()
endif()

# FindHDF5 probes with the C compiler; a C++-only consumer project has not enabled it.
if(NOT CMAKE_C_COMPILER_LOADED)
  enable_language(C)
endif()
_portamc_find(HDF5 COMPONENTS C)
if(NOT TARGET hdf5::hdf5)
  add_library(hdf5::hdf5 INTERFACE IMPORTED)
  set_property(TARGET hdf5::hdf5 PROPERTY INTERFACE_INCLUDE_DIRECTORIES ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
  set_property(TARGET hdf5::hdf5 PROPERTY INTERFACE_LINK_LIBRARIES ${HDF5_C_LIBRARIES} ${HDF5_LIBRARIES})
endif()

_portamc_find(yaml-cpp)
if(NOT TARGET yaml-cpp::yaml-cpp)
  # yaml-cpp < 0.8 exports the plain target name.
  add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED)
  set_property(TARGET yaml-cpp::yaml-cpp PROPERTY INTERFACE_LINK_LIBRARIES yaml-cpp)
endif()

_portamc_find(Random123)

if(PORTAMC_ENABLE_MPI)
  _portamc_find(MPI COMPONENTS CXX)
endif()

# NCCL (halo exchanges in CUDA builds): resolved in the build tree by portamcNCCL.cmake;
# an installed package finds it again when it was built with it.
if(PORTAMC_ENABLE_NCCL AND NOT PORTAMC_BUILD_TREE)
  _portamc_find(NCCL)
endif()

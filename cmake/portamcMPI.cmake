# PORTAMC_ENABLE_MPI: AUTO (default) builds with MPI when find_package(MPI COMPONENTS CXX)
# succeeds and without it otherwise; ON makes a missing MPI a configure error; OFF never looks.
# The resolved choice (ON/OFF) shadows the cache entry as a normal variable, so that
# portamcDependencies.cmake, core/ and the exported package config all see a plain boolean.
include_guard(GLOBAL)

set(PORTAMC_ENABLE_MPI AUTO CACHE STRING "Build with MPI for multi-GPU / multi-node runs (AUTO, ON, OFF)")
set_property(CACHE PORTAMC_ENABLE_MPI PROPERTY STRINGS AUTO ON OFF)

string(TOUPPER "${PORTAMC_ENABLE_MPI}" _portamc_mpi_request)
set(PORTAMC_ENABLE_MPI_REQUEST "${PORTAMC_ENABLE_MPI}")
if(_portamc_mpi_request STREQUAL "AUTO")
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(PORTAMC_ENABLE_MPI ON)
  else()
    set(PORTAMC_ENABLE_MPI OFF)
  endif()
elseif(PORTAMC_ENABLE_MPI)
  find_package(MPI COMPONENTS CXX QUIET)
  if(NOT MPI_CXX_FOUND)
    message(FATAL_ERROR "PORTAMC_ENABLE_MPI=ON but no MPI with C++ support was found "
                        "(find_package(MPI COMPONENTS CXX)); install an MPI, e.g. Debian's "
                        "libopenmpi-dev openmpi-bin, point MPI_HOME / MPI_CXX_COMPILER at one, "
                        "or configure with -DPORTAMC_ENABLE_MPI=OFF")
  endif()
  set(PORTAMC_ENABLE_MPI ON)
else()
  set(PORTAMC_ENABLE_MPI OFF)
endif()
unset(_portamc_mpi_request)
if(PORTAMC_ENABLE_MPI)
  message(STATUS "portamc: MPI on (MPI ${MPI_CXX_VERSION}, ${MPIEXEC_EXECUTABLE})")
else()
  message(STATUS "portamc: MPI off (request: ${PORTAMC_ENABLE_MPI_REQUEST})")
endif()

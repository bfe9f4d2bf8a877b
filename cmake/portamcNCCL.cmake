# PORTAMC_ENABLE_NCCL: halo exchanges over NCCL (core/include/portamc/halo_transport.hpp).
# AUTO (default) uses NCCL when Kokkos has CUDA, MPI is on (NCCL's communicator is set up
# through MPI) and FindNCCL succeeds; ON makes a missing piece a configure error; OFF never
# looks. Like PORTAMC_ENABLE_MPI, the resolved ON/OFF shadows the cache entry. Included after
# portamcDependencies.cmake (it needs Kokkos' device list).
include_guard(GLOBAL)

set(PORTAMC_ENABLE_NCCL AUTO CACHE STRING "Use NCCL for halo exchanges in CUDA builds (AUTO, ON, OFF)")
set_property(CACHE PORTAMC_ENABLE_NCCL PROPERTY STRINGS AUTO ON OFF)

string(TOUPPER "${PORTAMC_ENABLE_NCCL}" _portamc_nccl_request)
set(_portamc_kokkos_cuda OFF)
if(Kokkos_ENABLE_CUDA OR "CUDA" IN_LIST Kokkos_DEVICES)
  set(_portamc_kokkos_cuda ON)
endif()
set(PORTAMC_ENABLE_NCCL OFF)
set(_portamc_nccl_missing "not requested")
if(NOT _portamc_nccl_request STREQUAL "OFF" AND NOT _portamc_nccl_request STREQUAL "FALSE"
   AND NOT _portamc_nccl_request STREQUAL "0")
  if(NOT _portamc_kokkos_cuda)
    set(_portamc_nccl_missing "Kokkos was built without CUDA")
  elseif(NOT PORTAMC_ENABLE_MPI)
    set(_portamc_nccl_missing "MPI is off")
  else()
    set(_portamc_nccl_missing "")
    find_package(NCCL QUIET)
    if(NOT NCCL_FOUND)
      set(_portamc_nccl_missing "nccl.h / libnccl not found (set NCCL_ROOT)")
    endif()
  endif()
  if(_portamc_nccl_missing STREQUAL "")
    set(PORTAMC_ENABLE_NCCL ON)
  elseif(NOT _portamc_nccl_request STREQUAL "AUTO")
    message(FATAL_ERROR "PORTAMC_ENABLE_NCCL=ON but ${_portamc_nccl_missing}; "
                        "configure with -DPORTAMC_ENABLE_NCCL=OFF to build without it")
  endif()
endif()
if(PORTAMC_ENABLE_NCCL)
  message(STATUS "portamc: NCCL on (${NCCL_VERSION}, ${NCCL_LIBRARY})")
else()
  message(STATUS "portamc: NCCL off (request: ${_portamc_nccl_request}; ${_portamc_nccl_missing})")
endif()
unset(_portamc_kokkos_cuda)
unset(_portamc_nccl_request)
unset(_portamc_nccl_missing)

# Driven by the install.subdirectory test: configure a project that adds portamc's source tree
# with add_subdirectory, build the consumer program in it (which builds portamc's core, io and
# muca libraries inside that project) and run it.
include("${CMAKE_CURRENT_LIST_DIR}/consumer_common.cmake")
if(NO_DEVICE)
  return()
endif()

file(REMOVE_RECURSE "${CONSUMER_BUILD}")
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${CONSUMER_BUILD}" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -DPORTAMC_SOURCE=${PORTAMC_SOURCE} -DKokkos_DIR=${Kokkos_DIR}
    -DKokkosKernels_DIR=${KokkosKernels_DIR} -DRandom123_INCLUDE_DIR=${Random123_INCLUDE_DIR}
    -DPORTAMC_ENABLE_MPI=${ENABLE_MPI} -DPORTAMC_PRECOMPILED_HEADERS=${PRECOMPILED_HEADERS})
run(${CMAKE_COMMAND} --build "${CONSUMER_BUILD}" --target portamc_consumer --parallel 2)
run("${CONSUMER_BUILD}/portamc_consumer")

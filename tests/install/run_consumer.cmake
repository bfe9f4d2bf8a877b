# Driven by the install.consumer test: install, then configure, build and run the consumer and
# the programs of examples/ against the installed package, each as a user's project would.
include("${CMAKE_CURRENT_LIST_DIR}/consumer_common.cmake")
if(NO_DEVICE)
  return()
endif()

file(REMOVE_RECURSE "${PREFIX}" "${CONSUMER_BUILD}" "${EXAMPLES_BUILD}")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}")
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${CONSUMER_BUILD}" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${PREFIX} -DKokkos_DIR=${Kokkos_DIR}
    -DKokkosKernels_DIR=${KokkosKernels_DIR} -DRandom123_INCLUDE_DIR=${Random123_INCLUDE_DIR})
run(${CMAKE_COMMAND} --build "${CONSUMER_BUILD}")
run("${CONSUMER_BUILD}/portamc_consumer")

run(${CMAKE_COMMAND} -S "${EXAMPLES_SOURCE}" -B "${EXAMPLES_BUILD}" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${PREFIX} -DKokkos_DIR=${Kokkos_DIR}
    -DKokkosKernels_DIR=${KokkosKernels_DIR} -DRandom123_INCLUDE_DIR=${Random123_INCLUDE_DIR})
run(${CMAKE_COMMAND} --build "${EXAMPLES_BUILD}" --parallel 2)
foreach(example IN ITEMS muca_energy su2_plaquette josephson_escape tilings_aztec cvf_density)
  run("${EXAMPLES_BUILD}/${example}")
endforeach()

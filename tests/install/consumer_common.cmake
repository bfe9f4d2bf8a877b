# Shared by the install tests' scripts (run_consumer.cmake, run_subdirectory.cmake).

# Runs a command; stops the test with its output when it fails.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

# The example programs run their kernels on the build's default execution space. Sets
# NO_DEVICE when this machine lacks its device (a GPU build on a Spack build node), after
# saying so in the words by which CTest reports the test skipped (tests/CMakeLists.txt).
execute_process(COMMAND "${PROBE_APP}" --version OUTPUT_VARIABLE probe_out ERROR_VARIABLE probe_err)
set(NO_DEVICE FALSE)
if("${probe_out}${probe_err}" MATCHES "no device for the default execution space")
  message(STATUS "${probe_err}")
  set(NO_DEVICE TRUE)
endif()

# Runs a Python tool (tools/calibrate_seeds.py, tools/compare_runs.py) once and checks its
# exit code and output: a plain WILL_FAIL would accept any non-zero exit, and the tools'
# codes mean different things (1: the check fails, 2: usage error, bad input or failed run).
# -D: PYTHON, TOOL, ARGS (joined with '|'), EXPECT_EXIT, EXPECT_MESSAGE (a regex the
#     output must match), optional JSON (a file the tool wrote, whose "pass" must be
#     EXPECT_JSON_PASS: ON or OFF), optional CLEAN (a directory removed before the run).
cmake_minimum_required(VERSION 3.22)
string(REPLACE "|" ";" ARGS "${ARGS}")
if(DEFINED CLEAN)
  file(REMOVE_RECURSE "${CLEAN}")
endif()
if(DEFINED JSON)
  file(REMOVE "${JSON}")
endif()

execute_process(COMMAND "${PYTHON}" "${TOOL}" ${ARGS} RESULT_VARIABLE result
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
# Shown by ctest --output-on-failure and -V: the table is the point of a passing run too.
message("${out}${err}")
if(NOT result STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit ${result}, expected ${EXPECT_EXIT}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT_MESSAGE}")
  message(FATAL_ERROR "the output lacks '${EXPECT_MESSAGE}'")
endif()
if(DEFINED JSON)
  if(NOT EXISTS "${JSON}")
    message(FATAL_ERROR "--json ${JSON} was not written")
  endif()
  file(READ "${JSON}" json_text)
  string(JSON passed GET "${json_text}" pass)
  if(NOT passed STREQUAL "${EXPECT_JSON_PASS}")
    message(FATAL_ERROR "${JSON}: \"pass\" is ${passed}, expected ${EXPECT_JSON_PASS}")
  endif()
endif()

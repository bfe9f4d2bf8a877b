# Checkpoints that restart on another rank count: runs an app on one rank uninterrupted (the
# reference), then for each case FROM>TO (e.g. 2>1) stops a run on FROM ranks with a checkpoint
# (checkpoint.stop_after = STOP: exit code 3, the checkpoint written, no result file), resumes
# it on TO ranks and compares the result with the reference (compare_h5.py). One rank runs
# without mpiexec. With BAD_ARGS, the checkpoint of the first case is first offered to a run on
# BAD_RANKS ranks with BAD_ARGS added, which must refuse it with exit code 2 and BAD_MESSAGE.
# -D: APP, ARGS, STOP, CASES, WORKDIR, MPIEXEC, MPIEXEC_PREFLAGS, PYTHON, COMPARE, IGNORE,
#     BAD_ARGS, BAD_RANKS, BAD_MESSAGE; lists joined with '|'.
foreach(v IN ITEMS ARGS CASES IGNORE MPIEXEC MPIEXEC_PREFLAGS BAD_ARGS)
  string(REPLACE "|" ";" ${v} "${${v}}")
endforeach()
cmake_minimum_required(VERSION 3.22)
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

function(run_app ranks result_var log_var)
  if(ranks EQUAL 1)
    set(command "${APP}")
  else()
    set(command ${MPIEXEC} ${ranks} ${MPIEXEC_PREFLAGS} "${APP}")
  endif()
  execute_process(COMMAND ${command} ${ARGS} -q ${ARGN} WORKING_DIRECTORY "${WORKDIR}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  set(${result_var} "${result}" PARENT_SCOPE)
  set(${log_var} "${out}${err}" PARENT_SCOPE)
endfunction()

run_app(1 result log -o "${WORKDIR}/reference.h5")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "reference run: exit ${result}:\n${log}")
endif()
set(compare_args "")
foreach(path IN LISTS IGNORE)
  list(APPEND compare_args --ignore "${path}")
endforeach()

set(first TRUE)
foreach(case IN LISTS CASES)
  string(REPLACE ">" ";" pair "${case}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  set(output "${WORKDIR}/from${from}to${to}.h5")
  set(checkpoint "${output}.checkpoint")
  run_app(${from} result log --set checkpoint.stop_after=${STOP} -o "${output}")
  if(NOT result EQUAL 3)
    message(FATAL_ERROR "${case}: the run on ${from} ranks exited ${result}, expected 3 "
                        "(stopped with a checkpoint):\n${log}")
  endif()
  if(NOT EXISTS "${checkpoint}" OR EXISTS "${output}")
    message(FATAL_ERROR "${case}: expected the checkpoint and no result file after the stop")
  endif()
  file(GLOB per_rank "${WORKDIR}/*.rank*of*")
  if(per_rank)
    message(FATAL_ERROR "${case}: per-rank checkpoint files: ${per_rank}")
  endif()
  if(first AND NOT "${BAD_ARGS}" STREQUAL "")
    run_app(${BAD_RANKS} result log ${BAD_ARGS} --resume "${checkpoint}"
            -o "${WORKDIR}/refused.h5")
    if(NOT result EQUAL 2 OR NOT log MATCHES "${BAD_MESSAGE}")
      message(FATAL_ERROR "${case}: a bad resume on ${BAD_RANKS} ranks exited ${result}, "
                          "expected 2 and '${BAD_MESSAGE}':\n${log}")
    endif()
    if(EXISTS "${WORKDIR}/refused.h5" OR NOT EXISTS "${checkpoint}")
      message(FATAL_ERROR "${case}: a refused resume wrote its output or lost the checkpoint")
    endif()
  endif()
  set(first FALSE)
  run_app(${to} result log --resume "${checkpoint}" -o "${output}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${case}: the resumed run on ${to} ranks exited ${result}:\n${log}")
  endif()
  if(EXISTS "${checkpoint}")
    message(FATAL_ERROR "${case}: the checkpoint was left behind")
  endif()
  execute_process(COMMAND "${PYTHON}" "${COMPARE}" "${WORKDIR}/reference.h5" "${output}"
                          ${compare_args}
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${case}: differs from the uninterrupted one-rank run:\n${out}${err}")
  endif()
  message(STATUS "${case}: ${out}")
endforeach()

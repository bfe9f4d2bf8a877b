# tools/config_docs.py --check must find a stale docs/config.md: a copy with one default changed
# in one app's table fails (exit 1, naming the app); the rewrite then restores it.
# -D: PYTHON, TOOL, APPS, DOCS, WORKDIR
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
file(READ "${DOCS}" text)
string(REPLACE "| `model.L` | integer | [2, 256] | `16` |" "| `model.L` | integer | [2, 256] | `18` |"
       stale "${text}")
if(stale STREQUAL text)
  message(FATAL_ERROR "the muca model.L row was not found in ${DOCS}")
endif()
file(WRITE "${WORKDIR}/config.md" "${stale}")
execute_process(COMMAND "${PYTHON}" "${TOOL}" --apps "${APPS}" --docs "${WORKDIR}/config.md" --check
                RESULT_VARIABLE result ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT result EQUAL 1 OR NOT err MATCHES "stale for portamc-muca")
  message(FATAL_ERROR "a stale copy gave exit ${result}: ${out}${err}")
endif()
execute_process(COMMAND "${PYTHON}" "${TOOL}" --apps "${APPS}" --docs "${WORKDIR}/config.md"
                RESULT_VARIABLE result)
file(READ "${WORKDIR}/config.md" rewritten)
if(NOT result EQUAL 0 OR NOT rewritten STREQUAL text)
  message(FATAL_ERROR "the rewrite did not restore the tables (exit ${result})")
endif()

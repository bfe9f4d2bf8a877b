# cmake/portamcGitHash.cmake on a scratch repository in WORKDIR: the hash of its commit on a
# clean tree, "-dirty" after a tracked file changes, back to clean after the commit, no
# "-dirty" for an untracked file, "unknown" outside a checkout; and the file is not rewritten
# when nothing changed (so an unchanged tree recompiles nothing). Then APP --version must
# name the commit of SOURCE_DIR that this build was made from.
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}/repo" "${WORKDIR}/plain")
set(out "${WORKDIR}/git_hash.cpp")
function(git)
  execute_process(COMMAND git -c user.name=t -c user.email=t@t ${ARGN}
                  WORKING_DIRECTORY "${WORKDIR}/repo" RESULT_VARIABLE failed
                  OUTPUT_VARIABLE text OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_VARIABLE error)
  if(failed)
    message(FATAL_ERROR "git ${ARGN}: ${error}")
  endif()
  set(git_output "${text}" PARENT_SCOPE)
endfunction()
function(expect_hash dir expected)
  # The ceiling keeps git from finding the checkout the build tree may sit in.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GIT_CEILING_DIRECTORIES=${WORKDIR}
                          ${CMAKE_COMMAND} -DSOURCE_DIR=${dir} -DOUTPUT=${out} -P ${SCRIPT}
                  RESULT_VARIABLE failed)
  file(READ "${out}" text)
  if(failed OR NOT text MATCHES "git_hash = \"${expected}\";")
    message(FATAL_ERROR "expected git_hash \"${expected}\" for ${dir}, got:\n${text}")
  endif()
endfunction()

git(init -q)
file(WRITE "${WORKDIR}/repo/a.txt" "one\n")
git(add a.txt)
git(commit -q -m first)
git(rev-parse --short=12 HEAD)
set(first "${git_output}")
expect_hash("${WORKDIR}/repo" "${first}")
file(TIMESTAMP "${out}" before "%s")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
expect_hash("${WORKDIR}/repo" "${first}")
file(TIMESTAMP "${out}" after "%s")
if(NOT before STREQUAL after)
  message(FATAL_ERROR "the unchanged hash was written again (${before} -> ${after})")
endif()
file(WRITE "${WORKDIR}/repo/untracked.txt" "x\n")
expect_hash("${WORKDIR}/repo" "${first}")
file(WRITE "${WORKDIR}/repo/a.txt" "two\n")
expect_hash("${WORKDIR}/repo" "${first}-dirty")
git(commit -q -am second)
git(rev-parse --short=12 HEAD)
expect_hash("${WORKDIR}/repo" "${git_output}")
expect_hash("${WORKDIR}/plain" "unknown")

# The build's own stamp: the commit of the source tree (whether or not it is dirty, which
# depends on edits made since the build).
execute_process(COMMAND "${APP}" --version OUTPUT_VARIABLE version RESULT_VARIABLE failed)
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE no_checkout)
if(no_checkout)
  set(head "unknown")
endif()
if(failed OR NOT version MATCHES "\\(git ${head}(-dirty)?\\)")
  message(FATAL_ERROR "${APP} --version does not name ${head} (rebuild after a commit):\n"
                      "${version}")
endif()

# Writes OUTPUT, a C++ source defining portamc::git_hash: the commit of the source tree at
# SOURCE_DIR as `git rev-parse --short=12 HEAD`, with "-dirty" appended when tracked files
# differ from that commit, or "unknown" outside a checkout (a release tarball).
#
# Run at every build (core/CMakeLists.txt), not once at configure time: a build tree that is
# rebuilt after a pull or a commit would otherwise stamp every output file with the commit it
# was configured at, and an edited tree with a commit it does not contain. The file is
# rewritten only when the text changes, so an unchanged tree recompiles nothing.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE failed)
if(failed OR NOT hash)
  set(hash "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
                  WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_VARIABLE changes ERROR_QUIET
                  RESULT_VARIABLE status_failed)
  if(status_failed OR NOT changes STREQUAL "")
    string(APPEND hash "-dirty")
  endif()
endif()
set(text "// Generated at build time by cmake/portamcGitHash.cmake.\n#include \"portamc/version.hpp\"\n\nnamespace portamc {\nconst char* const git_hash = \"${hash}\";\n}  // namespace portamc\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()

# Source rules that a compiler cannot check (docs/design.md):
# 1. Backend-specific preprocessor branches live in core/ only: no #if on KOKKOS_ENABLE_<backend>,
#    __CUDA_ARCH__, __CUDACC__ or HIP's macros in models/ or apps/.
# 2. No KOKKOS_LAMBDA or KOKKOS_CLASS_LAMBDA in a header ("Kernels in headers are functors"):
#    nvcc keeps a host-device lambda's function pointers per translation unit, so a header
#    kernel instantiated in two of them can call a pointer that was never set.
# -D SOURCE_DIR: the project root. With -D SELF_TEST=<dir>: writes a tree that breaks each rule
# under <dir> and checks that exactly those breaks are reported (the rules can fail).
cmake_minimum_required(VERSION 3.25)

# The lines of `file` whose text (without leading and trailing blanks) matches `regex`, as "file:line: text" entries (semicolons in the text
# become commas so that each line stays one list entry).
function(matching_lines file regex out)
  file(READ "${file}" text)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(found "")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(STRIP "${line}" line)
    if(line MATCHES "${regex}")
      list(APPEND found "${file}:${number}: ${line}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(find_breaks root out)
  set(breaks "")
  file(GLOB_RECURSE sources "${root}/models/*.hpp" "${root}/models/*.cpp" "${root}/apps/*.hpp"
       "${root}/apps/*.cpp")
  foreach(f IN LISTS sources)
    matching_lines("${f}"
      "^#[ \t]*(if|ifdef|ifndef|elif).*(KOKKOS_ENABLE_(CUDA|HIP|OPENMP|SERIAL|THREADS|SYCL)|__CUDA_ARCH__|__CUDACC__|__HIP_DEVICE_COMPILE__|__HIPCC__)"
      lines)
    foreach(line IN LISTS lines)
      list(APPEND breaks "backend #if outside core: ${line}")
    endforeach()
  endforeach()
  set(headers "")
  foreach(dir IN ITEMS core models apps tests bench)
    file(GLOB_RECURSE found "${root}/${dir}/*.hpp" "${root}/${dir}/*.h")
    list(APPEND headers ${found})
  endforeach()
  foreach(f IN LISTS headers)
    # Not in comments: lines whose text starts with //.
    matching_lines("${f}" "^([^/]|/[^/]).*KOKKOS_(CLASS_)?LAMBDA|^KOKKOS_(CLASS_)?LAMBDA" lines)
    foreach(line IN LISTS lines)
      list(APPEND breaks "KOKKOS_LAMBDA in a header: ${line}")
    endforeach()
  endforeach()
  set(${out} "${breaks}" PARENT_SCOPE)
endfunction()

if(SELF_TEST)
  file(REMOVE_RECURSE "${SELF_TEST}")
  file(WRITE "${SELF_TEST}/models/m/include/kernel.hpp"
       "// KOKKOS_LAMBDA in a comment is fine\nauto f = KOKKOS_LAMBDA(int i) {};\n"
       "void g() {\n  Kokkos::parallel_for(1,\n      KOKKOS_LAMBDA(int) {});\n}\n")
  file(WRITE "${SELF_TEST}/apps/a/main.cpp" "#if defined(KOKKOS_ENABLE_CUDA)\n#endif\n")
  file(WRITE "${SELF_TEST}/core/include/fine.hpp" "#ifdef __CUDA_ARCH__\n#endif\n")
  find_breaks("${SELF_TEST}" breaks)
  list(LENGTH breaks n)
  if(NOT n EQUAL 3 OR NOT breaks MATCHES "KOKKOS_LAMBDA in a header: [^;]*kernel.hpp:2:"
     OR NOT breaks MATCHES "KOKKOS_LAMBDA in a header: [^;]*kernel.hpp:5:"
     OR NOT breaks MATCHES "backend #if outside core: .*main.cpp")
    message(FATAL_ERROR "the rules missed a planted break or reported a wrong one: ${breaks}")
  endif()
  message(STATUS "every planted break was found")
  return()
endif()

find_breaks("${SOURCE_DIR}" breaks)
if(breaks)
  string(REPLACE ";" "\n" breaks "${breaks}")
  message(FATAL_ERROR "source rules broken (docs/design.md):\n${breaks}")
endif()
message(STATUS "source rules hold")

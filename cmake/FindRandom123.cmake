# Random123 is header-only: find Random123/philox.h and expose Random123::Random123.
find_path(Random123_INCLUDE_DIR NAMES Random123/philox.h HINTS ${Random123_ROOT} ENV Random123_ROOT PATH_SUFFIXES include)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Random123 REQUIRED_VARS Random123_INCLUDE_DIR)
if(Random123_FOUND AND NOT TARGET Random123::Random123)
  add_library(Random123::Random123 INTERFACE IMPORTED)
  set_property(TARGET Random123::Random123 PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${Random123_INCLUDE_DIR}")
endif()
mark_as_advanced(Random123_INCLUDE_DIR)

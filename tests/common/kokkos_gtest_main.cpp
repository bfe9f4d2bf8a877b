// GoogleTest entry point shared by every test executable: Kokkos is initialised
// once for the whole run, on the build's default execution space.
//
// Listing the tests (CTest's discovery, --gtest_list_tests) starts no execution space, so that
// a GPU build's tests can be discovered on a machine without a GPU (a Spack build node). On
// such a machine running them prints no_device_message(), which CTest reports as skipped
// (tests/CMakeLists.txt, SKIP_REGULAR_EXPRESSION).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>

#include "portamc/device_info.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    listing = listing || std::strcmp(argv[i], "--gtest_list_tests") == 0;
  ::testing::InitGoogleTest(&argc, argv);
  if (listing) return RUN_ALL_TESTS();
  if (!portamc::default_execution_space_available()) {
    std::printf("%s\n", portamc::no_device_message().c_str());
    return 0;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}

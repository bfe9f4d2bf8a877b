// The build's execution spaces by name (portamc/backends.hpp): what --backend and the
// per-backend tests rely on.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "portamc/backends.hpp"
#include "portamc/device_info.hpp"

namespace {

TEST(Backends, DefaultSpaceIsListedAndNamedInLowerCase) {
  const auto names = portamc::enabled_backends();
  ASSERT_FALSE(names.empty());
  EXPECT_NE(std::find(names.begin(), names.end(), portamc::default_backend()), names.end());
  EXPECT_EQ(portamc::backend_name<Kokkos::DefaultHostExecutionSpace>(), [] {
    std::string s = Kokkos::DefaultHostExecutionSpace::name();
    std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    return s;
  }());
  for (const auto& name : names) {
    EXPECT_TRUE(portamc::backend_enabled(name));
    EXPECT_EQ(name.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos) << name;
  }
}

TEST(Backends, WithBackendCallsTheNamedSpace) {
  for (const auto& name : portamc::enabled_backends()) {
    const std::string called = portamc::with_backend(
        name, [](auto space) { return portamc::backend_name<decltype(space)>(); });
    EXPECT_EQ(called, name);
  }
}

TEST(Backends, UnknownBackendIsRefusedByName) {
  EXPECT_FALSE(portamc::backend_enabled("nonesuch"));
  EXPECT_FALSE(portamc::backend_enabled("Serial"));  // names are lower case
  try {
    portamc::with_backend("nonesuch", [](auto) { return 0; });
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'nonesuch'"), std::string::npos) << what;
    EXPECT_NE(what.find(portamc::default_backend()), std::string::npos) << what;
  }
}

// Sum of 0..n-1 written and reduced by kernels on `space`. A function template, not code in
// the generic lambda below: nvcc cannot define a device lambda inside a generic lambda.
template <class Space>
long sum_on(const Space& space, int n) {
  Kokkos::View<long*, Space> v("v", n);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(int i) { v(i) = i; });
  long sum = 0;
  Kokkos::parallel_reduce(
      Kokkos::RangePolicy<Space>(space, 0, n), KOKKOS_LAMBDA(int i, long& s) { s += v(i); }, sum);
  return sum;
}

// Every space runs a kernel of its own and reports its own memory: the two facts a run on
// another backend of the same build depends on.
TEST(Backends, EverySpaceRunsAKernelAndDescribesItself) {
  int visited = 0;
  portamc::for_each_space([&](auto space) {
    using Space = decltype(space);
    ++visited;
    EXPECT_EQ(sum_on(space, 1000), 999L * 1000 / 2) << Space::name();
    const portamc::DeviceInfo info = portamc::device_info(portamc::backend_name<Space>());
    EXPECT_EQ(info.backend, std::string(Space::name()));
    EXPECT_GE(info.concurrency, 1);
    EXPECT_GT(info.memory_bytes, 0u);
    EXPECT_THROW(portamc::require_memory<Space>(std::size_t(1) << 62, "a test array"),
                 std::invalid_argument);
  });
  EXPECT_EQ(visited, static_cast<int>(portamc::enabled_backends().size()));
}

}  // namespace

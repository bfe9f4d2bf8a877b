// The halo transport choice shared by the decomposed models (parallel.halo_transport) and the
// NCCL communicator behind `nccl` (exercised for real only in CUDA builds with NCCL).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/halo_transport.hpp"
#include "portamc/kokkos_compat.hpp"

namespace {

using portamc::parallel::HaloTransport;
namespace parallel = portamc::parallel;

TEST(HaloTransport, NamesRoundTrip) {
  const std::vector<std::string> names = parallel::halo_transport_names();
  ASSERT_EQ(names.size(), 4u);
  for (const std::string& name : names)
    EXPECT_EQ(parallel::to_string(parallel::parse_halo_transport(name)), name);
  EXPECT_EQ(parallel::parse_halo_transport("auto"), HaloTransport::automatic);
}

TEST(HaloTransport, UnknownNameIsRefusedWithTheChoices) {
  try {
    parallel::parse_halo_transport("gpu_aware");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'gpu_aware'"), std::string::npos) << what;
    EXPECT_NE(what.find("mpi_staged"), std::string::npos) << what;
  }
}

TEST(HaloTransport, HostMemoryGoesToMpiDirectlyUnlessStagingIsAsked) {
  EXPECT_EQ(parallel::resolve_halo_transport(HaloTransport::automatic, true),
            HaloTransport::mpi_direct);
  EXPECT_EQ(parallel::resolve_halo_transport(HaloTransport::mpi_direct, true),
            HaloTransport::mpi_direct);
  EXPECT_EQ(parallel::resolve_halo_transport(HaloTransport::mpi_staged, true),
            HaloTransport::mpi_staged);
  EXPECT_THROW(parallel::resolve_halo_transport(HaloTransport::nccl, true), std::invalid_argument);
}

TEST(HaloTransport, DeviceMemoryPrefersNcclThenCudaAwareMpiThenStaging) {
  const HaloTransport automatic = parallel::resolve_halo_transport(HaloTransport::automatic, false);
  if (parallel::have_nccl()) {
    EXPECT_EQ(automatic, HaloTransport::nccl);
    EXPECT_EQ(parallel::resolve_halo_transport(HaloTransport::nccl, false), HaloTransport::nccl);
  } else {
    EXPECT_EQ(automatic, parallel::mpi_accepts_device_memory() ? HaloTransport::mpi_direct
                                                               : HaloTransport::mpi_staged);
    try {
      parallel::resolve_halo_transport(HaloTransport::nccl, false);
      FAIL() << "nccl accepted without NCCL";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("PORTAMC_ENABLE_NCCL"), std::string::npos) << e.what();
    }
  }
  // An explicit MPI choice is the user's (e.g. a CUDA-aware MPI the query does not detect).
  EXPECT_EQ(parallel::resolve_halo_transport(HaloTransport::mpi_direct, false),
            HaloTransport::mpi_direct);
  EXPECT_EQ(parallel::resolve_halo_transport(HaloTransport::mpi_staged, false),
            HaloTransport::mpi_staged);
}

// One rank sends two messages to itself through NCCL, in an order that differs from the
// receives': the tags, not the posting order, decide where each lands.
TEST(NcclCommunicator, MessagesToOneselfLandByTag) {
  if (!parallel::have_nccl()) {
    EXPECT_THROW(parallel::NcclCommunicator{parallel::Communicator{}}, std::logic_error);
    GTEST_SKIP() << "built without NCCL";
  }
  using Bytes = Kokkos::View<std::uint8_t*>;
  const std::size_t n = 1000;
  Bytes first("first", n), second("second", n), into_first("into_first", n),
      into_second("into_second", n);
  auto host = Kokkos::create_mirror_view(first);
  for (std::size_t i = 0; i < n; ++i) host(i) = static_cast<std::uint8_t>(i * 7 + 1);
  Kokkos::deep_copy(first, host);
  for (std::size_t i = 0; i < n; ++i) host(i) = static_cast<std::uint8_t>(i * 13 + 5);
  Kokkos::deep_copy(second, host);
  Kokkos::fence();
  parallel::NcclCommunicator nccl{parallel::Communicator{}};
  const Kokkos::DefaultExecutionSpace space;
  nccl.exchange({{into_second.data(), n, 0, 2}, {into_first.data(), n, 0, 1}},
                {{first.data(), n, 0, 1}, {second.data(), n, 0, 2}}, portamc::native_stream(space));
  space.fence();
  auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), into_first);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), into_second);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(a(i), static_cast<std::uint8_t>(i * 7 + 1)) << i;
    ASSERT_EQ(b(i), static_cast<std::uint8_t>(i * 13 + 5)) << i;
  }
}

}  // namespace

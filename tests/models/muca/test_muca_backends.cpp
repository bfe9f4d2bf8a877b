// The backends of one build agree bit for bit (integer acceptance, counter-based random
// numbers): the same fixed run on every enabled execution space lands on the state and the
// histogram of the Serial run (or of the first backend, in a build without Serial). Compiled
// once: it visits every space itself (portamc::for_each_space).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixed_run.hpp"
#include "portamc/backends.hpp"

namespace {

using namespace portamc::muca;
using namespace portamc::muca::test_runs;

TEST(MucaBackends, EveryBackendAgreesBitwiseWithSerial) {
  struct Result {
    std::string backend;
    ModelState state;
    std::vector<portamc::count_type> histogram;
  };
  std::vector<Result> results;
  portamc::for_each_space([&](auto space) {
    Result r;
    r.backend = portamc::backend_name<decltype(space)>();
    r.state = run_fixed(space, LatticeStorage::automatic, &r.histogram);
    results.push_back(std::move(r));
  });
  ASSERT_FALSE(results.empty());
  // Host spaces come first: Serial's result, where the build has it, is results[0].
  const Result& reference = results.front();
  if (portamc::backend_enabled("serial")) EXPECT_EQ(reference.backend, "serial");
  for (const Result& r : results) {
    EXPECT_EQ(r.state.spins, reference.state.spins) << r.backend << " vs " << reference.backend;
    EXPECT_EQ(r.state.bins, reference.state.bins) << r.backend << " vs " << reference.backend;
    EXPECT_EQ(r.state.step, reference.state.step) << r.backend << " vs " << reference.backend;
    EXPECT_EQ(r.histogram, reference.histogram) << r.backend << " vs " << reference.backend;
  }
}

}  // namespace

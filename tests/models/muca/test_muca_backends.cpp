// The backends of one build agree bit for bit (integer acceptance, counter-based random
// numbers): the same fixed run on every enabled execution space lands on the state and the
// histogram of the Serial run (or of the first backend, in a build without Serial). Compiled
// once: it visits every space itself (portamc::for_each_space).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixed_run.hpp"
#include "portamc/backends.hpp"
#include "portamc/muca/detail/spin_muca.hpp"

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

// The generic engine likewise, for Potts (4 bits per site) in 2D, the Ising model in 3D and
// Blume-Capel at beta = 0.6: 300 walkers (a partial last team on a GPU), weights that favour
// low bins, an odd number of attempts, and a grouped recording over 7 groups after a plain one,
// measuring the order parameter every 100 attempts.
TEST(MucaBackends, TheGenericEngineAgreesBitwiseOnEveryBackend) {
  for (const Hamiltonian& h : {make_hamiltonian(HamiltonianKind::potts, 2, 6, 10),
                               make_hamiltonian(HamiltonianKind::ising, 3, 4),
                               make_hamiltonian(HamiltonianKind::blume_capel, 2, 6, 2, 0.6)}) {
    SCOPED_TRACE(h.describe());
    struct Result {
      std::string backend;
      ModelState state;
      std::vector<portamc::count_type> histogram, grouped;
      std::vector<std::uint64_t> order_sums;
    };
    std::vector<Result> results;
    portamc::for_each_space([&](auto space) {
      Parameters p;
      p.walkers = 300;
      p.seed = 77;
      p.walker_groups = 7;
      SpinMuca<decltype(space)> engine(space, p, h);
      std::vector<double> lnw(static_cast<std::size_t>(engine.energy_bins().count));
      for (std::size_t k = 0; k < lnw.size(); ++k) lnw[k] = -0.15 * static_cast<double>(k);
      engine.set_log_weights(lnw);
      Result r;
      r.backend = portamc::backend_name<decltype(space)>();
      engine.thermalise(333);
      r.histogram = engine.sample(1001);
      OrderParameterRecorder<decltype(space)> recorder;
      recorder.interval = 100;
      recorder.spec = order_parameter_spec(h);
      recorder.sums = typename OrderParameterRecorder<decltype(space)>::sum_view(
          "sums", 7 * lnw.size(), kOrderSlots);
      r.grouped = engine.sample_by_group(517, &recorder);
      auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), recorder.sums);
      r.order_sums.assign(sums.data(), sums.data() + sums.size());
      r.state = engine.state();
      results.push_back(std::move(r));
    });
    ASSERT_FALSE(results.empty());
    const Result& reference = results.front();
    for (const Result& r : results) {
      EXPECT_EQ(r.state.spins, reference.state.spins) << r.backend << " vs " << reference.backend;
      EXPECT_EQ(r.state.bins, reference.state.bins) << r.backend << " vs " << reference.backend;
      EXPECT_EQ(r.histogram, reference.histogram) << r.backend << " vs " << reference.backend;
      EXPECT_EQ(r.grouped, reference.grouped) << r.backend << " vs " << reference.backend;
      EXPECT_EQ(r.order_sums, reference.order_sums) << r.backend << " vs " << reference.backend;
    }
    // Measured at steps 1400, 1500, ..., 1800: five times per walker.
    std::uint64_t measurements = 0;
    for (std::size_t i = 0; i < reference.order_sums.size(); i += kOrderSlots)
      measurements += reference.order_sums[i];
    EXPECT_EQ(measurements, 300u * 5u);
    // The walkers moved and were counted: every attempt once.
    std::uint64_t total = 0;
    for (auto c : reference.grouped) total += c;
    EXPECT_EQ(total, 300u * 517u);
  }
}

}  // namespace

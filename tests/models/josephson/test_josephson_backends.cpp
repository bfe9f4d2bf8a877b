// The backends of one build agree: the same escape ensemble (float and double) on every
// enabled execution space against the Serial one (or the first backend, in a build without
// Serial). Host backends run the same host code and agree bit for bit; a GPU backend's math
// library and multiply-add contraction round differently, so a few trajectories may cross
// the threshold at another step, and the mean escape time and the censored count must agree
// within their errors. Compiled once: it visits every space itself (portamc::for_each_space).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "ensemble_checks.hpp"
#include "portamc/backends.hpp"
#include "portamc/fast_math.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "portamc/kokkos_compat.hpp"
#include "quick_escape.hpp"

namespace {

using namespace portamc::josephson;
using portamc::josephson::testing::expect_identical;
using portamc::josephson::testing::mean_of;
using portamc::josephson::testing::MeanEstimate;
using portamc::josephson::testing::quick_escape;

// `min_identical_fraction`: of a GPU backend's escape steps equal to the reference's;
// `gpu_float_fraction` instead for float on a backend with hardware approximations.
template <class Real>
void expect_backends_agree(double min_identical_fraction, double gpu_float_fraction) {
  const LangevinParameters p = quick_escape(1024);
  std::string reference_name;
  EnsembleResults reference;
  portamc::for_each_space([&](auto space) {
    using Space = decltype(space);
    Ensemble<Space, Real> ensemble(space, p);
    ensemble.run();
    ASSERT_TRUE(ensemble.done());
    const EnsembleResults r = ensemble.results();
    const std::string name = portamc::backend_name<Space>();
    if (reference_name.empty()) {  // host spaces first: Serial where the build has it
      reference_name = name;
      reference = r;
      return;
    }
    const std::string what = name + " vs " + reference_name;
    if constexpr (!portamc::is_device_space_v<Space>) {
      expect_identical(r, reference, what);
    } else {
      const double fraction =
          std::is_same_v<Real, float> && portamc::fastmath::hardware_approximations<Space>
              ? gpu_float_fraction
              : min_identical_fraction;
      std::size_t same = 0;
      for (std::size_t i = 0; i < r.size(); ++i) same += r.steps[i] == reference.steps[i];
      EXPECT_GE(static_cast<double>(same), fraction * static_cast<double>(r.size())) << what;
      const MeanEstimate d = mean_of(r.escape_times());
      const MeanEstimate h = mean_of(reference.escape_times());
      EXPECT_NEAR(d.mean, h.mean, d.error) << "mean escape time, " << what;
      EXPECT_NEAR(static_cast<double>(r.count(Outcome::censored)),
                  static_cast<double>(reference.count(Outcome::censored)), 0.02 * r.size())
          << what;
    }
  });
  if (portamc::backend_enabled("serial")) EXPECT_EQ(reference_name, "serial");
}

TEST(JosephsonBackends, EveryBackendAgreesWithSerial) {
  expect_backends_agree<double>(0.99, 0.99);
  // On CUDA float runs on the special-function unit (fast_math.hpp), a few roundings away.
  expect_backends_agree<float>(0.95, 0.9);
}

}  // namespace

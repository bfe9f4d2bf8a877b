// float and double fields sample the same theory: in 4D at beta = 2.3 (and in 3D), the
// spatial and temporal plaquettes of independent float and double runs agree within their
// binned statistical errors. The trajectories themselves separate after a few sweeps
// (the dynamics is chaotic), so only the statistics can agree.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "portamc/statistics.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

struct Plaquettes {
  portamc::stats::Estimate spatial, temporal;
};

template <class Real>
Plaquettes measure(const std::vector<int>& extents, double beta, std::uint64_t seed) {
  GaugeField<Space, Real> field(Space(), extents);
  field.hot_start(seed);
  UpdateParameters p;
  p.beta = beta;
  p.seed = seed;
  p.overrelaxation_sweeps = 1;
  Updater<Space, Real> updater(Space(), p);
  for (int i = 0; i < 50; ++i) updater.update(field);
  std::vector<double> spatial, temporal;
  for (int i = 0; i < 512; ++i) {
    updater.update(field);
    const auto plaquette = field.plaquette();
    spatial.push_back(plaquette.spatial);
    temporal.push_back(plaquette.temporal);
  }
  return {portamc::stats::binned_mean(spatial, 16), portamc::stats::binned_mean(temporal, 16)};
}

void expect_agree(const portamc::stats::Estimate& f, const portamc::stats::Estimate& d,
                  const std::string& what) {
  const double sigma = std::hypot(f.error, d.error);
  EXPECT_NEAR(f.value, d.value, 4 * sigma) << what << ": float " << f.value << " +- " << f.error
                                           << ", double " << d.value << " +- " << d.error;
  EXPECT_LT(sigma, 3e-3) << what;
}

TEST(Precision, FloatAndDoubleAgreeIn4D) {
  const auto f = measure<float>({6, 6, 6, 6}, 2.3, 1);
  const auto d = measure<double>({6, 6, 6, 6}, 2.3, 2);
  expect_agree(f.spatial, d.spatial, "4D spatial plaquette");
  expect_agree(f.temporal, d.temporal, "4D temporal plaquette");
}

TEST(Precision, FloatAndDoubleAgreeIn3D) {
  const auto f = measure<float>({8, 8, 8}, 4.0, 3);
  const auto d = measure<double>({8, 8, 8}, 4.0, 4);
  expect_agree(f.spatial, d.spatial, "3D spatial plaquette");
  expect_agree(f.temporal, d.temporal, "3D temporal plaquette");
}

}  // namespace

// A random gauge transformation U_mu(x) -> g(x) U_mu(x) g(x+mu)^dagger changes every link
// but no gauge-invariant observable: plaquettes and each Polyakov loop stay the same to
// rounding, and the links stay on SU(2).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

template <class Real>
class GaugeInvarianceTest : public ::testing::Test {};
TYPED_TEST_SUITE(GaugeInvarianceTest, su2_test::Precisions);

TYPED_TEST(GaugeInvarianceTest, RandomTransformationKeepsPlaquettesAndPolyakovLoops) {
  const std::vector<std::vector<int>> lattices = {{6, 8}, {4, 6, 4}, {4, 4, 2, 6}};
  const double tol = 4 * su2_test::rounding<TypeParam>();
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    GaugeField<Space, TypeParam> field(Space(), extents);
    field.hot_start(12);
    UpdateParameters params;
    params.beta = 3.0;  // ordered enough that Polyakov loops are far from 0
    Updater<Space, TypeParam> updater(Space(), params);
    for (int i = 0; i < 2; ++i) updater.heatbath_sweep(field);

    const auto plaquette = field.plaquette();
    const auto loops = field.polyakov_loops();
    const auto links = field.to_canonical();
    for (std::uint64_t step = 0; step < 3; ++step) field.random_gauge_transformation(77, step);

    EXPECT_GT(su2_test::max_abs_difference(field.to_canonical(), links), 0.5);
    EXPECT_LT(field.max_unitarity_violation(), su2_test::unitarity_tolerance<TypeParam>());
    const auto p = field.plaquette();
    EXPECT_NEAR(p.total, plaquette.total, tol);
    EXPECT_NEAR(p.temporal, plaquette.temporal, tol);
    if (extents.size() > 2) EXPECT_NEAR(p.spatial, plaquette.spatial, tol);
    EXPECT_LT(su2_test::max_abs_difference(field.polyakov_loops(), loops), tol);
  }
}

TEST(GaugeInvariance, TransformationIsAPureFunctionOfSeedAndStep) {
  GaugeField<Space, double> a(Space(), {4, 4, 4}), b(Space(), {4, 4, 4});
  a.hot_start(1);
  b.hot_start(1);
  a.random_gauge_transformation(5, 2);
  b.random_gauge_transformation(5, 2);
  EXPECT_EQ(a.to_canonical(), b.to_canonical());
  b.random_gauge_transformation(5, 3);
  EXPECT_NE(a.to_canonical(), b.to_canonical());
}

}  // namespace

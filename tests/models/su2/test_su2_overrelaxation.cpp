// Overrelaxation is a microcanonical move: it changes the links but leaves the action
// unchanged to rounding, and the links stay on SU(2). A wrong staple orientation breaks
// the conservation, so this also checks the staple sum in every dimension.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

template <class Real>
class OverrelaxationTest : public ::testing::Test {};
TYPED_TEST_SUITE(OverrelaxationTest, su2_test::Precisions);

TYPED_TEST(OverrelaxationTest, ConservesTheActionAndUnitarity) {
  const std::vector<std::vector<int>> lattices = {{8, 6}, {4, 6, 4}, {4, 4, 6, 4}};
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    UpdateParameters params;
    params.beta = 2.3;
    params.seed = 31;
    GaugeField<Space, TypeParam> field(Space(), extents);
    field.hot_start(4);
    Updater<Space, TypeParam> updater(Space(), params);
    for (int i = 0; i < 3; ++i) updater.heatbath_sweep(field);  // a typical, not random, field

    const double before = field.action(params.beta);
    const auto links_before = field.to_canonical();
    for (int i = 0; i < 20; ++i) updater.overrelaxation_sweep(field);
    const double after = field.action(params.beta);

    EXPECT_NEAR(after, before, su2_test::rounding<TypeParam>() * before);
    EXPECT_LT(field.max_unitarity_violation(), su2_test::unitarity_tolerance<TypeParam>());
    EXPECT_GT(su2_test::max_abs_difference(field.to_canonical(), links_before), 0.5)
        << "overrelaxation did not move the links";
    EXPECT_EQ(updater.heatbath_sweeps_done(), 3u) << "overrelaxation draws no random numbers";
  }
}

TYPED_TEST(OverrelaxationTest, LeavesColdStartUnchanged) {
  // V = 1 for every link: U -> U^dagger = 1.
  GaugeField<Space, TypeParam> field(Space(), {4, 4, 4, 4});
  Updater<Space, TypeParam> updater(Space(), UpdateParameters{});
  updater.overrelaxation_sweep(field);
  EXPECT_EQ(field.plaquette().total, 1.0);
}

}  // namespace

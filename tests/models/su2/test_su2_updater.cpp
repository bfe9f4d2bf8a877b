// The update schedule and its bookkeeping: parameter validation, reproducibility from
// (seed, sweep counter) alone, the heatbath tally, links left unchanged when the retries
// run out and the automatic method choice, on every backend (test_su2_backends.cpp compares
// the backends with each other).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

UpdateParameters params_with(double beta, std::uint64_t seed = 42) {
  UpdateParameters p;
  p.beta = beta;
  p.seed = seed;
  return p;
}

TEST(Updater, RejectsBadParameters) {
  auto rejects = [](void (*edit)(UpdateParameters&)) {
    UpdateParameters p;
    edit(p);
    EXPECT_THROW(p.validate(), std::invalid_argument);
    EXPECT_THROW((Updater<Space, double>(Space(), p)), std::invalid_argument);
  };
  rejects([](UpdateParameters& p) { p.beta = 0; });
  rejects([](UpdateParameters& p) { p.beta = -1; });
  rejects([](UpdateParameters& p) { p.beta = std::numeric_limits<double>::quiet_NaN(); });
  rejects([](UpdateParameters& p) { p.beta = std::numeric_limits<double>::infinity(); });
  rejects([](UpdateParameters& p) { p.heatbath_sweeps = -1; });
  rejects([](UpdateParameters& p) { p.overrelaxation_sweeps = -1; });
  rejects([](UpdateParameters& p) { p.max_attempts = 0; });
  rejects([](UpdateParameters& p) { p.max_attempts = max_heatbath_attempts + 1; });
  rejects([](UpdateParameters& p) { p.kp_threshold = -1; });
  rejects([](UpdateParameters& p) { p.reunitarise_every = -1; });
  rejects([](UpdateParameters& p) { p.method = static_cast<HeatbathMethod>(7); });
  try {
    UpdateParameters p;
    p.beta = -0.5;
    p.validate();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beta"), std::string::npos) << e.what();
  }
  UpdateParameters ok;
  EXPECT_NO_THROW(ok.validate());
}

template <class Real>
class UpdaterTest : public ::testing::Test {};
TYPED_TEST_SUITE(UpdaterTest, su2_test::Precisions);

TYPED_TEST(UpdaterTest, SameSeedGivesTheSameConfiguration) {
  auto run = [](std::uint64_t seed) {
    GaugeField<Space, TypeParam> field(Space(), {4, 4, 2, 4});
    field.hot_start(3);
    UpdateParameters p = params_with(2.3, seed);
    p.overrelaxation_sweeps = 2;
    Updater<Space, TypeParam> updater(Space(), p);
    for (int i = 0; i < 3; ++i) updater.update(field);
    return field.to_canonical();
  };
  const auto a = run(42);
  EXPECT_EQ(run(42), a);
  EXPECT_NE(run(43), a);
}

TYPED_TEST(UpdaterTest, ResumingFromConfigurationAndCounterContinuesBitForBit) {
  const std::vector<int> extents = {4, 4, 4, 2};
  UpdateParameters p = params_with(2.0);
  p.overrelaxation_sweeps = 1;

  GaugeField<Space, TypeParam> straight(Space(), extents);
  straight.hot_start(9);
  Updater<Space, TypeParam> u1(Space(), p);
  for (int i = 0; i < 5; ++i) u1.update(straight);

  GaugeField<Space, TypeParam> first(Space(), extents);
  first.hot_start(9);
  Updater<Space, TypeParam> u2(Space(), p);
  for (int i = 0; i < 3; ++i) u2.update(first);
  const auto saved = first.to_canonical();
  const auto counter = u2.heatbath_sweeps_done();

  GaugeField<Space, TypeParam> resumed(Space(), extents);
  resumed.from_canonical(saved);
  Updater<Space, TypeParam> u3(Space(), p);
  u3.set_heatbath_sweeps_done(counter);
  for (int i = 0; i < 2; ++i) u3.update(resumed);
  EXPECT_EQ(resumed.to_canonical(), straight.to_canonical());
}

TYPED_TEST(UpdaterTest, TallyCountsEveryLinkUpdate) {
  GaugeField<Space, TypeParam> field(Space(), {4, 6, 4});
  UpdateParameters p = params_with(2.3);
  p.heatbath_sweeps = 2;
  p.overrelaxation_sweeps = 3;
  p.count_attempts = true;
  Updater<Space, TypeParam> updater(Space(), p);
  updater.update(field);
  updater.update(field);
  EXPECT_EQ(updater.updates_done(), 2u);
  EXPECT_EQ(updater.heatbath_sweeps_done(), 4u);
  const HeatbathTally t = updater.tally();
  EXPECT_EQ(t.links, 4u * static_cast<std::uint64_t>(field.link_count()));
  EXPECT_GE(t.attempts, t.links);
  EXPECT_LT(t.attempts, 2 * t.links) << "acceptance should be above 0.7 everywhere";
  EXPECT_EQ(t.failures, 0u);
  updater.reset_tally();
  EXPECT_EQ(updater.tally().links, 0u);
  EXPECT_EQ(updater.tally().attempts, 0u);
}

TYPED_TEST(UpdaterTest, CountingAttemptsChangesNothingButTheTally) {
  auto run = [](bool count) {
    GaugeField<Space, TypeParam> field(Space(), {4, 4, 4, 4});
    field.hot_start(2);
    UpdateParameters p = params_with(2.3);
    p.count_attempts = count;
    Updater<Space, TypeParam> updater(Space(), p);
    for (int i = 0; i < 2; ++i) updater.update(field);
    return std::make_pair(field.to_canonical(), updater.tally());
  };
  const auto counted = run(true), plain = run(false);
  // Same random words and formulas; the two kernels may contract products differently.
  EXPECT_LE(su2_test::fraction_differing(counted.first, plain.first,
                                         100 * su2_test::rounding<TypeParam>()),
            0.01);
  EXPECT_EQ(counted.second.links, plain.second.links);
  EXPECT_EQ(counted.second.failures, plain.second.failures);
  EXPECT_EQ(plain.second.attempts, 0u) << "not counted";
  EXPECT_GE(counted.second.attempts, counted.second.links);
}

TYPED_TEST(UpdaterTest, LinksAreKeptWhenRetriesRunOut) {
  // Creutz at alpha ~ 1000 accepts about 4% of single proposals.
  for (bool count : {false, true}) {
    GaugeField<Space, TypeParam> field(Space(), {4, 4, 4, 4});
    field.hot_start(21);
    UpdateParameters p = params_with(500.0);
    p.method = HeatbathMethod::creutz;
    p.max_attempts = 1;
    p.count_attempts = count;
    Updater<Space, TypeParam> updater(Space(), p);
    const auto before = field.to_canonical();
    updater.heatbath_sweep(field);
    const auto after = field.to_canonical();
    std::uint64_t changed = 0;
    for (std::size_t l = 0; l < before.size(); l += 4) {
      bool same = true;
      for (int c = 0; c < 4; ++c) same = same && before[l + c] == after[l + c];
      changed += same ? 0 : 1;
    }
    const HeatbathTally t = updater.tally();
    EXPECT_EQ(t.links, static_cast<std::uint64_t>(field.link_count()));
    if (count) EXPECT_EQ(t.attempts, t.links);
    EXPECT_GT(t.failures, t.links / 2);
    EXPECT_EQ(changed, t.links - t.failures);
    EXPECT_LT(field.max_unitarity_violation(), su2_test::unitarity_tolerance<TypeParam>());
  }
}

TYPED_TEST(UpdaterTest, AutomaticMethodFollowsTheStapleStrength) {
  // |W| <= 2 (D - 1) = 6, so alpha <= 0.6 < threshold at beta = 0.1: Creutz only. At
  // beta = 20 from a cold start alpha is near 120: Kennedy–Pendleton.
  GaugeField<Space, TypeParam> weak(Space(), {4, 4, 4, 4}), strong(Space(), {4, 4, 4, 4});
  UpdateParameters p_weak = params_with(0.1), p_strong = params_with(20.0);
  p_weak.count_attempts = p_strong.count_attempts = true;
  Updater<Space, TypeParam> u_weak(Space(), p_weak), u_strong(Space(), p_strong);
  u_weak.heatbath_sweep(weak);
  u_strong.heatbath_sweep(strong);
  EXPECT_EQ(u_weak.tally().kennedy_pendleton, 0u);
  EXPECT_EQ(u_strong.tally().kennedy_pendleton, u_strong.tally().links);
}

TEST(Updater, HeatbathOnAColdStartAtLargeBetaStaysOrdered) {
  GaugeField<Space, double> field(Space(), {4, 4, 4, 4});
  Updater<Space, double> updater(Space(), params_with(50.0));
  for (int i = 0; i < 3; ++i) updater.heatbath_sweep(field);
  // weak coupling: 1 - <P> = 3 / (4 beta) + O(beta^-2)
  EXPECT_NEAR(1 - field.plaquette().total, 3.0 / (4 * 50.0), 0.005);
}

}  // namespace

// The retry-queue heatbath kernel (queued_heatbath_kernel.hpp) against the per-link one:
// bitwise the same links and failure counts after several sweeps, in float and double, in
// 2D, 3D and 4D (half volumes that fill whole teams and ones that end in a partial team),
// where retries are frequent (Kennedy–Pendleton at beta = 2.3, forced Creutz, the automatic
// mixture near the crossover) and where the retry bound is hit (one or two proposals).
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;

struct Case {
  std::vector<int> extents;
  double beta;
  HeatbathMethod method;
  int max_attempts;
};

struct Outcome {
  std::vector<double> links;
  HeatbathTally tally;
};

template <class Space, class Real>
Outcome run(const Case& c, HeatbathKernelVariant variant, bool count_attempts = false) {
  GaugeField<Space, Real> field(Space(), c.extents);
  field.hot_start(7);
  UpdateParameters p;
  p.beta = c.beta;
  p.seed = 11;
  p.method = c.method;
  p.max_attempts = c.max_attempts;
  p.heatbath_sweeps = 2;
  p.overrelaxation_sweeps = 1;  // moves links the heatbath left alone after failures
  p.heatbath_variant = variant;
  p.count_attempts = count_attempts;
  Updater<Space, Real> updater(Space(), p);
  for (int i = 0; i < 3; ++i) updater.update(field);
  return {field.to_canonical(), updater.tally()};
}

/// Runs both variants on Space and expects identical links and failures; returns the tally
/// of the counting (per-link) kernel on the same case, which says how often retries ran.
template <class Space, class Real>
HeatbathTally expect_identical(const Case& c) {
  const Outcome per_link = run<Space, Real>(c, HeatbathKernelVariant::per_link);
  const Outcome queued = run<Space, Real>(c, HeatbathKernelVariant::retry_queue);
  EXPECT_EQ(queued.tally.links, per_link.tally.links);
  EXPECT_EQ(queued.tally.failures, per_link.tally.failures);
  EXPECT_EQ(queued.links.size(), per_link.links.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < per_link.links.size(); ++i)
    differing += queued.links[i] != per_link.links[i] ? 1 : 0;  // bitwise, not to rounding
  EXPECT_EQ(differing, 0u) << "of " << per_link.links.size() << " link components";
  const Outcome counted = run<Space, Real>(c, HeatbathKernelVariant::retry_queue, true);
  EXPECT_EQ(counted.links, per_link.links);
  return counted.tally;
}

template <class Real>
class QueuedHeatbath : public ::testing::Test {};
TYPED_TEST_SUITE(QueuedHeatbath, su2_test::Precisions);

template <class Space, class Real>
void frequent_retries() {
  // Half volumes 2048 and 512 (whole GPU teams of 256), 180 and 120 (a partial team).
  for (const auto& extents :
       std::vector<std::vector<int>>{{8, 8, 8, 8}, {6, 6, 10}, {16, 4, 4, 4}, {20, 12}}) {
    SCOPED_TRACE(::testing::Message() << "D = " << extents.size());
    const auto kp = expect_identical<Space, Real>(
        {extents, 2.3, HeatbathMethod::automatic, max_heatbath_attempts});
    // Retries happen: > 2 % of the links need a second proposal.
    EXPECT_GT(kp.attempts, kp.links + kp.links / 50);
    EXPECT_EQ(kp.failures, 0u);
    const auto creutz = expect_identical<Space, Real>({extents, 2.3, HeatbathMethod::creutz, 64});
    EXPECT_GT(creutz.attempts, kp.links + kp.links / 2);  // acceptance ~0.5 at alpha ~ 6
    // Near the crossover alpha* both methods occur.
    const auto mixed = expect_identical<Space, Real>({extents, 1.0, HeatbathMethod::automatic, 64});
    EXPECT_GT(mixed.kennedy_pendleton, 0u);
    EXPECT_LT(mixed.kennedy_pendleton, mixed.links);
  }
}

template <class Space, class Real>
void retry_bound_hit() {
  for (const auto& extents : std::vector<std::vector<int>>{{8, 8, 8, 8}, {6, 6, 10}, {20, 12}}) {
    SCOPED_TRACE(::testing::Message() << "D = " << extents.size());
    // Kennedy–Pendleton at small alpha accepts rarely: one or two proposals often fail.
    for (int max_attempts : {1, 2}) {
      const auto t = expect_identical<Space, Real>(
          {extents, 0.3, HeatbathMethod::kennedy_pendleton, max_attempts});
      EXPECT_GT(t.failures, t.links / 10) << "max_attempts = " << max_attempts;
    }
    const auto t = expect_identical<Space, Real>({extents, 2.3, HeatbathMethod::creutz, 1});
    EXPECT_GT(t.failures, t.links / 10);
  }
}

TYPED_TEST(QueuedHeatbath, SameLinksAsPerLinkKernelWhenRetriesAreFrequent) {
  frequent_retries<TestSpace, TypeParam>();
}

TYPED_TEST(QueuedHeatbath, SameLinksAndFailuresWhenTheRetryBoundIsHit) {
  retry_bound_hit<TestSpace, TypeParam>();
}

TEST(QueuedHeatbath, UnknownVariantIsRefused) {
  UpdateParameters p;
  p.heatbath_variant = static_cast<HeatbathKernelVariant>(5);
  EXPECT_THROW(p.validate(), std::invalid_argument);
  p.heatbath_variant = HeatbathKernelVariant::retry_queue;
  EXPECT_NO_THROW(p.validate());
}

}  // namespace

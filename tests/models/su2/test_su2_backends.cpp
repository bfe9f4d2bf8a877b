// Every backend of the build against Serial's (the first backend's without Serial): the same
// hot start and the same update sweeps give the same links. Compiled once; the other su2 test
// files run on each backend by themselves.
//
// Host backends run the same code on the same words: their links equal Serial's bit for bit.
// A device backend may round the last bits of sin/cos and of contracted products differently,
// so its hot start agrees to 1e-14, and its updated links to rounding except where rounding
// flipped an accept/reject decision (rare; then one link differs entirely).
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "su2_test_support.hpp"

namespace {

using namespace portamc::su2;

template <class Space>
constexpr bool host_backend() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
}

/// Calls run(space) on every backend, then check(host, result, reference) for each, the
/// reference being Serial's result (the first backend's without Serial).
template <class Run, class Check>
void against_reference(Run&& run, Check&& check) {
  struct Result {
    std::string name;
    bool host;
    std::vector<double> links;
  };
  std::vector<Result> results;
  portamc::for_each_space([&](auto space) {
    using Space = decltype(space);
    results.push_back({portamc::backend_name<Space>(), host_backend<Space>(), run(space)});
  });
  ASSERT_FALSE(results.empty());
  const Result* reference = &results.front();
  for (const Result& r : results)
    if (r.name == "serial") reference = &r;
  for (const Result& r : results) {
    SCOPED_TRACE(r.name + " against " + reference->name);
    check(r.host, r.links, reference->links);
  }
}

TEST(Su2Backends, HotStartsAgreeWithSerial) {
  against_reference(
      [](auto space) {
        using Space = decltype(space);
        GaugeField<Space, double> field(space, {4, 4, 2, 4});
        field.hot_start(3);
        return field.to_canonical();
      },
      [](bool host, const std::vector<double>& links, const std::vector<double>& reference) {
        if (host) {
          EXPECT_EQ(links, reference);
        } else {
          // Same words, same formulas; only the last bits of sin/cos may differ between
          // libraries.
          EXPECT_LT(su2_test::max_abs_difference(links, reference), 1e-14);
        }
      });
}

TEST(Su2Backends, UpdatesAgreeWithSerial) {
  for (const auto variant : {HeatbathKernelVariant::per_link, HeatbathKernelVariant::retry_queue}) {
    SCOPED_TRACE(variant == HeatbathKernelVariant::per_link ? "per-link heatbath"
                                                            : "retry-queue heatbath");
    against_reference(
        [&](auto space) {
          using Space = decltype(space);
          GaugeField<Space, double> field(space, {4, 4, 4, 4});
          field.hot_start(6);
          UpdateParameters p;
          p.beta = 2.3;
          p.seed = 42;
          p.overrelaxation_sweeps = 1;
          p.heatbath_variant = variant;
          Updater<Space, double> updater(space, p);
          updater.update(field);
          return field.to_canonical();
        },
        [](bool host, const std::vector<double>& links, const std::vector<double>& reference) {
          if (host) {
            EXPECT_EQ(links, reference);
          } else {
            // Same random words, same arithmetic: the sweeps agree link by link up to
            // rounding, except where rounding flips an accept/reject decision.
            EXPECT_LE(su2_test::fraction_differing(links, reference, 1e-9), 0.01);
          }
        });
  }
}

}  // namespace

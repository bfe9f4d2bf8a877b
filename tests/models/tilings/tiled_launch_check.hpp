#pragma once
// The launch-by-launch comparison that the tiled domino tests (byte tiles, bit-sliced tiles)
// share: the device sampler runs one launch at a time next to a host re-implementation, and
// after each launch the attempts, the tiling and the height function (valid, with the
// domain's boundary heights) must agree.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/domino_heights.hpp"
#include "portamc/tilings/domino/thurston.hpp"

namespace portamc::tilings::testing {

/// host_launch(first, tiling) applies the launch whose first global step is `first` to the host
/// tiling and returns its attempts. The sampler must start from the maximal tiling. Returns the
/// launches that changed the tiling (-1 after the first mismatch, which is reported).
template <class Sampler, class HostLaunch>
int launches_that_match(Sampler& sampler, const SquareDomain& domain, int launches,
                        HostLaunch&& host_launch, const std::string& what) {
  const std::vector<int> boundary = domino_boundary_heights(domain);
  DominoTiling reference = maximal_domino_tiling(domain);
  int moved = 0;
  for (int launch = 0; launch < launches; ++launch) {
    const DominoTiling before = reference;
    const std::uint64_t expected = host_launch(sampler.steps_done() + 1, reference);
    const std::uint64_t attempts = sampler.run_steps(1);
    EXPECT_EQ(attempts, expected) << what << ": attempts of launch " << launch;
    const DominoTiling now = sampler.tiling();
    EXPECT_EQ(now, reference) << what << ": launch " << launch;
    const std::vector<int> h = sampler.heights();
    EXPECT_TRUE(is_height_function(domain, h)) << what << ": " << height_function_error(domain, h);
    bool boundary_kept = true;
    for (int i = 0; i < domain.vertex_rows(); ++i) {
      for (int j = 0; j < domain.vertex_cols(); ++j) {
        const int v = domain.vertex_index(i, j);
        boundary_kept = boundary_kept && (!domain.is_boundary_vertex(i, j) || h[v] == boundary[v]);
      }
    }
    EXPECT_TRUE(boundary_kept) << what << ": boundary heights changed in launch " << launch;
    if (attempts != expected || now != reference || !boundary_kept) return -1;
    moved += now != before;
  }
  return moved;
}

}  // namespace portamc::tilings::testing

// Six-vertex coupling from the past split into shares of copies (six_vertex_cftp's
// first_copy, as MPI ranks run it): the shares put together are the one-run result bit for
// bit (samples and per-copy coalescence horizons), whatever the split, and a bad first copy
// is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;

void expect_shares_match(const SixVertexBoundary& b, const SixVertexWeights& w, std::uint64_t seed,
                         int copies, const std::vector<std::pair<int, int>>& shares) {
  const SixVertexCftpResult whole = six_vertex_cftp(TestSpace(), b, w, seed, copies);
  std::vector<std::vector<int>> samples;
  std::vector<std::uint64_t> horizons;
  for (const auto& [first, count] : shares) {
    const SixVertexCftpResult part = six_vertex_cftp(TestSpace(), b, w, seed, count, {}, first);
    for (const SixVertexHeights& h : part.samples) samples.push_back(h.values());
    horizons.insert(horizons.end(), part.coalescence_horizons.begin(),
                    part.coalescence_horizons.end());
  }
  ASSERT_EQ(samples.size(), whole.samples.size());
  for (std::size_t k = 0; k < samples.size(); ++k)
    EXPECT_EQ(samples[k], whole.samples[k].values()) << "copy " << k;
  EXPECT_EQ(horizons, whole.coalescence_horizons);
  // The copies differ from each other: the shares did not just repeat one stream.
  bool distinct = false;
  for (std::size_t k = 1; k < samples.size(); ++k) distinct |= samples[k] != samples[0];
  EXPECT_TRUE(distinct);
}

TEST(SixVertexCftpShares, SharesOfCopiesAreTheWholeRun) {
  const SixVertexBoundary b = SixVertexBoundary::domain_wall(6);
  expect_shares_match(b, {1, 1, 1}, 3, 7, {{0, 4}, {4, 3}});
  expect_shares_match(b, {1, 1, 1}, 3, 7, {{0, 2}, {2, 2}, {4, 2}, {6, 1}});
  expect_shares_match(b, {1, 0.7, 1.5}, 8, 5, {{0, 1}, {1, 1}, {2, 3}});
}

TEST(SixVertexCftpShares, NegativeFirstCopyIsRefused) {
  EXPECT_THROW(
      six_vertex_cftp(TestSpace(), SixVertexBoundary::domain_wall(3), {1, 1, 1}, 1, 1, {}, -1),
      std::invalid_argument);
}

}  // namespace

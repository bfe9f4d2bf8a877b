// Walker ranges of muca model states (walker_states.hpp), the layer under checkpoints that
// restart on another MPI rank count: the state of all walkers split into the shares of several
// models (as ranks hold them) and joined again continues bit for bit. Serial, no MPI.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "portamc/muca/detail/walker_states.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::muca;

Parameters walkers(long long first, long long count) {
  Parameters p;
  p.L = 6;
  p.seed = 9;
  p.first_walker = first;
  p.walkers = count;
  return p;
}

void expect_same(const ModelState& a, const ModelState& b) {
  EXPECT_EQ(a.L, b.L);
  EXPECT_EQ(a.walkers, b.walkers);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.spins, b.spins);
  EXPECT_EQ(a.bins, b.bins);
  EXPECT_EQ(a.log_weights, b.log_weights);
}

TEST(MucaWalkerStates, SelectAndConcatenateAreInverse) {
  ModelState all;
  all.L = 6;
  all.walkers = 7;
  all.seed = 3;
  all.step = 11;
  all.log_weights = {0.5, -1.0};
  for (std::uint32_t i = 0; i < 2 * 7; ++i) all.spins.push_back(1000 + i);  // (word, walker)
  all.bins = {0, 1, 2, 3, 4, 5, 6};
  const ModelState middle = select_walkers(all, 2, 5);
  EXPECT_EQ(middle.walkers, 3);
  EXPECT_EQ(middle.spins, (std::vector<std::uint32_t>{1002, 1003, 1004, 1009, 1010, 1011}));
  EXPECT_EQ(middle.bins, (std::vector<std::int32_t>{2, 3, 4}));
  expect_same(concatenate_walkers({select_walkers(all, 0, 2), middle, select_walkers(all, 5, 7)}),
              all);
  EXPECT_THROW(select_walkers(all, 5, 8), std::invalid_argument);
  ModelState later = select_walkers(all, 5, 7);
  later.step = 12;
  EXPECT_THROW(concatenate_walkers({select_walkers(all, 0, 5), later}), std::invalid_argument);
  ModelState torn = all;
  torn.bins.pop_back();
  EXPECT_THROW(select_walkers(torn, 0, 1), std::invalid_argument);
  const portamc::parallel::Communicator one;
  expect_same(gather_walkers(all, one), all);
}

TEST(MucaWalkerStates, SharesContinueBitForBit) {
  // Seven walkers in one model, after some sweeps under non-flat weights...
  IsingMuca<TestSpace> whole(TestSpace(), walkers(0, 7));
  std::vector<double> lnw(whole.energy_bins().count());
  for (std::size_t k = 0; k < lnw.size(); ++k) lnw[k] = -0.05 * static_cast<double>(k);
  whole.set_log_weights(lnw);
  whole.thermalise(123);
  const ModelState before = whole.state();
  const auto reference = whole.sample(1001);

  // ... continued as shares 0..3 and 4..6 (two ranks), then joined and continued in one model.
  IsingMuca<TestSpace> a(TestSpace(), walkers(0, 4)), b(TestSpace(), walkers(4, 3));
  a.restore(select_walkers(before, 0, 4));
  b.restore(select_walkers(before, 4, 7));
  auto histogram = a.sample(1001);
  const auto other = b.sample(1001);
  for (std::size_t k = 0; k < histogram.size(); ++k) histogram[k] += other[k];
  EXPECT_EQ(histogram, reference);
  const ModelState joined = concatenate_walkers({a.state(), b.state()});
  expect_same(joined, whole.state());

  IsingMuca<TestSpace> again(TestSpace(), walkers(0, 7));
  again.restore(joined);
  EXPECT_EQ(again.sample(77), whole.sample(77));
  expect_same(again.state(), whole.state());
  EXPECT_EQ(again.walker_bins(), again.recomputed_bins());
}

}  // namespace

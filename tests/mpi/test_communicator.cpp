// parallel::Communicator on 1, 2 and 4 ranks (ctest runs this under mpiexec -n 2 and -n 4):
// reductions, broadcasts and gathers against values every rank can compute on its own.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "portamc/parallel.hpp"

namespace {

using portamc::parallel::Communicator;
using portamc::parallel::share_of;
using portamc::parallel::world;

TEST(Communicator, WorldMatchesTheLauncher) {
  const Communicator comm = world();
  EXPECT_GE(comm.rank(), 0);
  EXPECT_LT(comm.rank(), comm.size());
  EXPECT_EQ(comm.is_root(), comm.rank() == 0);
  // The ranks agree on the size and hold distinct ranks 0 .. size-1.
  EXPECT_EQ(comm.max(static_cast<std::int64_t>(comm.size())), comm.size());
  const auto n = static_cast<std::int64_t>(comm.size());
  EXPECT_EQ(comm.sum(static_cast<std::int64_t>(comm.rank())), n * (n - 1) / 2);
  comm.barrier();
#ifdef PORTAMC_HAVE_MPI
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(comm.size(), size);
#endif
}

TEST(Communicator, DefaultIsOneRank) {
  const Communicator self;
  EXPECT_EQ(self.rank(), 0);
  EXPECT_EQ(self.size(), 1);
  std::vector<std::uint64_t> v{3, 4};
  self.sum(v);
  EXPECT_EQ(v, (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(self.gather(std::vector<int>{1, 2}), (std::vector<int>{1, 2}));
}

TEST(Communicator, SumsAreExactAndElementWise) {
  const Communicator comm = world();
  const auto r = static_cast<std::uint64_t>(comm.rank());
  const auto n = static_cast<std::uint64_t>(comm.size());
  // Large counts near 2^62 so that a double reduction could not represent the sum exactly.
  std::vector<std::uint64_t> u{(std::uint64_t{1} << 60) + r, r * r, 1};
  comm.sum(u);
  EXPECT_EQ(u[0], n * (std::uint64_t{1} << 60) + n * (n - 1) / 2);
  EXPECT_EQ(u[1], (n - 1) * n * (2 * n - 1) / 6);
  EXPECT_EQ(u[2], n);
  std::vector<std::int64_t> s{-static_cast<std::int64_t>(r) - 1};
  comm.sum(s);
  EXPECT_EQ(s[0], -static_cast<std::int64_t>(n * (n + 1) / 2));
  // Sums of multiples of 1/4 are exact in any order.
  std::vector<double> d{0.25 * double(r), -1.0};
  comm.sum(d);
  EXPECT_EQ(d[0], 0.25 * double(n * (n - 1) / 2));
  EXPECT_EQ(d[1], -double(n));
  std::vector<double> empty;
  comm.sum(empty);
  EXPECT_TRUE(empty.empty());
}

TEST(Communicator, MaximaOverRanks) {
  const Communicator comm = world();
  const int last = comm.size() - 1;
  EXPECT_EQ(comm.max(static_cast<std::uint64_t>(comm.rank())), static_cast<std::uint64_t>(last));
  EXPECT_EQ(comm.max(-static_cast<std::int64_t>(comm.rank())), 0);
  std::vector<double> d{comm.rank() == last ? 2.5 : -1.0, -0.5 * comm.rank()};
  comm.max(d);
  EXPECT_EQ(d[0], 2.5);
  EXPECT_EQ(d[1], 0.0);
}

TEST(Communicator, BroadcastsFromAnyRank) {
  const Communicator comm = world();
  // An embedded NUL: the text travels by length, not as a C string.
  const std::string expected("root\0text", 9);
  std::string text = comm.is_root() ? expected : "other";
  comm.broadcast(text);
  EXPECT_EQ(text, expected);
  const int last = comm.size() - 1;
  std::vector<std::uint8_t> bytes;
  if (comm.rank() == last) bytes = {0, 255, 7};
  comm.broadcast(bytes, last);
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{0, 255, 7}));
  std::string none = comm.is_root() ? "" : "not empty";
  comm.broadcast(none);
  EXPECT_TRUE(none.empty());
}

// Rank r contributes r + 1 elements (rank 1 none, to cover an empty share) of value 100 r + i.
template <class T>
std::vector<T> contribution(int rank) {
  std::vector<T> v;
  if (rank == 1) return v;
  for (int i = 0; i <= rank; ++i) v.push_back(static_cast<T>(100 * rank + i));
  return v;
}

template <class T>
void check_gather(const Communicator& comm) {
  const std::vector<T> all = comm.gather(contribution<T>(comm.rank()));
  if (!comm.is_root()) {
    EXPECT_TRUE(all.empty());
    return;
  }
  std::vector<T> expected;
  for (int r = 0; r < comm.size(); ++r) {
    const auto part = contribution<T>(r);
    expected.insert(expected.end(), part.begin(), part.end());
  }
  EXPECT_EQ(all, expected);
}

TEST(Communicator, GathersVariableLengthsInRankOrder) {
  const Communicator comm = world();
  check_gather<double>(comm);
  check_gather<std::uint64_t>(comm);
  check_gather<int>(comm);
  check_gather<std::uint8_t>(comm);
}

TEST(Share, ContiguousBalancedAndComplete) {
  for (int ranks : {1, 2, 3, 4, 7}) {
    for (std::uint64_t count : {0u, 1u, 5u, 7u, 8u, 1000u}) {
      std::uint64_t next = 0, smallest = count, largest = 0;
      for (int r = 0; r < ranks; ++r) {
        const auto s = share_of(count, r, ranks);
        EXPECT_EQ(s.begin, next) << count << " over " << ranks;
        next = s.end;
        smallest = std::min(smallest, s.size());
        largest = std::max(largest, s.size());
      }
      EXPECT_EQ(next, count);
      EXPECT_LE(largest - smallest, 1u);
    }
  }
  EXPECT_THROW(share_of(4, 2, 2), std::invalid_argument);
}

TEST(Share, RankFilesOnlyWithSeveralRanks) {
  const Communicator comm = world();
  const std::string name = portamc::parallel::rank_file("run.checkpoint", comm);
  if (comm.size() == 1)
    EXPECT_EQ(name, "run.checkpoint");
  else
    EXPECT_EQ(name, "run.checkpoint.rank" + std::to_string(comm.rank()) + "of" +
                        std::to_string(comm.size()));
}

}  // namespace

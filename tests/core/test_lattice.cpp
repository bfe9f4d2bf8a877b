// Lattice geometry: index <-> coordinates, neighbours, parity and colour classes,
// checked on the host and inside a kernel on every backend of the build (TestSpace).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <set>

#include "portamc/lattice.hpp"
#include "test_space.hpp"

namespace portamc_test {

// Counts, on the device, sites whose neighbour relations are inconsistent:
// forward-then-backward must return to the site, and neighbours differ in parity.
template <int D>
long long count_device_inconsistencies(const portamc::HypercubicLattice<D>& lattice) {
  long long bad = 0;
  Kokkos::parallel_reduce(
      "test_lattice",
      Kokkos::RangePolicy<TestSpace, Kokkos::IndexType<std::int64_t>>(TestSpace(), 0,
                                                                      lattice.volume()),
      KOKKOS_LAMBDA(const std::int64_t site, long long& acc) {
        for (int mu = 0; mu < D; ++mu) {
          const auto fwd = lattice.neighbour(site, mu, +1);
          if (lattice.neighbour(fwd, mu, -1) != site) ++acc;
          if (lattice.neighbour(site, mu) != fwd) ++acc;
          if (lattice.neighbour(site, mu + D) != lattice.neighbour(site, mu, -1)) ++acc;
          if (lattice.parity(fwd) == lattice.parity(site)) ++acc;
        }
        if (lattice.index(lattice.coords(site)) != site) ++acc;
      },
      bad);
  return bad;
}

}  // namespace portamc_test

namespace {

using portamc::HypercubicLattice;

TEST(Lattice, IndexAndCoordinatesRoundTrip4D) {
  const HypercubicLattice<4> lat({4, 6, 2, 8});
  EXPECT_EQ(lat.volume(), 4 * 6 * 2 * 8);
  for (std::int64_t s = 0; s < lat.volume(); ++s) {
    const auto x = lat.coords(s);
    EXPECT_EQ(lat.index(x), s);
  }
  // x_0 runs fastest.
  EXPECT_EQ(lat.coords(1)[0], 1);
  EXPECT_EQ(lat.coords(4)[1], 1);
}

TEST(Lattice, PeriodicNeighbours2D) {
  const auto lat = HypercubicLattice<2>::cubic(5);
  // Site (4, 0): forward in x wraps to (0, 0), backward in y wraps to (4, 4).
  const std::int64_t site = lat.index({{4, 0}});
  EXPECT_EQ(lat.neighbour(site, 0, +1), lat.index({{0, 0}}));
  EXPECT_EQ(lat.neighbour(site, 1, -1), lat.index({{4, 4}}));
  EXPECT_EQ(lat.neighbour(site, 0, -1), lat.index({{3, 0}}));
  // Four distinct neighbours on L >= 3.
  std::set<std::int64_t> n;
  for (int k = 0; k < 4; ++k) n.insert(lat.neighbour(site, k));
  EXPECT_EQ(n.size(), 4u);
}

TEST(Lattice, ConsistentOnDevice) {
  EXPECT_EQ(portamc_test::count_device_inconsistencies(HypercubicLattice<2>::cubic(8)), 0);
  EXPECT_EQ(portamc_test::count_device_inconsistencies(HypercubicLattice<3>({4, 6, 8})), 0);
  EXPECT_EQ(portamc_test::count_device_inconsistencies(HypercubicLattice<4>({4, 4, 6, 2})), 0);
}

TEST(Lattice, ColourClassesSeparateNeighbours) {
  const HypercubicLattice<3> lat({6, 6, 9});
  ASSERT_TRUE(lat.has_colouring(3));
  EXPECT_FALSE(lat.has_colouring(2));
  std::vector<int> per_colour(HypercubicLattice<3>::colour_count(3), 0);
  for (std::int64_t s = 0; s < lat.volume(); ++s) {
    const int c = lat.colour(s, 3);
    ++per_colour[c];
    for (int k = 0; k < 6; ++k) EXPECT_NE(lat.colour(lat.neighbour(s, k), 3), c);
  }
  for (int count : per_colour) EXPECT_EQ(count, lat.volume() / 27);
}

TEST(Lattice, OddExtentIsNotBipartite) {
  EXPECT_TRUE(HypercubicLattice<2>::cubic(4).is_bipartite());
  EXPECT_FALSE(HypercubicLattice<2>({4, 5}).is_bipartite());
}

TEST(Lattice, RejectsDegenerateExtent) {
  EXPECT_THROW(HypercubicLattice<2>({4, 1}), std::invalid_argument);
}

}  // namespace

// Cluster labelling of the CVF Swendsen-Wang step: both device schemes against a plain serial
// union-find on random and planted bond sets; labels must be the cluster minimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "portamc/cvf/detail/cluster_bonds.hpp"
#include "portamc/cvf/detail/cluster_labels.hpp"
#include "portamc/cvf/detail/swendsen_wang.hpp"
#include "portamc/cvf/detail/union_find.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;
using cvf::Geometry;

namespace {

// Serial union-find over the 6 N variables; the answer is each variable's cluster minimum.
std::vector<std::uint64_t> reference_labels(const Geometry& g,
                                            const std::vector<std::uint32_t>& bonds) {
  const std::int64_t N = g.cells();
  std::vector<std::int64_t> parent(6 * N);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::int64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto join = [&](std::int64_t a, std::int64_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  };
  for (std::int64_t cell = 0; cell < N; ++cell) {
    for (int axis = 0; axis < 3; ++axis) {
      if ((bonds[cell] >> axis) & 1u) {
        join(g.variable(cell, 2 * axis), g.variable(g.neighbour(cell, 2 * axis), 2 * axis + 1));
      }
    }
    for (int p = 0; p < cvf::cooperative_pairs; ++p) {
      if ((bonds[cell] >> cvf::cooperative_bit(p)) & 1u) {
        join(g.variable(cell, cvf::cooperative_first(p)),
             g.variable(cell, cvf::cooperative_second(p)));
      }
    }
  }
  std::vector<std::uint64_t> labels(6 * N);
  for (std::int64_t x = 0; x < 6 * N; ++x) labels[x] = find(x);
  return labels;
}

std::vector<std::uint32_t> random_bonds(const Geometry& g, double density, std::uint32_t seed) {
  std::mt19937 engine(seed);
  std::bernoulli_distribution bond(density);
  std::vector<std::uint32_t> bonds(g.cells(), 0);
  for (auto& word : bonds) {
    for (int bit = 0; bit < cvf::bonds_per_cell; ++bit) {
      if (bond(engine)) word |= std::uint32_t{1} << bit;
    }
  }
  return bonds;
}

int pair_index(int k, int l) {
  if (k > l) std::swap(k, l);
  for (int p = 0; p < cvf::cooperative_pairs; ++p) {
    if (cvf::cooperative_first(p) == k && cvf::cooperative_second(p) == l) return p;
  }
  ADD_FAILURE() << "no pair " << k << "," << l;
  return 0;
}

// Bonds of one chain of variables following a lattice path of cells (consecutive cells are
// neighbours; the path never steps straight back). Closed paths also bond last to first.
void add_path(const Geometry& g, const std::vector<std::int64_t>& path, bool closed,
              std::vector<std::uint32_t>& bonds) {
  const std::size_t n = path.size();
  const std::size_t steps = closed ? n : n - 1;
  std::vector<int> out(steps);
  for (std::size_t i = 0; i < steps; ++i) {
    const std::int64_t from = path[i], to = path[(i + 1) % n];
    int arm = 0;
    while (g.neighbour(from, arm) != to) ++arm;
    out[i] = arm;
    if (arm % 2 == 0) {
      bonds[from] |= 1u << (arm / 2);
    } else {
      bonds[to] |= 1u << (arm / 2);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!closed && (i == 0 || i == n - 1)) continue;
    const int incoming = cvf::opposite_arm(out[(i + steps - 1) % steps]);
    bonds[path[i]] |= 1u << cvf::cooperative_bit(pair_index(incoming, out[i % steps]));
  }
}

// A boustrophedon through every cell: x snakes within a row, rows snake within a layer.
std::vector<std::int64_t> serpentine(const Geometry& g) {
  const int L = g.size();
  std::vector<std::int64_t> path;
  for (int z = 0; z < L; ++z) {
    for (int j = 0; j < L; ++j) {
      const int y = (z % 2 == 0) ? j : L - 1 - j;
      for (int i = 0; i < L; ++i) {
        const int x = ((z * L + j) % 2 == 0) ? i : L - 1 - i;
        path.push_back(g.cell(x, y, z));
      }
    }
  }
  return path;
}

struct Result {
  std::vector<std::uint64_t> labels;
  std::int64_t clusters, largest;
  int iterations;
};

Result run(const Geometry& g, const std::vector<std::uint32_t>& bonds, cvf::Labelling scheme,
           cvf::LabelWidth width) {
  cvf::SwendsenWang<TestSpace> sw(TestSpace(), g, scheme, width);
  Kokkos::View<const std::uint32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      host(bonds.data(), bonds.size());
  Kokkos::deep_copy(sw.bonds(), host);
  sw.label();
  return {sw.labels_on_host(), sw.cluster_count(), sw.largest_cluster_size(), sw.last_iterations()};
}

void expect_matches_reference(const Geometry& g, const std::vector<std::uint32_t>& bonds,
                              const char* what) {
  const auto expected = reference_labels(g, bonds);
  std::map<std::uint64_t, std::int64_t> sizes;
  for (auto l : expected) ++sizes[l];
  std::int64_t largest = 0;
  for (auto& [l, n] : sizes) largest = std::max(largest, n);
  for (auto scheme : {cvf::Labelling::label_equivalence, cvf::Labelling::union_find}) {
    for (auto width : {cvf::LabelWidth::automatic, cvf::LabelWidth::bits64}) {
      SCOPED_TRACE(std::string(what) + " L=" + std::to_string(g.size()) + " " +
                   cvf::to_string(scheme) +
                   (width == cvf::LabelWidth::bits64 ? " 64-bit" : " 32-bit"));
      const Result r = run(g, bonds, scheme, width);
      ASSERT_EQ(r.labels, expected);
      EXPECT_EQ(r.clusters, static_cast<std::int64_t>(sizes.size()));
      EXPECT_EQ(r.largest, largest);
      if (scheme == cvf::Labelling::label_equivalence) {
        EXPECT_GE(r.iterations, 1);
      }
    }
  }
}

}  // namespace

TEST(CvfClusterLabels, PairTableCoversAllFifteenPairsInOrder) {
  int p = 0;
  for (int k = 0; k < 6; ++k) {
    for (int l = k + 1; l < 6; ++l, ++p) {
      EXPECT_EQ(cvf::cooperative_first(p), k);
      EXPECT_EQ(cvf::cooperative_second(p), l);
    }
  }
}

TEST(CvfClusterLabels, RandomBondSetsMatchSerialUnionFind) {
  // Densities below and well above the percolation threshold of this graph.
  for (int L : {4, 8, 12}) {
    const Geometry g(L);
    std::uint32_t seed = 11;
    for (double density : {0.05, 0.2, 0.35, 0.5, 0.8}) {
      expect_matches_reference(g, random_bonds(g, density, seed++),
                               ("density " + std::to_string(density)).c_str());
    }
  }
}

// Large enough that a GPU runs thousands of threads on the same trees at once: the joins
// then race on the roots of a giant cluster and halve each other's paths concurrently.
TEST(CvfClusterLabels, LargePercolatingBondSetsMatchSerialUnionFind) {
  const Geometry g(40);
  std::uint32_t seed = 101;
  for (double density : {0.3, 0.6, 0.9}) {
    expect_matches_reference(g, random_bonds(g, density, seed++),
                             ("large, density " + std::to_string(density)).c_str());
  }
}

TEST(CvfClusterLabels, AllAndNoBonds) {
  for (int L : {4, 8, 12}) {
    const Geometry g(L);
    expect_matches_reference(g, std::vector<std::uint32_t>(g.cells(), (1u << 18) - 1), "all");
    expect_matches_reference(g, std::vector<std::uint32_t>(g.cells(), 0u), "none");
    const Result all = run(g, std::vector<std::uint32_t>(g.cells(), (1u << 18) - 1),
                           cvf::Labelling::union_find, cvf::LabelWidth::automatic);
    EXPECT_EQ(all.clusters, 1);
    EXPECT_EQ(all.largest, g.variables());
  }
}

TEST(CvfClusterLabels, SpanningRingWrapsThePeriodicBoundary) {
  // Rings along each axis through the far corner: their minimum sits on the wrapped edge.
  for (int L : {4, 8, 12}) {
    const Geometry g(L);
    std::vector<std::uint32_t> bonds(g.cells(), 0);
    for (int axis = 0; axis < 3; ++axis) {
      std::vector<std::int64_t> ring;
      for (int i = 0; i < L; ++i) {
        int c[3] = {L - 1, L - 1, L - 1};
        c[axis] = (L / 2 + i) % L;
        ring.push_back(g.cell(c[0], c[1], c[2]));
      }
      std::vector<std::uint32_t> single(g.cells(), 0);
      add_path(g, ring, true, single);
      expect_matches_reference(g, single, "ring");
      add_path(g, ring, true, bonds);
    }
    expect_matches_reference(g, bonds, "three rings");
  }
}

TEST(CvfClusterLabels, LongChainsWithFarMinimum) {
  for (int L : {4, 8, 12}) {
    const Geometry g(L);
    auto path = serpentine(g);
    for (bool reversed : {false, true}) {
      std::vector<std::uint32_t> bonds(g.cells(), 0);
      add_path(g, path, false, bonds);
      expect_matches_reference(g, bonds, reversed ? "reversed serpentine" : "serpentine");
      const auto expected = reference_labels(g, bonds);
      // One open chain: two arms per cell except the two ends.
      std::map<std::uint64_t, std::int64_t> sizes;
      for (auto l : expected) ++sizes[l];
      std::int64_t largest = 0;
      for (auto& [l, n] : sizes) largest = std::max(largest, n);
      EXPECT_EQ(largest, 2 * g.cells() - 2);
      std::reverse(path.begin(), path.end());
    }
  }
}

TEST(CvfClusterLabels, PaperTableTwoExample) {
  // Table II: N = 64, variables 64, 0, 65, 257, 337, 17, 82 form one cluster.
  const Geometry g(4);
  std::vector<std::uint32_t> bonds(g.cells(), 0);
  bonds[0] |= 1u << 0;                                        // (0, 65): cell 0 +x
  bonds[1] |= 1u << 2;                                        // (257, 337): cell 1 +z
  bonds[17] |= 1u << 0;                                       // (17, 82): cell 17 +x
  bonds[0] |= 1u << cvf::cooperative_bit(pair_index(0, 1));   // 0 - 64
  bonds[1] |= 1u << cvf::cooperative_bit(pair_index(1, 4));   // 65 - 257
  bonds[17] |= 1u << cvf::cooperative_bit(pair_index(0, 5));  // 17 - 337
  for (auto scheme : {cvf::Labelling::label_equivalence, cvf::Labelling::union_find}) {
    const Result r = run(g, bonds, scheme, cvf::LabelWidth::automatic);
    for (std::uint64_t x = 0; x < r.labels.size(); ++x) {
      const bool member =
          x == 64 || x == 0 || x == 65 || x == 257 || x == 337 || x == 17 || x == 82;
      EXPECT_EQ(r.labels[x], member ? 0u : x) << x;
    }
    EXPECT_EQ(r.clusters, 6 * 64 - 6);
  }
}

TEST(CvfClusterLabels, BondsPlacedBySwendsenWangAgreeAcrossSchemes) {
  // Realistic bond sets: ordered sigma, strong couplings (large clusters).
  const Geometry g(12);
  Kokkos::View<std::uint8_t*, TestSpace> sigma("sigma", g.variables());
  Kokkos::View<std::uint8_t*, TestSpace> cubes("cubes", g.cubes());
  auto h = Kokkos::create_mirror_view(sigma);
  std::mt19937 engine(5);
  for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = engine() % 2;
  Kokkos::deep_copy(sigma, h);
  const auto th = cvf::bond_thresholds(1.5, 0.4, 1.0);
  cvf::SwendsenWang<TestSpace> sw(TestSpace(), g, cvf::Labelling::label_equivalence);
  cvf::place_bonds(TestSpace(), g, sigma, cubes, th, 99, 3, sw.bonds());
  sw.label();
  const auto a = sw.labels_on_host();
  sw.set_labelling(cvf::Labelling::union_find);
  sw.label();
  EXPECT_EQ(sw.labels_on_host(), a);
  auto bonds = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sw.bonds());
  EXPECT_EQ(a, reference_labels(
                   g, std::vector<std::uint32_t>(bonds.data(), bonds.data() + bonds.extent(0))));
}

// The first union-find stage labels each block of cells in shared memory; its shape must not
// change the labels: one-cell blocks (every covalent bond global), shapes leaving partial
// blocks (L = 12, 40), and at L = 8 a block as large as the lattice (only the wrap is global).
TEST(CvfClusterLabels, UnionFindBlockShapesGiveTheSameLabels) {
  using Labels = Kokkos::View<std::uint32_t*, TestSpace>;
  for (int L : {8, 12, 40}) {
    const Geometry g(L);
    std::vector<std::vector<std::uint32_t>> sets{random_bonds(g, 0.3, 7), random_bonds(g, 0.6, 8)};
    sets.emplace_back(g.cells(), 0u);
    add_path(g, serpentine(g), false, sets.back());
    for (const auto& bonds : sets) {
      const auto expected = reference_labels(g, bonds);
      Kokkos::View<std::uint32_t*, TestSpace> device("bonds", bonds.size());
      Kokkos::deep_copy(device, Kokkos::View<const std::uint32_t*, Kokkos::HostSpace,
                                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                    bonds.data(), bonds.size()));
      for (const cvf::LabelBlock block :
           {cvf::LabelBlock{1, 1, 1}, cvf::LabelBlock{4, 4, 4}, cvf::LabelBlock{2, 4, 8},
            cvf::LabelBlock{16, 8, 8}, cvf::LabelBlock{8, 8, 8}, cvf::LabelBlock{32, 4, 8}}) {
        SCOPED_TRACE("L=" + std::to_string(L) + " block " + std::to_string(block.x) + "x" +
                     std::to_string(block.y) + "x" + std::to_string(block.z));
        Labels labels("labels", g.variables());
        cvf::union_find(TestSpace(), g, device, labels, nullptr, block);
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels);
        ASSERT_EQ(std::vector<std::uint64_t>(h.data(), h.data() + h.extent(0)), expected);
      }
    }
  }
}

TEST(CvfClusterLabels, OversizedOrEmptyLabelBlocksAreRejected) {
  const Geometry g(8);
  cvf::SwendsenWang<TestSpace> sw(TestSpace(), g);
  EXPECT_THROW(sw.set_label_block({16, 8, 16}), std::invalid_argument);  // 2048 cells
  EXPECT_THROW(sw.set_label_block({0, 8, 8}), std::invalid_argument);
  EXPECT_THROW(sw.set_label_block({12, 8, 8}), std::invalid_argument);  // not a power of two
  EXPECT_NO_THROW(sw.set_label_block({32, 32, 1}));
  EXPECT_EQ(sw.label_block().x, 32);
}

TEST(CvfClusterLabels, LabellingNames) {
  for (auto s : {cvf::Labelling::label_equivalence, cvf::Labelling::union_find}) {
    EXPECT_EQ(cvf::labelling_from_string(cvf::to_string(s)), s);
  }
  EXPECT_THROW(cvf::labelling_from_string("hoshen_kopelman"), std::invalid_argument);
}

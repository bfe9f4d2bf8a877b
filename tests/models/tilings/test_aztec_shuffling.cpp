// Domino shuffling (aztec_shuffling.hpp): every output is a tiling of AD(n); the law is the
// exact (weighted) law of the enumerated tilings (chi-square, p > 1e-6 with fixed seeds, so a
// correct sampler fails with probability below 1e-6 per check); the vertical-domino count
// follows its closed form; the Kokkos kernels reproduce the geometric host reference bit for
// bit (on each backend of the build: TestSpace, so the backends agree bit for bit); bad input is
// refused.
//
// Vertical dominoes: sum over tilings of AD(n) of x^(v/2) = (1 + x)^(n(n+1)/2) (EKLP; checked
// by enumeration for n <= 3 in test_tiling_cftp_observables.cpp and again below for n = 4), so
// under the uniform law v/2 ~ Binomial(n(n+1)/2, 1/2) and with vertical weight sqrt(x)
// v/2 ~ Binomial(n(n+1)/2, x / (1 + x)). Moments are tested within 5.3 standard errors
// (two-sided tail 1.2e-7).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "chi_square.hpp"
#include "domino_laws.hpp"
#include "portamc/tilings/domino/detail/aztec_shuffling.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using portamc::tilings::testing::chi_square;
using portamc::tilings::testing::ChiSquare;

using portamc::tilings::testing::binomial_pmf;
using portamc::tilings::testing::domino_index;
using portamc::tilings::testing::domino_law;
using portamc::tilings::testing::vertical_dominoes;

// A period-2x3 table with all twelve weights different: exercises the lcm period (M = 6) and
// the urban-renewal recursion far more than the symmetric named weightings.
DominoWeights generic_weights() {
  DominoWeights w;
  w.period_rows = 2;
  w.period_cols = 3;
  w.horizontal = {1.0, 0.4, 2.3, 0.7, 1.6, 0.9};
  w.vertical = {0.5, 1.9, 1.1, 2.7, 0.8, 1.3};
  return w;
}

void expect_law(int n, const DominoWeights& weights, int samples, std::uint64_t first_seed) {
  const SquareDomain domain = SquareDomain::aztec_diamond(n);
  const std::vector<DominoTiling> tilings = list_domino_tilings(domain, 5000);
  const auto index = domino_index(tilings);
  const std::vector<double> p = domino_law(tilings, weights);
  AztecShuffler<TestSpace> shuffler(TestSpace(), n, weights);
  std::vector<std::uint64_t> counts(tilings.size(), 0);
  for (int s = 0; s < samples; ++s) {
    const auto it = index.find(shuffler.sample(first_seed + static_cast<std::uint64_t>(s)).partner);
    ASSERT_NE(it, index.end()) << "shuffling returned something that is not a tiling of AD(" << n
                               << ")";
    ++counts[it->second];
  }
  const ChiSquare test = chi_square(counts, p);
  EXPECT_GT(test.p_value, 1e-6) << "AD(" << n << "): chi2 = " << test.statistic << " with "
                                << test.degrees_of_freedom << " dof\n"
                                << test.table;
}

TEST(AztecShuffling, EveryOutputIsATilingOfTheDiamond) {
  for (int n = 1; n <= 40; ++n) {
    const SquareDomain domain = SquareDomain::aztec_diamond(n);
    AztecShuffler<TestSpace> shuffler(TestSpace(), n);
    for (std::uint64_t seed : {1u, 2u}) {
      const DominoTiling t = shuffler.sample(1000 * static_cast<std::uint64_t>(n) + seed);
      EXPECT_EQ(domino_tiling_error(domain, t), "") << "n = " << n << ", seed " << seed;
    }
  }
  for (int n : {64, 101, 200}) {
    const SquareDomain domain = SquareDomain::aztec_diamond(n);
    for (const DominoWeights& w :
         {DominoWeights::uniform(), DominoWeights::two_periodic(1, 0.3), generic_weights()}) {
      AztecShuffler<TestSpace> shuffler(TestSpace(), n, w);
      EXPECT_EQ(domino_tiling_error(domain, shuffler.sample(77)), "") << "n = " << n;
    }
  }
}

TEST(AztecShuffling, KokkosMatchesTheHostReferenceBitForBit) {
  const std::vector<DominoWeights> weights = {
      DominoWeights::uniform(), DominoWeights::vertical_horizontal(1.7, 0.6),
      DominoWeights::two_periodic(1.0, 0.5), generic_weights()};
  for (int n : {1, 2, 3, 5, 8, 17, 33, 64}) {
    const SquareDomain domain = SquareDomain::aztec_diamond(n);
    for (std::size_t w = 0; w < weights.size(); ++w) {
      AztecShuffler<TestSpace> device(TestSpace(), n, weights[w]);
      for (std::uint64_t seed : {1ull, 2ull, 3ull, 0x9e3779b97f4a7c15ull}) {
        const DominoTiling reference = aztec_shuffle_reference(n, weights[w], seed);
        ASSERT_EQ(domino_tiling_error(domain, reference), "") << "reference, n = " << n;
        EXPECT_TRUE(device.sample(seed) == reference)
            << "n = " << n << ", weights " << w << ", seed " << seed;
      }
    }
  }
}

TEST(AztecShuffling, SeedsDetermineTheSample) {
  AztecShuffler<TestSpace> shuffler(TestSpace(), 30);
  const DominoTiling a = shuffler.sample(5), b = shuffler.sample(6);
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(shuffler.sample(5) == a);
}

TEST(AztecShuffling, UniformDiamondsAreUniform) {
  expect_law(2, DominoWeights::uniform(), 2000, 100);
  expect_law(3, DominoWeights::uniform(), 12800, 200);
}

TEST(AztecShuffling, VerticalHorizontalWeightsFollowTheirWeights) {
  expect_law(2, DominoWeights::vertical_horizontal(1.6, 0.7), 4000, 300);
  expect_law(3, DominoWeights::vertical_horizontal(1.6, 0.7), 20000, 400);
}

TEST(AztecShuffling, PeriodicWeightsFollowTheirWeights) {
  expect_law(2, DominoWeights::two_periodic(1.0, 0.4), 4000, 500);
  expect_law(3, DominoWeights::two_periodic(1.0, 0.4), 20000, 600);
  expect_law(3, DominoWeights::two_periodic(0.3, 1.0), 20000, 700);
  expect_law(2, generic_weights(), 4000, 800);
  expect_law(3, generic_weights(), 20000, 900);
  expect_law(4, generic_weights(), 40000, 1000);  // 1024 tilings, four levels of renewal
}

TEST(AztecShuffling, ChiSquareRejectsAWrongLaw) {
  // The law tests have power: two-periodic samples of AD(3) tested against the uniform law fail.
  const std::vector<DominoTiling> tilings =
      list_domino_tilings(SquareDomain::aztec_diamond(3), 1000);
  std::map<std::vector<std::uint8_t>, std::size_t> index;
  for (std::size_t k = 0; k < tilings.size(); ++k) index[tilings[k].partner] = k;
  AztecShuffler<TestSpace> shuffler(TestSpace(), 3, DominoWeights::two_periodic(1.0, 0.4));
  std::vector<std::uint64_t> counts(tilings.size(), 0);
  for (std::uint64_t s = 0; s < 20000; ++s) ++counts[index.at(shuffler.sample(600 + s).partner)];
  const std::vector<double> uniform(tilings.size(), 1.0 / static_cast<double>(tilings.size()));
  EXPECT_LT(chi_square(counts, uniform).p_value, 1e-6);
}

TEST(AztecShuffling, VerticalCountLawHoldsByEnumeration) {
  // The closed form the next tests rely on, for one order beyond the other file's n <= 3.
  const int n = 4, m = n * (n + 1) / 2;
  std::vector<std::uint64_t> count(m + 1, 0);
  for_each_domino_tiling(SquareDomain::aztec_diamond(n), [&](const DominoTiling& t) {
    const int v = vertical_dominoes(t);
    ASSERT_EQ(v % 2, 0);
    ++count[v / 2];
  });
  std::uint64_t binomial = 1;
  for (int k = 0; k <= m; ++k) {
    EXPECT_EQ(count[k], binomial) << "k = " << k;
    binomial = binomial * (m - k) / (k + 1);
  }
}

TEST(AztecShuffling, VerticalCountIsBinomial) {
  for (double x : {1.0, 2.0}) {  // vertical weight sqrt(x): v/2 ~ Binomial(m, x / (1 + x))
    const int n = 6, m = n * (n + 1) / 2, samples = 4000;
    AztecShuffler<TestSpace> shuffler(TestSpace(), n,
                                      DominoWeights::vertical_horizontal(std::sqrt(x)));
    std::vector<std::uint64_t> counts(m + 1, 0);
    for (int s = 0; s < samples; ++s) {
      const int v = vertical_dominoes(shuffler.sample(50000 + s));
      ASSERT_EQ(v % 2, 0);
      ++counts[v / 2];
    }
    std::vector<double> p(m + 1);
    for (int k = 0; k <= m; ++k) p[k] = binomial_pmf(m, k, x / (1 + x));
    const ChiSquare test = chi_square(counts, p);
    EXPECT_GT(test.p_value, 1e-6) << "x = " << x << ", chi2 = " << test.statistic << " with "
                                  << test.degrees_of_freedom << " dof\n"
                                  << test.table;
  }
}

TEST(AztecShuffling, VerticalCountMomentsAtModerateOrder) {
  // Uniform AD(24): v/2 has mean m/2 and variance m/4, m = 300.
  const int n = 24, m = n * (n + 1) / 2, samples = 3000;
  AztecShuffler<TestSpace> shuffler(TestSpace(), n);
  std::vector<double> h;
  for (int s = 0; s < samples; ++s)
    h.push_back(vertical_dominoes(shuffler.sample(70000 + s)) / 2.0);
  const double count = samples;
  double mean = 0;
  for (double x : h) mean += x / count;
  double m2 = 0, m4 = 0;
  for (double x : h) {
    m2 += (x - mean) * (x - mean) / count;
    m4 += std::pow(x - mean, 4) / count;
  }
  const double mean_error = std::sqrt(m2 / count);
  const double variance_error = std::sqrt((m4 - m2 * m2) / count);
  EXPECT_NEAR(mean, m / 2.0, 5.3 * mean_error);
  EXPECT_NEAR(m2, m / 4.0, 5.3 * variance_error);
}

TEST(AztecShuffling, CreationTableOfSimpleWeights) {
  const AztecCreationTable uniform = aztec_creation_table(7, DominoWeights::uniform());
  EXPECT_EQ(uniform.period, 1);
  ASSERT_EQ(uniform.thresholds.size(), 7u);
  for (std::uint64_t t : uniform.thresholds) EXPECT_EQ(t, std::uint64_t{1} << 31);
  // Vertical weight v, horizontal h: every level keeps the cell ratio, P(T|B) = h^2/(h^2+v^2).
  const double v = 1.3, h = 0.8;
  const AztecCreationTable vh = aztec_creation_table(9, DominoWeights::vertical_horizontal(v, h));
  for (std::uint64_t t : vh.thresholds) {
    EXPECT_EQ(t, probability_threshold(h * h / (h * h + v * v)));
  }
  EXPECT_EQ(aztec_creation_table(5, DominoWeights::two_periodic(1, 0.5)).period, 2);
  EXPECT_EQ(aztec_creation_table(5, generic_weights()).period, 6);
  // Two-periodic weights stay bounded over many levels (the per-level rescaling).
  EXPECT_NO_THROW(aztec_creation_table(3000, DominoWeights::two_periodic(1, 0.05)));
}

TEST(AztecShuffling, BadInputIsRefused) {
  auto refuses = [](auto&& f, const std::string& part) {
    try {
      f();
      ADD_FAILURE() << "no exception, expected one mentioning '" << part << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refuses([] { AztecShuffler<TestSpace> s(TestSpace(), 0); }, "order n = 0");
  refuses([] { AztecShuffler<TestSpace> s(TestSpace(), -3); }, "order n = -3");
  refuses([] { AztecShuffler<TestSpace> s(TestSpace(), aztec_shuffling_max_order + 1); }, "32-bit");
  refuses([] { aztec_shuffle_reference(0, DominoWeights::uniform(), 1); }, "order n = 0");
  refuses(
      [] { AztecShuffler<TestSpace> s(TestSpace(), 4, DominoWeights::vertical_horizontal(0.0)); },
      "vertical");
  refuses(
      [] {
        AztecShuffler<TestSpace> s(TestSpace(), 4, DominoWeights::vertical_horizontal(1.0, -1.0));
      },
      "horizontal");
  refuses(
      [] {
        AztecShuffler<TestSpace> s(TestSpace(), 4,
                                   DominoWeights::vertical_horizontal(std::nan("")));
      },
      "finite and positive");
  refuses(
      [] {
        DominoWeights w = DominoWeights::uniform();
        w.period_rows = 2;
        AztecShuffler<TestSpace> s(TestSpace(), 4, w);
      },
      "entries");
  refuses(
      [] {
        DominoWeights w;
        w.period_rows = 4097;  // M = 4097: 2 x 4097^2 entries
        w.horizontal.assign(4097, 1.0);
        w.vertical = w.horizontal;
        aztec_creation_table(2, w);
      },
      "2^24");
  refuses([] { aztec_creation_table(3, DominoWeights::vertical_horizontal(1e200, 1e-200)); },
          "too extreme");
  refuses([] { aztec_cells_to_tiling(3, std::vector<std::uint8_t>(8, 0)); }, "9");
}

}  // namespace

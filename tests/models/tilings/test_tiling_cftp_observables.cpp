// Observables of exact samples against closed forms: the number of vertical dominoes of the
// Aztec diamond AD(n) and the volume of the a x b x c box of cubes.
//
// Aztec diamond: sum over tilings of x^(v/2) = (1 + x)^(n(n+1)/2), v the number of vertical
// dominoes (Elkies-Kuperberg-Larsen-Propp). Giving every vertical domino the weight sqrt(x)
// weighs a tiling x^(v/2), so under that measure v/2 ~ Binomial(n(n+1)/2, x / (1 + x)).
// Hexagon: under the uniform measure E V = abc/2 and Var V = abc(a+b+c)/12.
// Tolerances: chi-square p > 1e-6, moments within 5.3 standard errors of the sample's own
// (two-sided tail 1.2e-7).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "chi_square.hpp"
#include "domino_laws.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/domino_enumeration.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using portamc::tilings::testing::chi_square;

using portamc::tilings::testing::binomial_pmf;
using portamc::tilings::testing::domino_index;
using portamc::tilings::testing::domino_law;
using portamc::tilings::testing::vertical_dominoes;

TEST(TilingCftpObservables, AztecVerticalCountGeneratingFunctionIsExact) {
  // The closed form itself, by enumeration: #tilings with v/2 = k is C(n(n+1)/2, k).
  for (int n = 1; n <= 3; ++n) {
    const int m = n * (n + 1) / 2;
    std::vector<std::uint64_t> count(m + 1, 0);
    for_each_domino_tiling(SquareDomain::aztec_diamond(n), [&](const DominoTiling& t) {
      const int v = vertical_dominoes(t);
      ASSERT_EQ(v % 2, 0);
      ++count[v / 2];
    });
    std::uint64_t binomial = 1;
    for (int k = 0; k <= m; ++k) {
      EXPECT_EQ(count[k], binomial) << "n = " << n << ", k = " << k;
      binomial = binomial * (m - k) / (k + 1);
    }
  }
}

TEST(TilingCftpObservables, AztecVerticalCountIsBinomial) {
  const double x = 2.0;  // vertical weight sqrt(2): P(v/2 = k) = Binomial(m, 2/3)
  const int samples = 1500;
  for (int n = 4; n <= 6; ++n) {
    const int m = n * (n + 1) / 2;
    DominoGlauber<TestSpace> sampler(TestSpace(), SquareDomain::aztec_diamond(n),
                                     DominoWeights::vertical_horizontal(std::sqrt(x)), 1);
    std::vector<std::uint64_t> counts(m + 1, 0);
    for (int s = 0; s < samples; ++s) {
      const int v = vertical_dominoes(sampler.exact_sample(100000 * n + s).tiling);
      ASSERT_EQ(v % 2, 0);
      ++counts[v / 2];
    }
    std::vector<double> p(m + 1);
    for (int k = 0; k <= m; ++k) p[k] = binomial_pmf(m, k, x / (1 + x));
    const auto test = chi_square(counts, p);
    EXPECT_GT(test.p_value, 1e-6) << "n = " << n << ", chi2 = " << test.statistic << " with "
                                  << test.degrees_of_freedom << " dof\n"
                                  << test.table;
  }
}

struct Moments {
  double mean = 0, variance = 0, mean_error = 0, variance_error = 0;
};

Moments moments(const std::vector<double>& v) {
  const double n = static_cast<double>(v.size());
  Moments m;
  for (double x : v) m.mean += x / n;
  double m2 = 0, m4 = 0;
  for (double x : v) {
    m2 += (x - m.mean) * (x - m.mean) / n;
    m4 += std::pow(x - m.mean, 4) / n;
  }
  m.variance = m2 * n / (n - 1);
  m.mean_error = std::sqrt(m.variance / n);
  m.variance_error = std::sqrt((m4 - m2 * m2) / n);
  return m;
}

std::vector<double> cftp_volumes(const TriangularDomain& hex, double q, int samples,
                                 std::uint64_t seed) {
  LozengeGlauber<TestSpace> sampler(TestSpace(), hex, LozengeWeights{q}, 1);
  const LozengeHeights low = minimal_heights(hex);
  std::vector<double> volumes;
  for (int s = 0; s < samples; ++s) {
    const LozengeTiling t = sampler.exact_sample(seed + s).tiling;
    volumes.push_back(static_cast<double>(volume_between(hex, low, heights_from_tiling(hex, t))));
  }
  return volumes;
}

TEST(TilingCftpObservables, UniformBoxVolumeHasMeanAbcOver2AndVarianceAbcPerimeterOver12) {
  const int a = 4, b = 3, c = 5;
  const Moments m = moments(cftp_volumes(TriangularDomain::hexagon(a, b, c), 1.0, 3000, 555));
  const double mean = a * b * c / 2.0, variance = a * b * c * (a + b + c) / 12.0;
  EXPECT_NEAR(m.mean, mean, 5.3 * m.mean_error);
  EXPECT_NEAR(m.variance, variance, 5.3 * m.variance_error);
  EXPECT_LT(m.mean_error, 0.3);  // the test has power
}

TEST(TilingCftpObservables, QWeightedVolumeMeanMatchesEnumeration) {
  const TriangularDomain hex = TriangularDomain::hexagon(3, 3, 3);
  const double q = 0.8;
  const LozengeHeights low = minimal_heights(hex);
  double z = 0, first = 0;
  for_each_lozenge_tiling(hex, [&](const LozengeTiling& t) {
    const double v = static_cast<double>(volume_between(hex, low, heights_from_tiling(hex, t)));
    z += std::pow(q, v);
    first += v * std::pow(q, v);
  });
  const Moments m = moments(cftp_volumes(hex, q, 2000, 777));
  EXPECT_NEAR(m.mean, first / z, 5.3 * m.mean_error);
  EXPECT_GT(std::fabs(m.mean - 13.5), 10 * m.mean_error);  // distinguishable from q = 1
}

}  // namespace

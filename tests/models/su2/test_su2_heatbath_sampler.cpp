// The heatbath's single-link sampler: both methods reproduce the exact distribution
// P(a0) ∝ sqrt(1 - a0^2) exp(alpha a0) (histogram chi^2) in both precisions, their measured
// acceptances match the exact formulas, and the automatic choice switches where the
// acceptances cross.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/su2/detail/heatbath_sampling.hpp"
#include "portamc/su2/detail/single_link_sampler.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

constexpr std::uint64_t samples = std::uint64_t{1} << 20;
constexpr int bins = 40;

// Bins of equal width in z = (1 - e^{-alpha y}) / (1 - e^{-2 alpha}), y = 1 - a0: the
// proposal's CDF, so each bin holds a comparable share for every alpha.
double y_of_z(double alpha, double z) {
  if (alpha == 0) return 2 * z;
  return -std::log1p(-z * -std::expm1(-2 * alpha)) / alpha;
}
int bin_of(double alpha, double a0) {
  const double y = 1 - a0;
  const double z = alpha == 0 ? y / 2 : std::expm1(-alpha * y) / std::expm1(-2 * alpha);
  const int b = static_cast<int>(z * bins);
  return b < 0 ? 0 : (b >= bins ? bins - 1 : b);
}

// Upper 1e-6 tail of chi^2 with k degrees of freedom (Wilson–Hilferty): a fixed-seed test
// that fails only for a real deviation.
double chi2_limit(int k) {
  const double z = 4.75, a = 2.0 / (9.0 * k);
  return k * std::pow(1 - a + z * std::sqrt(a), 3);
}

double chi2(const SingleLinkSamples& s, double alpha) {
  std::vector<double> observed(bins, 0.0);
  for (double a0 : s.a0) observed[bin_of(alpha, a0)] += 1;
  const double n = static_cast<double>(s.a0.size());
  double sum = 0;
  for (int b = 0; b < bins; ++b) {
    const double hi = 1 - y_of_z(alpha, static_cast<double>(b) / bins);
    const double lo = 1 - y_of_z(alpha, static_cast<double>(b + 1) / bins);
    const double expected = n * a0_interval_probability(alpha, lo, hi);
    sum += (observed[b] - expected) * (observed[b] - expected) / expected;
  }
  return sum;
}

double exact_acceptance(HeatbathMethod method, double alpha) {
  return method == HeatbathMethod::creutz ? creutz_acceptance(alpha)
                                          : kennedy_pendleton_acceptance(alpha);
}

template <class Real>
void check_method(HeatbathMethod method, const std::vector<double>& alphas) {
  const std::string name = method == HeatbathMethod::creutz ? "Creutz" : "Kennedy-Pendleton";
  for (double alpha : alphas) {
    const auto s = sample_single_link<Space, Real>(Space(), method, alpha, samples, 2024);
    SCOPED_TRACE(name + ", alpha = " + std::to_string(alpha));
    ASSERT_EQ(s.failures, 0u);
    ASSERT_EQ(s.a0.size(), samples);
    for (double a0 : s.a0) ASSERT_TRUE(a0 >= -1 && a0 <= 1) << a0;
    EXPECT_LT(chi2(s, alpha), chi2_limit(bins - 1));
    // accepted / proposals, binomial error
    const double p = exact_acceptance(method, alpha);
    const double measured = static_cast<double>(samples) / static_cast<double>(s.attempts);
    EXPECT_NEAR(measured, p, 5 * std::sqrt(p * (1 - p) / static_cast<double>(s.attempts)));
  }
}

template <class Real>
class HeatbathSamplerTest : public ::testing::Test {};
TYPED_TEST_SUITE(HeatbathSamplerTest, su2_test::Precisions);

TYPED_TEST(HeatbathSamplerTest, CreutzReproducesTheExactDistribution) {
  // 0 and 1e-4: the series branch of the proposal; 20: acceptance 0.27
  check_method<TypeParam>(HeatbathMethod::creutz, {0.0, 1e-4, 0.3, 1.68, 5.0, 20.0});
}

TYPED_TEST(HeatbathSamplerTest, KennedyPendletonReproducesTheExactDistribution) {
  // below 0.5 the acceptance (0.28 at 0.5) makes Kennedy–Pendleton pointless
  check_method<TypeParam>(HeatbathMethod::kennedy_pendleton, {0.5, 1.68, 5.0, 20.0, 60.0});
}

/// The rotation axis' inputs of accepted draws (cos theta's uniform, phi's word) are uniform
/// and independent of a0: a chi^2 over the joint (a0, cos, phi) bins against the exact a0 law
/// times uniform marginals. It guards float Kennedy–Pendleton, whose axis comes from the
/// accepted block itself (the recycled acceptance uniform and the words' unused low bytes).
template <class Real>
void check_axis(HeatbathMethod method, double alpha) {
  const auto s = sample_single_link<Space, Real>(Space(), method, alpha, samples, 77);
  ASSERT_EQ(s.axis_cos_uniform.size(), s.a0.size());
  constexpr int a0_bins = 5, cos_bins = 8, phi_bins = 8, group = bins / a0_bins;
  std::vector<double> observed(a0_bins * cos_bins * phi_bins, 0.0);
  for (std::size_t i = 0; i < s.a0.size(); ++i) {
    const double u = s.axis_cos_uniform[i];
    ASSERT_TRUE(u >= 0 && u < 1) << u;
    const int a = bin_of(alpha, s.a0[i]) / group;
    const int c = static_cast<int>(u * cos_bins);
    const int p = static_cast<int>(s.axis_phi_word[i] >> 29);
    observed[(a * cos_bins + c) * phi_bins + p] += 1;
  }
  const double n = static_cast<double>(s.a0.size());
  double sum = 0;
  for (int a = 0; a < a0_bins; ++a) {
    const double hi = 1 - y_of_z(alpha, static_cast<double>(a * group) / bins);
    const double lo = 1 - y_of_z(alpha, static_cast<double>((a + 1) * group) / bins);
    const double expected =
        n * a0_interval_probability(alpha, lo, hi) / static_cast<double>(cos_bins * phi_bins);
    for (int cp = 0; cp < cos_bins * phi_bins; ++cp) {
      const double o = observed[a * cos_bins * phi_bins + cp];
      sum += (o - expected) * (o - expected) / expected;
    }
  }
  EXPECT_LT(sum, chi2_limit(a0_bins * cos_bins * phi_bins - 1)) << "alpha = " << alpha;
}

TYPED_TEST(HeatbathSamplerTest, AxisIsUniformAndIndependentOfA0) {
  check_axis<TypeParam>(HeatbathMethod::kennedy_pendleton, 1.68);
  check_axis<TypeParam>(HeatbathMethod::kennedy_pendleton, 8.0);
  check_axis<TypeParam>(HeatbathMethod::creutz, 0.3);
}

TYPED_TEST(HeatbathSamplerTest, AutomaticUsesTheMethodWithHigherAcceptance) {
  const double below = 0.9 * acceptance_crossover_alpha, above = 1.1 * acceptance_crossover_alpha;
  EXPECT_GT(creutz_acceptance(below), kennedy_pendleton_acceptance(below));
  EXPECT_LT(creutz_acceptance(above), kennedy_pendleton_acceptance(above));
  const std::uint64_t n = 4096;
  auto a0 = [n](HeatbathMethod m, double alpha) {
    return sample_single_link<Space, TypeParam>(Space(), m, alpha, n, 7).a0;
  };
  EXPECT_EQ(a0(HeatbathMethod::automatic, below), a0(HeatbathMethod::creutz, below));
  EXPECT_EQ(a0(HeatbathMethod::automatic, above), a0(HeatbathMethod::kennedy_pendleton, above));
}

TEST(HeatbathSampler, AcceptancesCrossAtTheThreshold) {
  const double a = acceptance_crossover_alpha;
  EXPECT_NEAR(creutz_acceptance(a), kennedy_pendleton_acceptance(a), 1e-9);
  EXPECT_NEAR(creutz_acceptance(a), 0.7114, 1e-4);
  // the minimum over alpha of the better method's acceptance is at the crossover
  for (double alpha : {0.0, 0.5, 1.0, 1.5, 2.0, 5.0, 50.0})
    EXPECT_GE(std::max(creutz_acceptance(alpha), kennedy_pendleton_acceptance(alpha)),
              creutz_acceptance(a) - 1e-12);
}

TEST(HeatbathSampler, ExhaustedRetriesAreCountedAsFailures) {
  const std::uint64_t n = 100000;
  const double alpha = 20;
  const auto s =
      sample_single_link<Space, double>(Space(), HeatbathMethod::creutz, alpha, n, 11, 1);
  EXPECT_EQ(s.attempts, n);
  EXPECT_EQ(s.failures + s.a0.size(), n);
  const double p = creutz_acceptance(alpha);
  EXPECT_NEAR(static_cast<double>(s.a0.size()) / n, p, 5 * std::sqrt(p * (1 - p) / n));
  // a bound of two proposals: at most two each, and the failures are the (1-p)^2 tail
  const auto t =
      sample_single_link<Space, double>(Space(), HeatbathMethod::creutz, alpha, n, 11, 2);
  EXPECT_LE(t.attempts, 2 * n);
  const double q = (1 - p) * (1 - p);
  EXPECT_NEAR(static_cast<double>(t.failures) / n, q, 5 * std::sqrt(q * (1 - q) / n));
}

TEST(HeatbathSampler, RejectsBadArguments) {
  EXPECT_THROW((sample_single_link<Space, double>(Space(), HeatbathMethod::creutz, -1.0, 10, 1)),
               std::invalid_argument);
  EXPECT_THROW((sample_single_link<Space, double>(Space(), HeatbathMethod::creutz, 1.0, 10, 1, 0)),
               std::invalid_argument);
  EXPECT_THROW((sample_single_link<Space, double>(Space(), HeatbathMethod::creutz, 1.0, 10, 1,
                                                  max_heatbath_attempts + 1)),
               std::invalid_argument);
}

TEST(HeatbathSampler, ExactIntervalProbabilitiesAreNormalised) {
  for (double alpha : {0.0, 0.7, 3.0, 40.0}) {
    EXPECT_NEAR(a0_interval_probability(alpha, -1, 1), 1.0, 1e-12) << alpha;
    EXPECT_NEAR(a0_interval_probability(alpha, -1, 0.2) + a0_interval_probability(alpha, 0.2, 1),
                1.0, 1e-12)
        << alpha;
  }
  // alpha = 0: the Haar marginal (2/pi) sqrt(1 - a0^2), half the mass on either side of 0
  EXPECT_NEAR(a0_interval_probability(0.0, 0, 1), 0.5, 1e-12);
}

}  // namespace

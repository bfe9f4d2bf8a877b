// APE smearing of the spatial links (smearing.hpp): one step against a direct host
// computation of the stated convention, the trivial cases (alpha = 0, no iterations, a cold
// field), unitarity, untouched temporal links and input, gauge covariance
// smear(g U) = g smear(U) g^dagger, smoothing of rough fields, and bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/smearing.hpp"
#include "portamc/su2/updater.hpp"
#include "portamc/su2/wilson_loops.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

template <class Real>
class SmearingTest : public ::testing::Test {};
TYPED_TEST_SUITE(SmearingTest, su2_test::Precisions);

const std::vector<std::vector<int>> lattices = {{4, 6, 8}, {4, 6, 4, 8}};

template <class Real>
GaugeField<Space, Real> thermalised(const std::vector<int>& extents, std::uint64_t seed) {
  GaugeField<Space, Real> field(Space(), extents);
  field.hot_start(seed);
  UpdateParameters params;
  params.beta = 2.3;
  params.seed = seed;
  Updater<Space, Real> updater(Space(), params);
  for (int i = 0; i < 3; ++i) updater.heatbath_sweep(field);
  return field;
}

/// Canonical entries (site D + mu) 4 + c of the links in direction mu.
std::vector<double> direction(const std::vector<double>& canonical, int d, int mu) {
  std::vector<double> out;
  for (std::size_t k = 0; k < canonical.size(); k += 4 * d)
    out.insert(out.end(), canonical.begin() + k + 4 * mu, canonical.begin() + k + 4 * mu + 4);
  return out;
}

using Q = Quaternion<double>;

/// Host reference of one APE step, straight from the formula in smearing.hpp.
std::vector<double> reference_step(const std::vector<int>& n, const std::vector<double>& links,
                                   double alpha) {
  const int d = static_cast<int>(n.size());
  auto site_of = [&](std::vector<int> x) {
    std::int64_t s = 0;
    for (int nu = d - 1; nu >= 0; --nu) s = s * n[nu] + ((x[nu] % n[nu]) + n[nu]) % n[nu];
    return s;
  };
  auto at = [&](const std::vector<int>& x, int mu) {
    const double* q = &links[(site_of(x) * d + mu) * 4];
    return Q{q[0], q[1], q[2], q[3]};
  };
  std::vector<double> out = links;
  for (std::int64_t s = 0; s < static_cast<std::int64_t>(links.size()) / (4 * d); ++s) {
    std::vector<int> x(d);
    std::int64_t rest = s;
    for (int mu = 0; mu < d; ++mu) x[mu] = static_cast<int>(rest % n[mu]), rest /= n[mu];
    for (int i = 0; i < d - 1; ++i) {
      Q staples = Q::zero();
      for (int j = 0; j < d - 1; ++j) {
        if (j == i) continue;
        auto x_i = x, x_j = x, x_mj = x, x_mj_i = x;
        ++x_i[i], ++x_j[j], --x_mj[j], --x_mj_i[j], ++x_mj_i[i];
        staples += at(x, j) * at(x_j, i) * dagger(at(x_i, j));
        staples += dagger(at(x_mj, j)) * at(x_mj, i) * at(x_mj_i, j);
      }
      const Q sum = scaled(at(x, i), 1 - alpha) + scaled(staples, alpha / (2.0 * (d - 2)));
      const Q u = normalised(sum);
      double* q = &out[(s * d + i) * 4];
      q[0] = u.a0, q[1] = u.a1, q[2] = u.a2, q[3] = u.a3;
    }
  }
  return out;
}

TYPED_TEST(SmearingTest, OneStepMatchesDirectHostComputation) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    GaugeField<Space, TypeParam> field(Space(), extents);
    field.hot_start(4);
    const auto expected = reference_step(extents, field.to_canonical(), 0.45);
    const auto smeared = ape_smear(Space(), field, 0.45, 1).to_canonical();
    EXPECT_LT(su2_test::max_abs_difference(smeared, expected), su2_test::rounding<TypeParam>());
    // ...and two steps are the step applied twice, from the first step's links (Jacobi)
    GaugeField<Space, TypeParam> once(Space(), extents);
    once.from_canonical(smeared);
    const auto twice = reference_step(extents, once.to_canonical(), 0.45);
    EXPECT_LT(
        su2_test::max_abs_difference(ape_smear(Space(), field, 0.45, 2).to_canonical(), twice),
        su2_test::rounding<TypeParam>());
  }
}

TYPED_TEST(SmearingTest, NoSmearingReturnsTheSameLinks) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    const auto field = thermalised<TypeParam>(extents, 6);
    const auto links = field.to_canonical();
    EXPECT_EQ(ape_smear(Space(), field, 0.0, 5).to_canonical(), links);
    EXPECT_EQ(ape_smear(Space(), field, 0.5, 0).to_canonical(), links);
  }
}

TYPED_TEST(SmearingTest, ColdFieldStaysCold) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    const GaugeField<Space, TypeParam> cold(Space(), extents);
    const auto smeared = ape_smear(Space(), cold, 0.7, 4);
    // (1 - alpha) 1 + alpha/(2(D-2)) 2(D-2) 1 = 1 up to the rounding of the weights
    const double tol = su2_test::unitarity_tolerance<TypeParam>();
    EXPECT_LT(su2_test::max_abs_difference(smeared.to_canonical(), cold.to_canonical()), tol);
    EXPECT_NEAR(smeared.plaquette().total, 1.0, tol);
  }
}

TYPED_TEST(SmearingTest, KeepsLinksUnitaryTemporalLinksAndInputUnchanged) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    const int d = static_cast<int>(extents.size());
    const auto field = thermalised<TypeParam>(extents, 7);
    const auto input = field.to_canonical();
    const auto smeared = ape_smear(Space(), field, 0.5, 10);
    EXPECT_EQ(field.to_canonical(), input);
    EXPECT_LT(smeared.max_unitarity_violation(), su2_test::unitarity_tolerance<TypeParam>());
    const auto links = smeared.to_canonical();
    EXPECT_EQ(direction(links, d, d - 1), direction(input, d, d - 1));
    for (int i = 0; i < d - 1; ++i)
      EXPECT_GT(su2_test::max_abs_difference(direction(links, d, i), direction(input, d, i)), 0.1);
  }
}

TYPED_TEST(SmearingTest, IsGaugeCovariant) {
  const double tol = 4 * su2_test::rounding<TypeParam>();
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    const auto field = thermalised<TypeParam>(extents, 8);
    GaugeField<Space, TypeParam> transformed(Space(), extents);
    transformed.from_canonical(field.to_canonical());
    transformed.random_gauge_transformation(41);

    auto smeared = ape_smear(Space(), field, 0.5, 6);
    const auto smeared_transformed = ape_smear(Space(), transformed, 0.5, 6);
    const auto p = smeared.plaquette(), pg = smeared_transformed.plaquette();
    EXPECT_NEAR(pg.spatial, p.spatial, tol);
    EXPECT_NEAR(pg.temporal, p.temporal, tol);
    EXPECT_LT(su2_test::max_abs_difference(wilson_loops(Space(), smeared_transformed, 2, 4),
                                           wilson_loops(Space(), smeared, 2, 4)),
              tol);
    // The same g (a pure function of seed, site and step) applied after smearing gives the
    // same links: smear(g U) = g smear(U) g^dagger.
    smeared.random_gauge_transformation(41);
    EXPECT_LT(
        su2_test::max_abs_difference(smeared.to_canonical(), smeared_transformed.to_canonical()),
        tol);
  }
}

TYPED_TEST(SmearingTest, SmoothsRoughFields) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    GaugeField<Space, TypeParam> hot(Space(), extents);
    hot.hot_start(9);
    double previous = hot.plaquette().spatial;
    for (int n = 1; n <= 4; ++n) {
      const double p = ape_smear(Space(), hot, 0.5, n).plaquette().spatial;
      EXPECT_GT(p, previous + 0.01) << n << " iterations";
      previous = p;
    }
    const auto thermal = thermalised<TypeParam>(extents, 10);
    const double before = thermal.plaquette().spatial;
    EXPECT_GT(ape_smear(Space(), thermal, 0.5, 5).plaquette().spatial, before + 0.1);
  }
}

TEST(Smearing, BadArgumentsThrowClearly) {
  const GaugeField<Space, double> field(Space(), {4, 4, 4});
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  const std::string alpha_range = "alpha must be in [0, 1]";
  EXPECT_NE(message([&] { ape_smear(Space(), field, -0.1, 1); }).find(alpha_range),
            std::string::npos);
  EXPECT_NE(message([&] { ape_smear(Space(), field, 1.5, 1); }).find(alpha_range),
            std::string::npos);
  EXPECT_NE(message([&] {
              ape_smear(Space(), field, std::numeric_limits<double>::quiet_NaN(), 1);
            }).find(alpha_range),
            std::string::npos);
  EXPECT_NE(message([&] { ape_smear(Space(), field, 0.5, -1); }).find("iterations must be >= 0"),
            std::string::npos);
  const GaugeField<Space, double> plane(Space(), {4, 4});
  EXPECT_NE(message([&] { ape_smear(Space(), plane, 0.5, 1); }).find("at least 3 dimensions"),
            std::string::npos);
  EXPECT_NO_THROW(ape_smear(Space(), field, 1.0, 1));
}

}  // namespace

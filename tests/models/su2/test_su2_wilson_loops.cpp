// On-axis Wilson loops W(R,T) (wilson_loops.hpp) against what is known exactly: 1 on a cold
// field, the temporal plaquette for R = T = 1, a direct host computation of every loop,
// gauge invariance, a constant abelian flux whose loops are cosines of the enclosed flux,
// float against double, and in 2D the exact area law W = (I2/I1)^(R T).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/statistics.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "portamc/su2/wilson_loops.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;

template <class Real>
class WilsonLoopTest : public ::testing::Test {};
TYPED_TEST_SUITE(WilsonLoopTest, su2_test::Precisions);

const std::vector<std::vector<int>> lattices = {{6, 8}, {4, 6, 8}, {4, 6, 4, 8}};

int max_r(const std::vector<int>& extents) {
  int n = extents[0];
  for (std::size_t mu = 1; mu + 1 < extents.size(); ++mu) n = std::min(n, extents[mu]);
  return n / 2;
}

/// A field after a few heatbath sweeps from a hot start: far from cold, not yet smooth.
template <class Real>
GaugeField<Space, Real> thermalised(const std::vector<int>& extents, double beta,
                                    std::uint64_t seed, int sweeps = 3) {
  GaugeField<Space, Real> field(Space(), extents);
  field.hot_start(seed);
  UpdateParameters params;
  params.beta = beta;
  params.seed = seed;
  Updater<Space, Real> updater(Space(), params);
  for (int i = 0; i < sweeps; ++i) updater.heatbath_sweep(field);
  return field;
}

// Host reference: quaternion products over canonical links, loop by loop, no reuse.
using Q = Quaternion<double>;

struct HostLinks {
  std::vector<int> n;
  std::vector<double> links;

  Q at(std::vector<int> x, int mu) const {
    std::int64_t site = 0;
    for (int nu = static_cast<int>(n.size()) - 1; nu >= 0; --nu)
      site = site * n[nu] + ((x[nu] % n[nu]) + n[nu]) % n[nu];
    const double* q = &links[(site * n.size() + mu) * 4];
    return {q[0], q[1], q[2], q[3]};
  }
};

std::vector<double> reference_loops(const HostLinks& h, int r_max, int t_max) {
  const int d = static_cast<int>(h.n.size());
  std::int64_t volume = 1;
  for (int e : h.n) volume *= e;
  std::vector<double> w(static_cast<std::size_t>(r_max) * t_max, 0.0);
  for (std::int64_t s = 0; s < volume; ++s) {
    std::vector<int> x(d);
    std::int64_t rest = s;
    for (int mu = 0; mu < d; ++mu) x[mu] = static_cast<int>(rest % h.n[mu]), rest /= h.n[mu];
    for (int i = 0; i < d - 1; ++i)
      for (int r = 1; r <= r_max; ++r)
        for (int t = 1; t <= t_max; ++t) {
          // x -> x + r i -> x + r i + t T -> x + t T -> x, counter-clockwise in (i, D-1)
          Q loop = Q::identity();
          std::vector<int> y = x;
          for (int k = 0; k < r; ++k, ++y[i]) loop = loop * h.at(y, i);
          for (int k = 0; k < t; ++k, ++y[d - 1]) loop = loop * h.at(y, d - 1);
          for (int k = 0; k < r; ++k) --y[i], loop = loop * dagger(h.at(y, i));
          for (int k = 0; k < t; ++k) --y[d - 1], loop = loop * dagger(h.at(y, d - 1));
          w[wilson_loop_index(r, t, t_max)] += loop.half_trace();
        }
  }
  for (double& v : w) v /= static_cast<double>(volume * (d - 1));
  return w;
}

TYPED_TEST(WilsonLoopTest, ColdFieldGivesOne) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    GaugeField<Space, TypeParam> field(Space(), extents);
    const int r_max = max_r(extents), t_max = extents.back() / 2;
    const auto w = wilson_loops(Space(), field, r_max, t_max);
    ASSERT_EQ(w.size(), static_cast<std::size_t>(r_max * t_max));
    for (double v : w) EXPECT_EQ(v, 1.0);
  }
}

TYPED_TEST(WilsonLoopTest, SmallestLoopIsTheTemporalPlaquette) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    const auto field = thermalised<TypeParam>(extents, 2.3, 5);
    const double w11 = wilson_loops(Space(), field, 1, 1)[0];
    // Both multiply the same links in double and sum in double: they differ by the order of
    // summation only.
    EXPECT_NEAR(w11, field.plaquette().temporal, 1e-13);
    EXPECT_GT(std::fabs(w11 - 1.0), 0.1);  // not trivially cold
  }
}

TYPED_TEST(WilsonLoopTest, MatchesDirectHostComputation) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    GaugeField<Space, TypeParam> field(Space(), extents);
    field.hot_start(21);  // rough links: any mistake in orientation or order shows
    const int r_max = max_r(extents), t_max = extents.back() / 2;
    const HostLinks host{extents, field.to_canonical()};
    const auto expected = reference_loops(host, r_max, t_max);
    EXPECT_LT(su2_test::max_abs_difference(wilson_loops(Space(), field, r_max, t_max), expected),
              1e-13);
  }
}

TYPED_TEST(WilsonLoopTest, GaugeTransformationLeavesEveryLoopUnchanged) {
  const double tol = 4 * su2_test::rounding<TypeParam>();
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    auto field = thermalised<TypeParam>(extents, 3.0, 8);
    const int r_max = max_r(extents), t_max = extents.back() / 2;
    const auto before = wilson_loops(Space(), field, r_max, t_max);
    field.random_gauge_transformation(99);
    EXPECT_LT(su2_test::max_abs_difference(wilson_loops(Space(), field, r_max, t_max), before),
              tol);
  }
}

/// U_i = exp(i c_i sigma_3), U_t(x) = exp(i sum_i phi_i x_i sigma_3), phi_i = 2 pi k_i / N_i:
/// a flux phi_i through every (i, t) plaquette, quantised so that it is periodic, hence
/// W(R,T) = (1/(D-1)) sum_i cos(phi_i R T) on every site. The constant spatial links commute
/// with everything and drop out; a gauge transformation afterwards makes the links
/// non-abelian without changing a loop.
template <class Real>
void check_constant_flux(const std::vector<int>& extents) {
  const int d = static_cast<int>(extents.size());
  const double pi = std::acos(-1.0);
  std::vector<double> phi(d - 1), c = {0.3, -1.1, 2.0};
  for (int i = 0; i < d - 1; ++i) phi[i] = 2 * pi * (i + 1) / extents[i];
  GaugeField<Space, Real> field(Space(), extents);
  std::vector<double> canonical(static_cast<std::size_t>(field.link_count()) * 4, 0.0);
  for (std::int64_t s = 0; s < field.volume(); ++s) {
    std::int64_t rest = s;
    double angle_t = 0;
    for (int i = 0; i < d - 1; ++i) {
      angle_t += phi[i] * static_cast<double>(rest % extents[i]);  // phi_i x_i
      rest /= extents[i];
    }
    for (int mu = 0; mu < d; ++mu) {
      const double angle = mu == d - 1 ? angle_t : c[mu];
      double* q = &canonical[(s * d + mu) * 4];
      q[0] = std::cos(angle), q[3] = std::sin(angle);
    }
  }
  field.from_canonical(canonical);
  field.random_gauge_transformation(3);
  const int r_max = max_r(extents), t_max = extents.back() / 2;
  const auto w = wilson_loops(Space(), field, r_max, t_max);
  for (int r = 1; r <= r_max; ++r)
    for (int t = 1; t <= t_max; ++t) {
      double expected = 0;
      for (int i = 0; i < d - 1; ++i) expected += std::cos(phi[i] * r * t) / (d - 1);
      EXPECT_NEAR(w[wilson_loop_index(r, t, t_max)], expected, 4 * su2_test::rounding<Real>())
          << "R = " << r << ", T = " << t;
    }
}

TYPED_TEST(WilsonLoopTest, ConstantAbelianFluxGivesCosines) {
  for (const auto& extents : lattices) {
    SCOPED_TRACE(std::to_string(extents.size()) + "D");
    check_constant_flux<TypeParam>(extents);
  }
}

TEST(WilsonLoops, FloatAgreesWithDoubleOnTheSameConfiguration) {
  const std::vector<int> extents = {6, 6, 6, 8};
  const auto dbl = thermalised<double>(extents, 2.3, 17, 5);
  GaugeField<Space, float> flt(Space(), extents);
  flt.from_canonical(dbl.to_canonical());  // the same links rounded to float
  const auto a = wilson_loops(Space(), dbl, 3, 4), b = wilson_loops(Space(), flt, 3, 4);
  // Rounding a link to float moves ½ Tr of a loop of n links by about n 6e-8.
  EXPECT_LT(su2_test::max_abs_difference(a, b), 2e-6);
  EXPECT_GT(su2_test::max_abs_difference(a, b), 0.0);  // the float path really ran in float
}

// 2D: with the plaquettes as independent variables, a loop enclosing A = R T plaquettes has
// <W> = u^A, u = I2(beta)/I1(beta) (torus corrections ~ u^(V - A) and (I3/I1)^V are far below
// the error bars on 16 x 16).
TEST(WilsonLoops, TwoDimensionalAreaLaw) {
  const double beta = 4.0;
  const double u = std::cyl_bessel_i(2.0, beta) / std::cyl_bessel_i(1.0, beta);
  const int r_max = 3, t_max = 3, samples = 1536;
  GaugeField<Space, double> field(Space(), {16, 16});
  field.hot_start(31);
  UpdateParameters params;
  params.beta = beta;
  params.seed = 31;
  params.overrelaxation_sweeps = 1;
  Updater<Space, double> updater(Space(), params);
  for (int i = 0; i < 100; ++i) updater.update(field);
  std::vector<std::vector<double>> series(r_max * t_max);
  for (int n = 0; n < samples; ++n) {
    updater.update(field);
    const auto w = wilson_loops(Space(), field, r_max, t_max);
    for (std::size_t k = 0; k < w.size(); ++k) series[k].push_back(w[k]);
  }
  for (int r = 1; r <= r_max; ++r)
    for (int t = 1; t <= t_max; ++t) {
      const auto est = portamc::stats::binned_mean(series[wilson_loop_index(r, t, t_max)], 32);
      const double exact = std::pow(u, r * t);
      EXPECT_NEAR(est.value, exact, 4 * est.error + 1e-4)
          << "R = " << r << ", T = " << t << ": " << est.value << " +- " << est.error
          << " vs u^(RT) = " << exact;
      EXPECT_LT(est.error, 0.01);
    }
}

TEST(WilsonLoops, BadSizesThrowNamingTheLimit) {
  GaugeField<Space, double> field(Space(), {4, 8, 6});
  auto message = [&](int r, int t) -> std::string {
    try {
      wilson_loops(Space(), field, r, t);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  EXPECT_NE(message(0, 1).find("r_max must be >= 1"), std::string::npos);
  EXPECT_NE(message(1, 0).find("t_max must be >= 1"), std::string::npos);
  EXPECT_NE(message(3, 1).find("N_spatial_min/2 = 2"), std::string::npos) << message(3, 1);
  EXPECT_NE(message(2, 4).find("N_2/2 = 3"), std::string::npos) << message(2, 4);
  EXPECT_NO_THROW(wilson_loops(Space(), field, 2, 3));
}

}  // namespace

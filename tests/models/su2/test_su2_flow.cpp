// The Wilson flow (flow.hpp): against a direct host implementation of the stated integrator on
// a 4^4 lattice, the normalisation of t (a smooth abelian mode decays as exp(-p^2 t)), the
// integrator's third order, gauge invariance of E and Q, a monotonically falling action, the
// cold field as a fixed point, and bad steps.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "portamc/su2/flow.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using Space = TestSpace;
using Q4 = std::array<double, 4>;

Q4 mul(const Q4& a, const Q4& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + b[0] * a[1] - (a[2] * b[3] - a[3] * b[2]),
          a[0] * b[2] + b[0] * a[2] - (a[3] * b[1] - a[1] * b[3]),
          a[0] * b[3] + b[0] * a[3] - (a[1] * b[2] - a[2] * b[1])};
}
Q4 dag(const Q4& a) {
  return {a[0], -a[1], -a[2], -a[3]};
}

// The flow written plainly on the canonical layout (index (site D + mu) 4 + c, x_0 fastest),
// with coordinates instead of the device's parity-split slots.
struct HostFlow {
  std::vector<int> n;
  std::vector<double> links;  // canonical
  int D() const { return static_cast<int>(n.size()); }
  long long volume() const {
    long long v = 1;
    for (int e : n) v *= e;
    return v;
  }
  long long shift(long long site, int mu, int by) const {
    long long stride = 1;
    for (int k = 0; k < mu; ++k) stride *= n[k];
    const long long x = (site / stride) % n[mu];
    return site + (((x + by) % n[mu] + n[mu]) % n[mu] - x) * stride;
  }
  Q4 u(long long site, int mu) const {
    const double* p = &links[static_cast<std::size_t>((site * D() + mu) * 4)];
    return {p[0], p[1], p[2], p[3]};
  }
  void set(long long site, int mu, const Q4& q) {
    double* p = &links[static_cast<std::size_t>((site * D() + mu) * 4)];
    for (int c = 0; c < 4; ++c) p[c] = q[c];
  }
  std::array<double, 3> force(long long x, int mu) const {
    Q4 w{0, 0, 0, 0};
    for (int nu = 0; nu < D(); ++nu) {
      if (nu == mu) continue;
      const long long xm = shift(x, mu, 1), xn = shift(x, nu, 1), xmn = shift(x, nu, -1);
      const Q4 f = mul(mul(u(xm, nu), dag(u(xn, mu))), dag(u(x, nu)));
      const Q4 b = mul(dag(mul(u(xmn, mu), u(shift(xmn, mu, 1), nu))), u(xmn, nu));
      for (int c = 0; c < 4; ++c) w[c] += f[c] + b[c];
    }
    const Q4 omega = mul(u(x, mu), w);
    return {-omega[1], -omega[2], -omega[3]};
  }
  void step(double eps) {
    const long long links_count = volume() * D();
    std::vector<std::array<double, 3>> X(static_cast<std::size_t>(links_count), {0, 0, 0});
    const double stages[3][2] = {{0.25, 0.0}, {8.0 / 9.0, -17.0 / 9.0}, {0.75, -1.0}};
    for (const auto& stage : stages) {
      for (long long l = 0; l < links_count; ++l) {
        const auto z = force(l / D(), static_cast<int>(l % D()));
        for (int k = 0; k < 3; ++k)
          X[static_cast<std::size_t>(l)][k] =
              stage[0] * eps * z[k] + stage[1] * X[static_cast<std::size_t>(l)][k];
      }
      for (long long l = 0; l < links_count; ++l) {
        const auto& v = X[static_cast<std::size_t>(l)];
        const double a = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        const double s = a == 0 ? 1.0 : std::sin(a) / a;
        Q4 next =
            mul({std::cos(a), s * v[0], s * v[1], s * v[2]}, u(l / D(), static_cast<int>(l % D())));
        const double norm = std::sqrt(next[0] * next[0] + next[1] * next[1] + next[2] * next[2] +
                                      next[3] * next[3]);
        for (double& c : next) c /= norm;
        set(l / D(), static_cast<int>(l % D()), next);
      }
    }
  }
};

template <class Real>
GaugeField<Space, Real> hot(const std::vector<int>& extents, std::uint64_t seed) {
  GaugeField<Space, Real> field(Space(), extents);
  field.hot_start(seed);
  return field;
}

template <class Real>
class FlowTest : public ::testing::Test {};
TYPED_TEST_SUITE(FlowTest, su2_test::Precisions);

TYPED_TEST(FlowTest, MatchesADirectHostImplementation) {
  using Real = TypeParam;
  const std::vector<int> extents = {4, 4, 4, 4};
  const auto start = hot<Real>(extents, 11);
  WilsonFlow<Space, Real> flow(Space(), start);
  HostFlow host{extents, start.to_canonical()};
  for (int s = 0; s < 5; ++s) {
    flow.step(0.05);
    host.step(0.05);
  }
  const std::vector<double> device = flow.field().to_canonical();
  double worst = 0;
  for (std::size_t i = 0; i < device.size(); ++i)
    worst = std::max(worst, std::fabs(device[i] - host.links[i]));
  // double: rounding only; float: storage rounding of links and X over 15 stages.
  const double bound = std::is_same_v<Real, double> ? 1e-12 : 2e-5;
  EXPECT_LT(worst, bound);
  EXPECT_DOUBLE_EQ(flow.time(), 0.25);
}

TEST(Flow, TimeHasLuschersNormalisation) {
  // U_0(x) = exp(i a cos(p x_1) sigma_3): abelian, divergence-free; to first order in a the
  // flow is the lattice heat equation, a(t) = a exp(-p^2 t), p^2 = 4 sin^2(p / 2).
  const std::vector<int> extents = {4, 8, 4, 4};
  const double amplitude = 1e-4, p = 2 * 3.14159265358979323846 / 8, t = 0.6;
  std::vector<double> links(4 * 4 * 8 * 4 * 4 * 4, 0.0);
  const long long volume = 4 * 8 * 4 * 4;
  for (long long site = 0; site < volume; ++site) {
    const int x1 = static_cast<int>((site / 4) % 8);
    for (int mu = 0; mu < 4; ++mu) {
      const double angle = mu == 0 ? amplitude * std::cos(p * x1) : 0.0;
      links[static_cast<std::size_t>((site * 4 + mu) * 4)] = std::cos(angle);
      links[static_cast<std::size_t>((site * 4 + mu) * 4 + 3)] = std::sin(angle);
    }
  }
  GaugeField<Space, double> start(Space(), extents);
  start.from_canonical(links);
  WilsonFlow<Space, double> flow(Space(), start);
  flow.flow_to(t, 0.01);
  const std::vector<double> after = flow.field().to_canonical();
  const double expected = amplitude * std::exp(-4 * std::pow(std::sin(p / 2), 2) * t);
  for (long long site = 0; site < volume; site += 7) {
    const int x1 = static_cast<int>((site / 4) % 8);
    const double angle = std::atan2(after[static_cast<std::size_t>(site * 16 + 3)],
                                    after[static_cast<std::size_t>(site * 16)]);
    // Relative: the cubic terms (~a^2 = 1e-8) and the integrator (eps^3 per unit t).
    EXPECT_NEAR(angle, expected * std::cos(p * x1), 1e-6 * amplitude) << "site " << site;
  }
}

TEST(Flow, IntegratorIsThirdOrder) {
  const auto start = hot<double>({4, 4, 4, 4}, 5);
  const auto energy = [&](double eps) {
    WilsonFlow<Space, double> flow(Space(), start);
    flow.flow_to(0.4, eps);
    return flow.measure().energy_plaquette;
  };
  const double reference = energy(0.0025);
  const double e1 = std::fabs(energy(0.04) - reference), e2 = std::fabs(energy(0.02) - reference);
  // Global error ~ eps^3: halving eps divides it by 8.
  EXPECT_GT(e1 / e2, 6.0) << e1 << " " << e2;
  EXPECT_LT(e1 / e2, 10.0) << e1 << " " << e2;
}

TYPED_TEST(FlowTest, EnergyAndChargeAreGaugeInvariant) {
  using Real = TypeParam;
  const auto start = hot<Real>({4, 4, 4, 6}, 21);
  auto transformed = hot<Real>({4, 4, 4, 6}, 21);
  transformed.random_gauge_transformation(99);
  WilsonFlow<Space, Real> a(Space(), start), b(Space(), transformed);
  a.flow_to(0.5, 0.05);
  b.flow_to(0.5, 0.05);
  const FlowObservables oa = a.measure(), ob = b.measure();
  const double tolerance = std::is_same_v<Real, double> ? 1e-11 : 2e-4;
  EXPECT_NEAR(oa.energy_plaquette, ob.energy_plaquette, tolerance * oa.energy_plaquette);
  EXPECT_NEAR(oa.energy_clover, ob.energy_clover, tolerance * oa.energy_clover);
  const double charge_tolerance = std::is_same_v<Real, double> ? 1e-10 : 1e-3;
  EXPECT_NEAR(oa.charge, ob.charge, charge_tolerance);
}

TEST(Flow, ActionFallsMonotonically) {
  WilsonFlow<Space, double> flow(Space(), hot<double>({4, 4, 4, 4}, 8));
  const double start_energy = flow.measure().energy_plaquette;
  double previous = start_energy;
  for (int s = 0; s < 20; ++s) {
    flow.step(0.02);
    const FlowObservables o = flow.measure();
    EXPECT_LT(o.energy_plaquette, previous) << "step " << s;
    previous = o.energy_plaquette;
  }
  // Haar-random links have <E> = 24 (4 (1 - a0) per plane, <a0> = 0, 6 planes a site) with
  // a standard deviation over 4^4 sites of 4 sqrt(6 Var(a0) / 256) = 0.31 (Var(a0) = 1/4);
  // flowing to t = 0.4 removes more than half of it (7.4 remain on this field).
  EXPECT_NEAR(start_energy, 24.0, 5 * 0.31);
  EXPECT_LT(flow.measure().energy_plaquette, 0.5 * start_energy);
}

TEST(Flow, ColdFieldIsAFixedPointAndBadStepsAreRefused) {
  GaugeField<Space, double> cold(Space(), {4, 4, 4, 4});
  WilsonFlow<Space, double> flow(Space(), cold);
  flow.flow_to(1.0, 0.1);
  const FlowObservables o = flow.measure();
  EXPECT_EQ(o.energy_plaquette, 0.0);
  EXPECT_EQ(o.energy_clover, 0.0);
  EXPECT_EQ(o.charge, 0.0);
  EXPECT_EQ(flow.field().to_canonical(), cold.to_canonical());
  EXPECT_DOUBLE_EQ(flow.time(), 1.0);
  EXPECT_THROW(flow.step(0.0), std::invalid_argument);
  EXPECT_THROW(flow.step(-0.1), std::invalid_argument);
  EXPECT_THROW(flow.step(std::nan("")), std::invalid_argument);
  // Three dimensions: energies, no charge.
  GaugeField<Space, double> three(Space(), {4, 4, 4});
  three.hot_start(3);
  const FlowObservables t = flow_observables(three);
  EXPECT_GT(t.energy_plaquette, 0.0);
  EXPECT_TRUE(std::isnan(t.charge));
}

}  // namespace

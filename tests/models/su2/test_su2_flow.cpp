// The Wilson flow (flow.hpp): against a direct host implementation of the stated integrator
// on a 4^4 lattice, the normalisation of t (a smooth abelian mode decays as exp(-p^2 t)), the
// integrator's third order, gauge invariance of E and Q, a monotonically falling action, the
// charge and action of a lattice instanton (1 and 8 pi^2, stable under the flow), the cold
// field as a fixed point, and bad steps.
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
constexpr double kPi = 3.14159265358979323846;

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
  const double amplitude = 1e-4, p = 2 * kPi / 8, t = 0.6;
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

// A BPST instanton of size rho centred between the sites of an L^4 lattice. Built in regular
// gauge, A_mu^a(y) = 2 eta_{a mu nu} y_nu / (y^2 + rho^2) (y = x - centre), with links
// U_mu(x) = exp(-i A_mu^a(x + mu/2) sigma_a / 2) (with exp(+i ...) the same formula needs
// etabar), then gauge transformed site by site to singular gauge, U_mu(x) -> g(x)^dagger
// U_mu(x) g(x + mu) with g(x) = (y_3 + i y.sigma) / |y|: the plaquettes stay those of the
// smooth field (no singular links at the centre), and the field falls off as rho^2 / |y|^3
// (tested below), so the periodic boundary cuts little of it. A link leaving the box is
// transformed with the g just beyond it.
std::vector<double> instanton(int L, double rho) {
  const auto eta = [](int a, int mu, int nu) {  // indices 0..3, 3 = the fourth direction
    if (mu == nu) return 0.0;
    if (mu < 3 && nu < 3) {
      const int e[3][3][3] = {{{0, 0, 0}, {0, 0, 1}, {0, -1, 0}},
                              {{0, 0, -1}, {0, 0, 0}, {1, 0, 0}},
                              {{0, 1, 0}, {-1, 0, 0}, {0, 0, 0}}};
      return static_cast<double>(e[a][mu][nu]);
    }
    if (nu == 3) return mu == a ? 1.0 : 0.0;
    return nu == a ? -1.0 : 0.0;  // mu == 3
  };
  const double centre = L / 2 - 0.5;
  const auto position = [&](long long site, double* y) {
    const long long x[4] = {site % L, site / L % L, site / L / L % L, site / L / L / L};
    for (int k = 0; k < 4; ++k) y[k] = static_cast<double>(x[k]) - centre;
  };
  // g^dagger at position y (not wrapped: a link leaving the box is transformed with the g just
  // beyond it, so the decaying singular-gauge link crosses the boundary unharmed).
  const auto g = [&](const double* y) {
    const double norm = std::sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
    return dag(Q4{y[3] / norm, y[0] / norm, y[1] / norm, y[2] / norm});
  };
  const long long volume = static_cast<long long>(L) * L * L * L;
  std::vector<double> links(static_cast<std::size_t>(volume * 16));
  for (long long site = 0; site < volume; ++site) {
    for (int mu = 0; mu < 4; ++mu) {
      double y[4], y2 = 0;
      position(site, y);
      y[mu] += 0.5;
      for (double c : y) y2 += c * c;
      double v[3] = {0, 0, 0};  // A_mu^a / 2
      for (int a = 0; a < 3; ++a)
        for (int nu = 0; nu < 4; ++nu) v[a] -= eta(a, mu, nu) * y[nu] / (y2 + rho * rho);
      const double angle = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      const double s = angle > 0 ? std::sin(angle) / angle : 1.0;
      const Q4 regular{std::cos(angle), s * v[0], s * v[1], s * v[2]};
      double here[4], there[4];
      position(site, here);
      position(site, there);
      there[mu] += 1;
      const Q4 u = mul(mul(g(here), regular), dag(g(there)));
      for (int c = 0; c < 4; ++c) links[static_cast<std::size_t>((site * 4 + mu) * 4 + c)] = u[c];
    }
  }
  return links;
}

TEST(Flow, InstantonChargeExtrapolatesToOne) {
  // The clover charge of a lattice instanton falls short of 1 by O(a^2 / rho^2) (measured
  // 0.81, 0.87, 0.91 at rho = 2, 2.5, 3 on 16^4). With Q(rho) = Q - c / rho^2 through rho = 2
  // and 3 the continuum charge is 1 to 2 %, and the middle size lies on that line.
  const auto charge = [](double rho) {
    GaugeField<Space, double> field(Space(), {16, 16, 16, 16});
    field.from_canonical(instanton(16, rho));
    return flow_observables(field).charge;
  };
  const double q2 = charge(2.0), q25 = charge(2.5), q3 = charge(3.0);
  const double continuum = (9 * q3 - 4 * q2) / 5, c = (q3 - q2) * 36 / 5;
  EXPECT_NEAR(continuum, 1.0, 0.02) << q2 << " " << q3;
  EXPECT_NEAR(q25, continuum - c / 6.25, 0.01) << q25;
}

TEST(Flow, InstantonChargeAndActionAreStableUnderTheFlow) {
  const std::vector<double> links = instanton(12, 2.5);
  // The singular-gauge field has died away at the x_0 = 0 face: 1 - a0 < 1e-3 (rotation
  // angles below 0.045, as rho^2 / |y|^3 with |y| >= 5.5 gives; 4.5e-4 measured).
  double boundary = 0;
  for (std::size_t l = 0; l < links.size() / 4; ++l)
    if (l / 4 % 12 == 0) boundary = std::max(boundary, 1 - links[4 * l]);
  EXPECT_LT(boundary, 1e-3);
  GaugeField<Space, double> start(Space(), {12, 12, 12, 12});
  start.from_canonical(links);
  WilsonFlow<Space, double> flow(Space(), start);
  const double q0 = flow.measure().charge;
  for (double t : {0.5, 1.0, 2.0}) {
    flow.flow_to(t, 0.05);
    const FlowObservables o = flow.measure();
    // Topology survives the flow (the Wilson flow shrinks an instanton slowly: -0.01 by t = 2).
    EXPECT_NEAR(o.charge, q0, 0.02) << "t = " << t;
    // One instanton's action is 8 pi^2 / g^2, i.e. E summed over the lattice is 8 pi^2.
    EXPECT_NEAR(o.energy_clover * 12 * 12 * 12 * 12 / (8 * kPi * kPi), 1.0, 0.15) << "t = " << t;
  }
}

TEST(Flow, AdaptiveStepsMeetTheirToleranceAndGrowAsTheFieldSmooths) {
  const auto start = hot<double>({4, 4, 4, 4}, 13);
  WilsonFlow<Space, double> reference(Space(), start);
  reference.flow_to(1.0, 0.001);  // global error ~1e-9: exact for this comparison
  // Flows to 0.5 and on to 1: the steps each half took, and the error at t = 1.
  const auto error_of = [&](double tolerance, long long& first_half, long long& second_half) {
    WilsonFlow<Space, double> flow(Space(), start);
    first_half = flow.flow_to_adaptive(0.5, tolerance, 0.1);
    second_half = flow.flow_to_adaptive(1.0, tolerance, 0.1);
    EXPECT_EQ(flow.time(), 1.0);
    const auto a = flow.field().to_canonical(), b = reference.field().to_canonical();
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
    return worst;
  };
  long long loose_1 = 0, loose_2 = 0, tight_1 = 0, tight_2 = 0;
  const double loose = error_of(1e-6, loose_1, loose_2);
  const double tight = error_of(1e-9, tight_1, tight_2);
  // The global error stays within the sum of the local bounds...
  EXPECT_LT(loose, (loose_1 + loose_2) * 1e-6);
  EXPECT_LT(tight, (tight_1 + tight_2) * 1e-9 + 1e-9);
  // ... a tighter tolerance buys accuracy with more steps ...
  EXPECT_LT(tight, loose / 10);
  EXPECT_GT(tight_1 + tight_2, loose_1 + loose_2);
  // ... and the steps grow as the flow smooths the hot field: fewer in the second half.
  EXPECT_LT(loose_2, loose_1);
  EXPECT_LT(tight_2, tight_1);
  WilsonFlow<Space, double> flow(Space(), start);
  EXPECT_THROW(flow.flow_to_adaptive(1.0, 0.0, 0.1), std::invalid_argument);
  EXPECT_THROW(flow.flow_to_adaptive(1.0, 1e-6, -1.0), std::invalid_argument);
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

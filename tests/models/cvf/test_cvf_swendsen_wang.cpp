// The CVF Swendsen-Wang update at fixed eta and volume, on TestSpace (every backend of the
// build): bond placement bit for bit against a host re-implementation, bond frequencies, the
// sampled law against exact limits and a host heat-bath chain, and bitwise reproducibility
// across labelling schemes (across backends: test_cvf_backends.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "portamc/cvf/detail/swendsen_wang.hpp"
#include "portamc/cvf/exact.hpp"
#include "test_cvf_support.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;
using cvf::Geometry;

namespace {

using HostBytes = std::vector<std::uint8_t>;
using portamc::cvf::testing::to_device;
using portamc::cvf::testing::to_host;

HostBytes random_sigma(const Geometry& g, std::uint32_t seed) {
  std::mt19937 engine(seed);
  HostBytes s(g.variables());
  for (auto& v : s) v = engine() % 6;
  return s;
}
HostBytes random_cubes(const Geometry& g, std::uint32_t seed) {
  std::mt19937 engine(seed);
  HostBytes c(g.cubes());
  for (auto& v : c) v = engine() % 9;
  return c;
}

bool allowed(const Geometry& g, const HostBytes& cubes, std::int64_t cell, int arm) {
  return g.allowed(cvf::testing::host_cubes(cubes), g.coordinates(cell), arm);
}

std::int64_t hydrogen_bonds(const Geometry& g, const HostBytes& s, const HostBytes& cubes) {
  std::int64_t n = 0;
  for (std::int64_t cell = 0; cell < g.cells(); ++cell) {
    for (int axis = 0; axis < 3; ++axis) {
      const int arm = 2 * axis;
      n += allowed(g, cubes, cell, arm) &&
           s[g.variable(cell, arm)] == s[g.variable(g.neighbour(cell, arm), arm + 1)];
    }
  }
  return n;
}
int cooperative_pairs_of(const Geometry& g, const HostBytes& s, std::int64_t cell) {
  int n = 0;
  for (int k = 0; k < 6; ++k) {
    for (int l = k + 1; l < 6; ++l) n += s[g.variable(cell, k)] == s[g.variable(cell, l)];
  }
  return n;
}
std::int64_t cooperative_total(const Geometry& g, const HostBytes& s) {
  std::int64_t n = 0;
  for (std::int64_t cell = 0; cell < g.cells(); ++cell) n += cooperative_pairs_of(g, s, cell);
  return n;
}

// Mean and its error from batch means (the samples of a Markov chain are correlated).
struct Estimate {
  double mean, error;
};
Estimate batch_mean(const std::vector<double>& x, int batches = 40) {
  const std::size_t per = x.size() / batches;
  std::vector<double> m(batches, 0.0);
  for (int b = 0; b < batches; ++b) {
    for (std::size_t i = 0; i < per; ++i) m[b] += x[b * per + i];
    m[b] /= per;
  }
  double mean = 0, var = 0;
  for (double v : m) mean += v / batches;
  for (double v : m) var += (v - mean) * (v - mean) / (batches - 1);
  return {mean, std::sqrt(var / batches)};
}

}  // namespace

TEST(CvfSwendsenWang, Thresholds) {
  const auto zero = cvf::bond_thresholds(0.0, 0.0, 1.0);
  EXPECT_EQ(zero.covalent, 0u);
  EXPECT_EQ(zero.cooperative, 0u);
  const auto th = cvf::bond_thresholds(-std::log(2.0), std::log(4.0), 1.0);
  EXPECT_TRUE(th.covalent_unequal);
  EXPECT_EQ(th.covalent, std::uint64_t{1} << 31);                               // p = 1/2
  EXPECT_EQ(th.cooperative, std::uint64_t{3} << 30);                            // p = 3/4
  EXPECT_EQ(cvf::bond_thresholds(800, 0, 1).covalent, std::uint64_t{1} << 32);  // always
  EXPECT_FALSE(cvf::bond_thresholds(1, 0, 1).covalent_unequal);
  EXPECT_THROW(cvf::bond_thresholds(1, 0, 0), std::invalid_argument);
  EXPECT_THROW(cvf::bond_thresholds(1, -0.1, 1), std::invalid_argument);
  EXPECT_THROW(cvf::bond_thresholds(NAN, 0, 1), std::invalid_argument);
}

TEST(CvfSwendsenWang, BondsBitExactAgainstHost) {
  const Geometry g(8);
  const auto s = random_sigma(g, 1);
  const auto cubes = random_cubes(g, 2);
  const std::uint64_t seed = 0x1234567887654321ull, step = 77;
  for (double J_eff : {0.9, -0.9, 0.0}) {
    const auto th = cvf::bond_thresholds(J_eff, 0.7, 1.1);
    Kokkos::View<std::uint32_t*, TestSpace> bonds("bonds", g.cells());
    cvf::place_bonds(TestSpace(), g, to_device<TestSpace>(s), to_device<TestSpace>(cubes), th, seed,
                     step, bonds);
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bonds);
    std::int64_t placed = 0;
    for (std::int64_t cell = 0; cell < g.cells(); ++cell) {
      std::uint32_t words[20];
      for (int b = 0; b < 5; ++b) {
        const auto w =
            portamc::rng::draw(seed, portamc::rng::purpose_cvf_bonds, 8 * cell + b, step);
        for (int i = 0; i < 4; ++i) words[4 * b + i] = w[i];
      }
      std::uint32_t expected = 0;
      for (int axis = 0; axis < 3; ++axis) {
        const bool equal = s[g.variable(cell, 2 * axis)] ==
                           s[g.variable(g.neighbour(cell, 2 * axis), 2 * axis + 1)];
        const bool eligible = J_eff > 0 ? equal : (J_eff < 0 ? !equal : false);
        if (eligible && allowed(g, cubes, cell, 2 * axis) && words[axis] < th.covalent) {
          expected |= 1u << axis;
        }
      }
      int bit = 3;
      for (int k = 0; k < 6; ++k) {
        for (int l = k + 1; l < 6; ++l, ++bit) {
          if (s[g.variable(cell, k)] == s[g.variable(cell, l)] && words[bit] < th.cooperative) {
            expected |= 1u << bit;
          }
        }
      }
      ASSERT_EQ(got(cell), expected) << "cell " << cell << " J_eff " << J_eff;
      placed += __builtin_popcount(expected);
    }
    EXPECT_GT(placed, 100);  // the comparison is not vacuous
  }
}

TEST(CvfSwendsenWang, BondFrequenciesMatchProbabilities) {
  // Fixed sigma: all arms equal (every pair eligible for J_eff > 0), or arm-valued (every
  // covalent pair unequal, every cooperative pair unequal) for J_eff < 0.
  const Geometry g(8);
  const auto cubes = random_cubes(g, 3);
  const double t = 1.3, J_sigma = 0.5;
  for (double J_eff : {0.8, -0.8}) {
    HostBytes s(g.variables());
    for (int arm = 0; arm < 6; ++arm) {
      for (std::int64_t cell = 0; cell < g.cells(); ++cell)
        s[g.variable(cell, arm)] = J_eff > 0 ? 0 : arm;
    }
    const auto th = cvf::bond_thresholds(J_eff, J_sigma, t);
    auto sigma = to_device<TestSpace>(s);
    auto cube_view = to_device<TestSpace>(cubes);
    Kokkos::View<std::uint32_t*, TestSpace> bonds("bonds", g.cells());
    std::int64_t covalent = 0, cooperative = 0, wrong = 0;
    const int steps = 50;
    for (int step = 0; step < steps; ++step) {
      cvf::place_bonds(TestSpace(), g, sigma, cube_view, th, 7, step, bonds);
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bonds);
      for (std::int64_t cell = 0; cell < g.cells(); ++cell) {
        for (int axis = 0; axis < 3; ++axis) {
          const bool bonded = (h(cell) >> axis) & 1u;
          if (allowed(g, cubes, cell, 2 * axis)) {
            covalent += bonded;
          } else {
            wrong += bonded;
          }
        }
        cooperative += __builtin_popcount(h(cell) >> 3);
      }
    }
    EXPECT_EQ(wrong, 0);                           // eta = 0 edges never bond
    const double n_cov = 2.0 * g.cells() * steps;  // every eta configuration allows 2 N edges
    const double p_cov = 1 - std::exp(-std::fabs(J_eff) / t);
    EXPECT_NEAR(covalent, n_cov * p_cov, 5 * std::sqrt(n_cov * p_cov * (1 - p_cov)));
    if (J_eff > 0) {
      const double n_coop = 15.0 * g.cells() * steps;
      const double p_coop = 1 - std::exp(-J_sigma / t);
      EXPECT_NEAR(cooperative, n_coop * p_coop, 5 * std::sqrt(n_coop * p_coop * (1 - p_coop)));
    } else {
      EXPECT_EQ(cooperative, 0);  // all cooperative pairs are unequal
    }
  }
}

namespace {

// Runs `sweeps` SW updates from a random sigma and records N_HB and N_sigma after each.
struct Series {
  std::vector<double> hb, coop;
  std::vector<std::int64_t> histogram;  // per-molecule N_sigma, every `stride` sweeps
};
Series sample(const Geometry& g, const HostBytes& cubes, double J_eff, double J_sigma, double t,
              int sweeps, cvf::Labelling scheme, int stride = 1) {
  cvf::SwendsenWang<TestSpace> sw(TestSpace(), g, scheme);
  auto sigma = to_device<TestSpace>(random_sigma(g, 9));
  auto cube_view = to_device<TestSpace>(cubes);
  const auto th = cvf::bond_thresholds(J_eff, J_sigma, t);
  Series out;
  out.histogram.assign(16, 0);
  for (int i = 0; i < 50; ++i) sw.sweep(sigma, cube_view, th, 2024, i);  // burn-in
  for (int i = 0; i < sweeps; ++i) {
    sw.sweep(sigma, cube_view, th, 2024, 50 + i);
    const auto s = to_host(sigma);
    out.hb.push_back(hydrogen_bonds(g, s, cubes));
    out.coop.push_back(cooperative_total(g, s));
    if (i % stride == 0) {
      for (std::int64_t cell = 0; cell < g.cells(); ++cell)
        ++out.histogram[cooperative_pairs_of(g, s, cell)];
    }
  }
  return out;
}

}  // namespace

TEST(CvfSwendsenWang, IndependentBondsAreBinomial) {
  // J_sigma = 0: N_HB ~ Binomial(2 N, p) for any fixed eta.
  const Geometry g(4);
  const double t = 0.8;
  for (double J_eff : {1.1, -0.7}) {
    for (bool random_eta : {false, true}) {
      const HostBytes cubes = random_eta ? random_cubes(g, 4) : HostBytes(g.cubes(), 0);
      const auto series =
          sample(g, cubes, J_eff, 0.0, t, 4000,
                 random_eta ? cvf::Labelling::union_find : cvf::Labelling::label_equivalence);
      const double n = 2.0 * g.cells();
      const double p = cvf::exact::independent_bond_probability(J_eff / t);
      const auto mean = batch_mean(series.hb);
      EXPECT_NEAR(mean.mean, n * p, 5 * mean.error) << J_eff;
      std::vector<double> square(series.hb.size());
      for (std::size_t i = 0; i < square.size(); ++i) {
        square[i] = (series.hb[i] - n * p) * (series.hb[i] - n * p);
      }
      const auto var = batch_mean(square);
      EXPECT_NEAR(var.mean, n * p * (1 - p), 5 * var.error) << J_eff;
      // Tolerances are a few percent, so the test would see a wrong law.
      EXPECT_LT(mean.error, 0.01 * n * p);
      EXPECT_LT(var.error, 0.1 * n * p * (1 - p));
    }
  }
}

TEST(CvfSwendsenWang, IsolatedMoleculesFollowExactLaw) {
  // J_eff = 0: molecules are independent 6-variable Potts cliques.
  const Geometry g(4);
  const double t = 0.9, J_sigma = 0.6;
  const int stride = 4;
  const auto series =
      sample(g, HostBytes(g.cubes(), 0), 0.0, J_sigma, t, 8000, cvf::Labelling::union_find, stride);
  const auto law = cvf::exact::isolated_molecule(J_sigma / t);
  std::int64_t total = 0;
  for (auto c : series.histogram) total += c;
  // Chi-square over bins pooled until each expects >= 20 counts.
  double chi2 = 0, expected_acc = 0, observed_acc = 0;
  int dof = -1;
  for (int k = 0; k < 16; ++k) {
    expected_acc += law.probability[k] * total;
    observed_acc += series.histogram[k];
    if (expected_acc >= 20 || k == 15) {
      chi2 += (observed_acc - expected_acc) * (observed_acc - expected_acc) / expected_acc;
      expected_acc = observed_acc = 0;
      ++dof;
    }
  }
  // Measurements 4 sweeps apart are nearly independent; chi2 for dof <= 12 exceeds 40 with
  // probability < 1e-4.
  EXPECT_GE(dof, 5);
  EXPECT_LT(chi2, 40.0) << "dof " << dof;
  const auto mean = batch_mean(series.coop);
  EXPECT_NEAR(mean.mean / g.cells(), law.mean, 5 * mean.error / g.cells());
}

namespace {

// Host single-variable heat bath for the same measure, the reference for coupled systems.
Estimate heat_bath(const Geometry& g, const HostBytes& cubes, double J_eff, double J_sigma,
                   double t, int sweeps, bool measure_hb, std::vector<double>* coop_out) {
  std::mt19937_64 engine(31);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  HostBytes s = random_sigma(g, 17);
  std::vector<double> hb;
  for (int sweep = 0; sweep < sweeps + 200; ++sweep) {
    for (std::int64_t cell = 0; cell < g.cells(); ++cell) {
      for (int arm = 0; arm < 6; ++arm) {
        const std::int64_t nbr = g.neighbour(cell, arm);
        const bool eta = allowed(g, cubes, cell, arm);
        const std::uint8_t partner = s[g.variable(nbr, cvf::opposite_arm(arm))];
        double w[6], sum = 0;
        for (int q = 0; q < 6; ++q) {
          double e = eta && q == partner ? J_eff : 0.0;
          for (int k = 0; k < 6; ++k) e += (k != arm && s[g.variable(cell, k)] == q) ? J_sigma : 0;
          w[q] = std::exp(e / t);
          sum += w[q];
        }
        double u = uniform(engine) * sum;
        int q = 0;
        while (q < 5 && u >= w[q]) u -= w[q++];
        s[g.variable(cell, arm)] = q;
      }
    }
    if (sweep >= 200) {
      hb.push_back(hydrogen_bonds(g, s, cubes));
      coop_out->push_back(cooperative_total(g, s));
    }
  }
  (void)measure_hb;
  return batch_mean(hb);
}

}  // namespace

TEST(CvfSwendsenWang, CoupledSystemAgreesWithHeatBath) {
  const Geometry g(4);
  const auto cubes = random_cubes(g, 8);
  const double t = 1.0;
  for (double J_eff : {1.2, -0.8}) {
    const double J_sigma = 0.35;
    std::vector<double> coop_ref;
    const auto hb_ref = heat_bath(g, cubes, J_eff, J_sigma, t, 6000, true, &coop_ref);
    const auto co_ref = batch_mean(coop_ref);
    const auto series = sample(g, cubes, J_eff, J_sigma, t, 6000, cvf::Labelling::union_find);
    const auto hb = batch_mean(series.hb);
    const auto co = batch_mean(series.coop);
    EXPECT_NEAR(hb.mean, hb_ref.mean, 5 * std::hypot(hb.error, hb_ref.error)) << J_eff;
    EXPECT_NEAR(co.mean, co_ref.mean, 5 * std::hypot(co.error, co_ref.error)) << J_eff;
    // The cooperative coupling matters at this resolution (15 N / 6 without it).
    EXPECT_GT(co_ref.mean - 15.0 * g.cells() / 6, 10 * co_ref.error) << J_eff;
  }
}

namespace {

HostBytes run_sweeps(const Geometry& g, cvf::Labelling scheme, int sweeps) {
  cvf::SwendsenWang<TestSpace> sw(TestSpace(), g, scheme);
  auto sigma = to_device<TestSpace>(random_sigma(g, 21));
  auto cubes = to_device<TestSpace>(random_cubes(g, 22));
  const auto th = cvf::bond_thresholds(1.3, 0.45, 0.9);
  for (int i = 0; i < sweeps; ++i) sw.sweep(sigma, cubes, th, 555, 1000 + i);
  return to_host(sigma);
}

}  // namespace

// Across backends: test_cvf_backends.cpp (every space against Serial).
TEST(CvfSwendsenWang, BitwiseReproducibleAcrossSchemes) {
  const Geometry g(8);
  const auto start = random_sigma(g, 21);
  const auto a = run_sweeps(g, cvf::Labelling::union_find, 6);
  EXPECT_NE(a, start);
  EXPECT_EQ(a, run_sweeps(g, cvf::Labelling::union_find, 6));
  EXPECT_EQ(a, run_sweeps(g, cvf::Labelling::label_equivalence, 6));
}

TEST(CvfSwendsenWang, SweepStatistics) {
  const Geometry g(8);
  cvf::SwendsenWang<TestSpace> sw(TestSpace(), g, cvf::Labelling::label_equivalence);
  EXPECT_FALSE(sw.wide_labels());
  EXPECT_EQ(sw.bytes_per_molecule(), 28.0);
  auto sigma = to_device<TestSpace>(HostBytes(g.variables(), 0));
  auto cubes = to_device<TestSpace>(HostBytes(g.cubes(), 0));
  // Infinite couplings, all sigma equal. Cube state 0 forbids every x edge (each edge lies in
  // exactly one cube), so the clusters are the L planes x = const.
  sw.sweep(sigma, cubes, cvf::bond_thresholds(800, 800, 1), 1, 0);
  EXPECT_EQ(sw.cluster_count(), g.size());
  EXPECT_EQ(sw.largest_cluster_size(), g.variables() / g.size());
  EXPECT_GE(sw.last_iterations(), 2);
  const auto s = to_host(sigma);
  bool planes_differ = false;
  for (std::int64_t x = 0; x < g.variables(); ++x) {
    const auto c = g.coordinates(x % g.cells());
    ASSERT_EQ(s[x], s[c.x]) << x;  // one shift per plane
    planes_differ |= s[x] != s[0];
  }
  EXPECT_TRUE(planes_differ);
  // No couplings: every variable alone.
  sw.sweep(sigma, cubes, cvf::bond_thresholds(0, 0, 1), 1, 1);
  EXPECT_EQ(sw.cluster_count(), g.variables());
  EXPECT_EQ(sw.largest_cluster_size(), 1);
}

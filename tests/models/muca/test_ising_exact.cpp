// Exact 2D Ising references: enumeration, transfer matrix and Ferdinand-Fisher must agree with
// each other, with hand-countable low-energy states, and with Onsager in the thermodynamic limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/muca/ising_exact.hpp"

namespace {

namespace ex = portamc::muca::exact;
using ex::Count;

// GoogleTest cannot print 128-bit integers, so failures report decimal strings.
std::string to_string(Count c) {
  if (c == 0) return "0";
  std::string s;
  while (c != 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(c % 10)));
    c /= 10;
  }
  return s;
}

Count total(const std::vector<Count>& g) {
  Count t = 0;
  for (Count c : g) t += c;
  return t;
}

// ln Z = -beta N F from the density of states, for comparison with the closed form.
double log_z_from_dos(const std::vector<double>& log_dos, int L, double beta) {
  return -beta * L * L * ex::canonical_from_log_dos(log_dos, L, beta).free_energy_per_spin;
}

void expect_close(double actual, double expected, double tol, const std::string& what) {
  // Relative where the value is sizeable, absolute where it is near zero.
  const double scale = std::max(1.0, std::fabs(expected));
  EXPECT_LE(std::fabs(actual - expected), tol * scale)
      << what << ": got " << actual << ", expected " << expected;
}

const double kBetaC = 0.5 * std::log(1.0 + std::sqrt(2.0));
const double kPi = std::acos(-1.0);

TEST(IsingExact, EnumerationL4MatchesKnownDensityOfStates) {
  const std::vector<Count> g = ex::dos_counts_enumeration(4);
  ASSERT_EQ(g.size(), 17u);
  EXPECT_EQ(to_string(total(g)), "65536");
  // g(E) for E = -32, -28, ..., 0 (k = 0..8); the other half follows from g(k) = g(N - k).
  const std::vector<Count> half = {2, 0, 32, 64, 424, 1728, 6688, 13568, 20524};
  for (std::size_t k = 0; k < half.size(); ++k) {
    EXPECT_EQ(to_string(g[k]), to_string(half[k])) << "k = " << k;
    EXPECT_EQ(to_string(g[16 - k]), to_string(half[k])) << "k = " << 16 - k;
  }
  EXPECT_EQ(g[1], Count{0});
  EXPECT_EQ(g[15], Count{0});

  const std::vector<double> log_g = ex::log_dos_enumeration(4);
  EXPECT_EQ(log_g[1], -std::numeric_limits<double>::infinity());
  EXPECT_NEAR(log_g[8], std::log(20524.0), 1e-14);
}

TEST(IsingExact, TransferMatrixEqualsEnumeration) {
  for (int L = 2; L <= 5; ++L) {
    const std::vector<Count> tm = ex::dos_counts_transfer_matrix(L);
    const std::vector<Count> en = ex::dos_counts_enumeration(L);
    ASSERT_EQ(tm.size(), static_cast<std::size_t>(L * L + 1));
    ASSERT_EQ(en.size(), tm.size());
    for (std::size_t k = 0; k < tm.size(); ++k) {
      EXPECT_EQ(to_string(tm[k]), to_string(en[k])) << "L = " << L << ", k = " << k;
    }
    EXPECT_EQ(total(tm), Count{1} << (L * L)) << "L = " << L;
  }
}

TEST(IsingExact, SmallLatticesHaveTheExpectedEmptyBins) {
  // L = 2: every pair of spins is bonded twice, so only k = 0, 2, 4 occur: 2, 12, 2 states.
  const std::vector<Count> g2 = ex::dos_counts_enumeration(2);
  const std::vector<Count> want2 = {2, 0, 12, 0, 2};
  for (std::size_t k = 0; k < want2.size(); ++k) EXPECT_EQ(to_string(g2[k]), to_string(want2[k]));
  // Odd L frustrates the antiferromagnet: the top bins stay empty and g is not symmetric.
  const std::vector<Count> g3 = ex::dos_counts_transfer_matrix(3);
  EXPECT_EQ(g3[9], Count{0});
  EXPECT_NE(g3[0], g3[9]);
}

TEST(IsingExact, TransferMatrixL8) {
  const int L = 8, n = L * L;
  const std::vector<Count> g = ex::dos_counts_transfer_matrix(L);
  ASSERT_EQ(g.size(), static_cast<std::size_t>(n + 1));
  EXPECT_EQ(to_string(total(g)), to_string(Count{1} << 64));
  for (int k = 0; k <= n; ++k) {
    EXPECT_EQ(to_string(g[k]), to_string(g[n - k])) << "k = " << k;
  }
  EXPECT_EQ(g[0], Count{2});
  EXPECT_EQ(g[1], Count{0});
  EXPECT_EQ(g[n - 1], Count{0});
  // Hand counts of flipped clusters (times 2 for the two ground states), valid for L >= 5:
  // k = 2: one spin; k = 3: an adjacent pair (2N of them); k = 4: two non-adjacent spins
  // (N(N-1)/2 - 2N), straight triples (2N), L-trominoes (4N) and 2x2 squares (N).
  EXPECT_EQ(g[2], Count{2 * 64});
  EXPECT_EQ(g[3], Count{2 * 2 * 64});
  EXPECT_EQ(g[4], Count{2 * (64 * 63 / 2 + 5 * 64)});

  const std::vector<double> log_g = ex::log_dos_from_counts(g);
  double m = -std::numeric_limits<double>::infinity();
  for (double v : log_g) m = std::max(m, v);
  double s = 0;
  for (double v : log_g) s += std::exp(v - m);
  const double log_total = m + std::log(s);
  EXPECT_NEAR(log_total / (64 * std::log(2.0)), 1.0, 1e-12);
}

TEST(IsingExact, ArgumentChecks) {
  EXPECT_THROW(ex::log_dos_enumeration(6), std::invalid_argument);
  EXPECT_THROW(ex::log_dos_enumeration(1), std::invalid_argument);
  EXPECT_THROW(ex::log_dos_transfer_matrix(11), std::invalid_argument);
  EXPECT_THROW(ex::log_dos_transfer_matrix(1), std::invalid_argument);
  EXPECT_THROW(ex::ferdinand_fisher_log_z(1, 0.3), std::invalid_argument);
  EXPECT_THROW(ex::ferdinand_fisher(4, -0.1), std::invalid_argument);
  EXPECT_THROW(ex::canonical_from_log_dos(std::vector<double>(16, 0.0), 4, 0.3),
               std::invalid_argument);
}

TEST(IsingExact, CanonicalFromDosIsStableOverBetaRange) {
  const int L = 8;
  const std::vector<double> log_g = ex::log_dos_transfer_matrix(L);
  for (int i = 0; i <= 100; ++i) {
    const double beta = 0.05 * i;
    const ex::Canonical c = ex::canonical_from_log_dos(log_g, L, beta);
    EXPECT_TRUE(std::isfinite(c.energy_per_spin)) << beta;
    EXPECT_TRUE(std::isfinite(c.specific_heat_per_spin)) << beta;
    EXPECT_TRUE(std::isfinite(c.entropy_per_spin)) << beta;
    EXPECT_GE(c.specific_heat_per_spin, 0.0) << beta;
    if (beta > 0) {
      EXPECT_TRUE(std::isfinite(c.free_energy_per_spin)) << beta;
    }
  }
  const ex::Canonical hot = ex::canonical_from_log_dos(log_g, L, 0.0);
  EXPECT_NEAR(hot.energy_per_spin, 0.0, 1e-15);
  EXPECT_NEAR(hot.specific_heat_per_spin, 0.0, 1e-15);
  EXPECT_NEAR(hot.entropy_per_spin, std::log(2.0), 1e-14);
  // At beta = 5 only the ground state and single flips matter: U/N -> -2, S/N -> ln 2 / N.
  const ex::Canonical cold = ex::canonical_from_log_dos(log_g, L, 5.0);
  EXPECT_NEAR(cold.energy_per_spin, -2.0, 1e-15);
  EXPECT_NEAR(cold.entropy_per_spin, std::log(2.0) / (L * L), 1e-12);
}

TEST(IsingExact, FerdinandFisherMatchesExactDensityOfStates) {
  const std::vector<double> betas = {0.1, 0.3, 0.4406868, kBetaC, 0.5, 1.0, 2.0};
  for (int L = 2; L <= 8; ++L) {
    const std::vector<double> log_g = ex::log_dos_transfer_matrix(L);
    for (double beta : betas) {
      const std::string at = "L = " + std::to_string(L) + ", beta = " + std::to_string(beta);
      const ex::Canonical dos = ex::canonical_from_log_dos(log_g, L, beta);
      const ex::Canonical ff = ex::ferdinand_fisher(L, beta);
      const double log_z = log_z_from_dos(log_g, L, beta);
      EXPECT_NEAR(ex::ferdinand_fisher_log_z(L, beta) / log_z, 1.0, 1e-10) << at;
      EXPECT_NEAR(ff.free_energy_per_spin / dos.free_energy_per_spin, 1.0, 1e-10) << at;
      expect_close(ff.energy_per_spin, dos.energy_per_spin, 1e-7, "U, " + at);
      expect_close(ff.specific_heat_per_spin, dos.specific_heat_per_spin, 1e-7, "C, " + at);
      expect_close(ff.entropy_per_spin, dos.entropy_per_spin, 1e-7, "S, " + at);
    }
  }
}

// Fourth-order central difference; h = 1e-4 keeps both truncation (~h^4) and rounding (~eps/h)
// far below the tolerances, even near T_c where the higher derivatives grow with L.
template <class F>
double derivative(F f, double x) {
  const double h = 1e-4;
  return (-f(x + 2 * h) + 8 * f(x + h) - 8 * f(x - h) + f(x - 2 * h)) / (12 * h);
}

TEST(IsingExact, FerdinandFisherDerivativesMatchFiniteDifferences) {
  // Guards the analytic derivatives independently of the DOS route, at a size (L = 32) the
  // transfer matrix cannot reach.
  constexpr int L = 32;
  const double n = L * L;
  const auto log_z = [](double b) { return ex::ferdinand_fisher_log_z(L, b); };
  const auto energy = [](double b) { return ex::ferdinand_fisher(L, b).energy_per_spin; };
  for (double beta : {0.2, 0.43, kBetaC, 0.46, 0.8}) {
    const ex::Canonical ff = ex::ferdinand_fisher(L, beta);
    EXPECT_NEAR(ff.energy_per_spin, -derivative(log_z, beta) / n, 1e-9) << beta;
    EXPECT_NEAR(ff.specific_heat_per_spin, -beta * beta * derivative(energy, beta), 1e-8) << beta;
  }
}

// Complete elliptic integral of the first kind K(k) = pi / (2 AGM(1, sqrt(1 - k^2))).
double elliptic_k(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 40 && std::fabs(a - b) > 1e-16 * a; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return kPi / (2.0 * a);
}

// Onsager's energy per spin of the infinite lattice:
// U/N = -coth 2K [1 + (2/pi)(2 tanh^2 2K - 1) K(k)], k = 2 sinh 2K / cosh^2 2K.
double onsager_energy(double beta) {
  const double t = std::tanh(2 * beta);
  const double k = 2 * std::sinh(2 * beta) / std::pow(std::cosh(2 * beta), 2);
  return -(1 / t) * (1 + (2 / kPi) * (2 * t * t - 1) * elliptic_k(k));
}

TEST(IsingExact, FerdinandFisherApproachesThermodynamicLimit) {
  const int L = 64;
  const ex::Canonical at_c = ex::ferdinand_fisher(L, kBetaC);
  EXPECT_NEAR(at_c.energy_per_spin, -std::sqrt(2.0), 0.01);
  // Sharper: at T_c the energy approaches -sqrt(2) as a / L (a = -0.6224...), and ln Z / N
  // approaches Onsager's 2G/pi + ln(2)/2 (G = Catalan's constant) as b / L^2.
  const double a64 = 64 * (at_c.energy_per_spin + std::sqrt(2.0));
  const double a128 = 128 * (ex::ferdinand_fisher(128, kBetaC).energy_per_spin + std::sqrt(2.0));
  EXPECT_NEAR(a64, a128, 1e-4);
  const double catalan = 0.915965594177219015;
  const double log_z_c = 2 * catalan / kPi + 0.5 * std::log(2.0);
  EXPECT_NEAR(ex::ferdinand_fisher_log_z(256, kBetaC) / (256.0 * 256.0), log_z_c, 2e-5);
  // Away from T_c the correlation length is a few spacings and finite-size corrections are
  // exponentially small, so L = 64 must reproduce Onsager essentially to rounding.
  for (double beta : {0.3, 0.6}) {
    EXPECT_NEAR(ex::ferdinand_fisher(L, beta).energy_per_spin, onsager_energy(beta), 1e-10) << beta;
  }
  // Large lattices and low temperatures must not overflow (products ~ exp(N)).
  const ex::Canonical big = ex::ferdinand_fisher(256, 5.0);
  EXPECT_NEAR(big.energy_per_spin, -2.0, 1e-12);
  EXPECT_TRUE(std::isfinite(big.specific_heat_per_spin));
}

}  // namespace

// Tests of the SU(2) reference values against numbers obtained independently of std::cyl_bessel_i
// and of the character expansion: hand-derived power series, tabulated Bessel values, and a direct
// numerical integral over the two links of the 1x1 torus.
#include "portamc/su2/exact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

namespace exact = portamc::su2::exact;

// I2/I1 from the ascending series I_n(x) = sum_k (x/2)^(2k+n) / (k! (k+n)!), worked out by hand:
// u = x/4 - x^3/96 + x^5/1536 - x^7/23040 + O(x^9).
double character_ratio_taylor(double x) {
  return x / 4 - std::pow(x, 3) / 96 + std::pow(x, 5) / 1536 - std::pow(x, 7) / 23040;
}

TEST(Su2Exact, CharacterRatioMatchesItsTaylorSeriesAtSmallBeta) {
  // The next term is about 2.9e-6 x^9.
  for (double beta : {0.01, 0.05, 0.1, 0.2, 0.3, 0.5}) {
    EXPECT_NEAR(exact::plaquette_2d(beta), character_ratio_taylor(beta),
                1e-5 * std::pow(beta, 9) + 1e-16)
        << "beta = " << beta;
  }
}

TEST(Su2Exact, CharacterRatioMatchesTabulatedBesselValues) {
  // Abramowitz & Stegun, Table 9.8: I0 and I1 at x = 1 and 2; I2 = I0 - (2/x) I1 (recurrence).
  const double i0_1 = 1.266065878, i1_1 = 0.565159104;
  const double i0_2 = 2.279585302, i1_2 = 1.590636855;
  EXPECT_NEAR(exact::plaquette_2d(1.0), (i0_1 - 2.0 * i1_1) / i1_1, 1e-8);
  EXPECT_NEAR(exact::plaquette_2d(2.0), (i0_2 - i1_2) / i1_2, 1e-8);
}

TEST(Su2Exact, CharacterRatioMatchesItsAsymptoticSeriesAtLargeBeta) {
  // Hankel's expansion I_n(x) ~ e^x / sqrt(2 pi x) (1 - (4n^2-1)/(8x) + ...) gives
  // I2/I1 = 1 - 3/(2x) + 3/(8x^2) + O(x^-3); the 2D weak-coupling limit 1 - P = 3/(D beta).
  for (double beta : {20.0, 50.0, 100.0, 300.0}) {
    const double series = 1.0 - 1.5 / beta + 0.375 / (beta * beta);
    EXPECT_NEAR(exact::plaquette_2d(beta), series, 1.0 / (beta * beta * beta)) << beta;
  }
}

TEST(Su2Exact, CharacterRatioDerivativeMatchesFiniteDifference) {
  for (double beta : {0.1, 1.0, 2.5, 10.0}) {
    const double h = 1e-5;
    const double numeric =
        (exact::character_ratio(beta + h) - exact::character_ratio(beta - h)) / (2 * h);
    EXPECT_NEAR(exact::character_ratio_derivative(beta), numeric, 1e-8) << beta;
  }
}

// Z of the 1x1 periodic lattice: one plaquette U V U^-1 V^-1. For V in the class of angle phi
// (Haar density (2/pi) sin^2 phi), U V U^-1 is uniform on that class, so 1/2 Tr U_p =
// cos^2 phi + sin^2 phi * t with t uniform in [-1, 1]; the t integral is elementary.
double one_plaquette_torus_z(double beta) {
  const int n = 400;  // trapezoid rule: spectrally accurate for this smooth periodic integrand
  const double pi = std::acos(-1.0);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double phi = pi * i / n;
    const double s2 = std::sin(phi) * std::sin(phi);
    const double c2 = 1.0 - s2;
    const double x = beta * s2;
    const double sinh_over_x = x < 1e-12 ? 1.0 : std::sinh(x) / x;
    sum += (2.0 / pi) * s2 * std::exp(beta * c2) * sinh_over_x;
  }
  return sum * pi / n;
}

TEST(Su2Exact, TorusFormulaMatchesDirectIntegralOnOnePlaquette) {
  for (double beta : {0.5, 2.0, 5.0}) {
    const double h = 1e-4;
    const double numeric =
        (std::log(one_plaquette_torus_z(beta + h)) - std::log(one_plaquette_torus_z(beta - h))) /
        (2 * h);
    EXPECT_NEAR(exact::plaquette_2d_torus(beta, 1), numeric, 1e-8) << "beta = " << beta;
  }
}

TEST(Su2Exact, TorusApproachesInfiniteVolume) {
  // Corrections are of order (I2/I1)^V: large on tiny tori, invisible on big ones.
  EXPECT_GT(std::abs(exact::plaquette_2d_torus(2.0, 4) - exact::plaquette_2d(2.0)), 1e-2);
  EXPECT_NEAR(exact::plaquette_2d_torus(8.0, 16), exact::plaquette_2d(8.0) + 1.057413e-3, 1e-8);
  EXPECT_NEAR(exact::plaquette_2d_torus(2.0, 64 * 64), exact::plaquette_2d(2.0), 1e-15);
  EXPECT_NEAR(exact::plaquette_2d_torus(50.0, 1 << 20), exact::plaquette_2d(50.0), 1e-14);
}

TEST(Su2Exact, StrongCouplingClosedFormMatchesItsTaylorCoefficients) {
  // The closed form u + 16 u^5 u' and the hand-expanded polynomial through beta^7 may differ only
  // at O(beta^9) (coefficient about 2.7e-4).
  const std::vector<double> c = exact::strong_coupling_taylor_4d();
  ASSERT_EQ(c.size(), 8u);
  for (double beta : {0.05, 0.1, 0.2, 0.3, 0.5}) {
    double polynomial = 0.0;
    for (std::size_t k = 0; k < c.size(); ++k) polynomial += c[k] * std::pow(beta, k);
    EXPECT_NEAR(exact::plaquette_strong_coupling(4, beta).value, polynomial,
                5e-4 * std::pow(beta, 9) + 1e-16)
        << "beta = " << beta;
  }
  EXPECT_DOUBLE_EQ(c[5], 1.0 / 1536 + 4.0 / 1024);  // u's own beta^5 term plus 4 (beta/4)^5
}

TEST(Su2Exact, StrongCouplingReducesToExactResultIn2D) {
  for (double beta : {0.3, 1.0, 4.0}) {
    const auto s = exact::plaquette_strong_coupling(2, beta);
    EXPECT_DOUBLE_EQ(s.value, exact::plaquette_2d(beta));
    EXPECT_EQ(s.truncation_error, 0.0);
  }
}

TEST(Su2Exact, StrongCouplingTruncationIsTinyInTheValidatedRange) {
  // beta <= 0.5 is where the Monte Carlo is compared with the series.
  const auto s = exact::plaquette_strong_coupling(4, 0.5);
  EXPECT_EQ(s.order, 7);
  EXPECT_GT(s.truncation_error, 0.0);
  EXPECT_LT(s.truncation_error, 1e-6);
  EXPECT_NEAR(s.value, 0.5 / 4 - 0.125 / 96 + 7 * 0.03125 / 1536 - 31 * 0.0078125 / 23040, 1e-6);
  // More dimensions, more cubes: each adds a positive correction.
  EXPECT_GT(exact::plaquette_strong_coupling(4, 0.5).value,
            exact::plaquette_strong_coupling(3, 0.5).value);
  EXPECT_GT(exact::plaquette_strong_coupling(3, 0.5).value, exact::plaquette_2d(0.5));
  // The error estimate grows like beta^9 (up to relative O(beta^2) corrections).
  EXPECT_NEAR(exact::plaquette_strong_coupling(4, 0.2).truncation_error /
                  exact::plaquette_strong_coupling(4, 0.1).truncation_error,
              512.0, 15.0);
}

TEST(Su2Exact, WeakCouplingLeadingOrder) {
  const auto w = exact::plaquette_weak_coupling_4d(8.0);
  EXPECT_DOUBLE_EQ(w.value, 1.0 - 3.0 / 32.0);
  EXPECT_EQ(w.order, 1);
  EXPECT_DOUBLE_EQ(w.truncation_error, 0.4 / 64.0);
  // The truncation estimate covers the two-loop term quoted in the literature (c2 ~ 0.151).
  EXPECT_GT(w.truncation_error, 0.151 / 64.0 + 0.143 / 512.0);
}

TEST(Su2Exact, InvalidArgumentsAreRejected) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(exact::plaquette_2d(0.0), std::invalid_argument);
  EXPECT_THROW(exact::plaquette_2d(-1.0), std::invalid_argument);
  EXPECT_THROW(exact::plaquette_2d(nan), std::invalid_argument);
  EXPECT_THROW(exact::plaquette_2d_torus(1.0, 0), std::invalid_argument);
  EXPECT_THROW(exact::plaquette_strong_coupling(5, 0.3), std::invalid_argument);
  EXPECT_THROW(exact::plaquette_strong_coupling(1, 0.3), std::invalid_argument);
  EXPECT_THROW(exact::plaquette_weak_coupling_4d(-8.0), std::invalid_argument);
  EXPECT_THROW(exact::plaquette_2d(1e4), std::domain_error);  // I_n overflows
}

}  // namespace

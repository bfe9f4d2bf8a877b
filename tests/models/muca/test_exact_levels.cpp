// Exact level counts of every Hamiltonian (issue #26's yardstick): enumeration and transfer
// matrix must agree, reproduce the 2D Ising counts of ising_exact.hpp and the Potts q = 2 <->
// Ising mapping, count hand-countable low-energy states, and give the exact infinite-
// temperature averages.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamiltonian_cases.hpp"
#include "portamc/muca/exact_levels.hpp"
#include "portamc/muca/hamiltonian.hpp"
#include "portamc/muca/ising_exact.hpp"

namespace {

namespace ex = portamc::muca::exact;
using ex::Count;
using portamc::muca::Hamiltonian;
using portamc::muca::HamiltonianKind;

// GoogleTest cannot print 128-bit integers.
std::string text(Count c) {
  if (c == 0) return "0";
  std::string s;
  for (; c != 0; c /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(c % 10)));
  return s;
}

Count power(Count base, long long n) {
  Count p = 1;
  for (long long k = 0; k < n; ++k) p *= base;
  return p;
}

using muca_test::model;

void expect_same_levels(const ex::Levels& a, const ex::Levels& b, const std::string& what) {
  ASSERT_EQ(a.bond_min, b.bond_min) << what;
  ASSERT_EQ(a.bond_levels, b.bond_levels) << what;
  ASSERT_EQ(a.field_levels, b.field_levels) << what;
  for (std::size_t i = 0; i < a.counts.size(); ++i)
    ASSERT_EQ(text(a.counts[i]), text(b.counts[i])) << what << ", level index " << i;
}

TEST(ExactLevels, EnumerationAndTransferMatrixAgree) {
  const std::vector<Hamiltonian> cases = {
      model(HamiltonianKind::ising, 2, 4),       model(HamiltonianKind::ising, 3, 2),
      model(HamiltonianKind::potts, 2, 3, 3),    model(HamiltonianKind::potts, 2, 3, 4),
      model(HamiltonianKind::potts, 2, 2, 10),   model(HamiltonianKind::potts, 3, 2, 3),
      model(HamiltonianKind::blume_capel, 2, 3), model(HamiltonianKind::blume_capel, 3, 2),
      model(HamiltonianKind::ising, 2, 3)};
  for (const Hamiltonian& h : cases) {
    const ex::Levels counted = ex::levels_by_enumeration(h);
    EXPECT_EQ(text(counted.total()), text(power(h.site_states(), h.sites()))) << h.describe();
    expect_same_levels(counted, ex::levels_by_transfer_matrix(h), h.describe());
  }
}

TEST(ExactLevels, IsingReproducesTheTwoDimensionalReference) {
  for (int L = 3; L <= 6; ++L) {
    const ex::Levels levels = ex::levels_by_transfer_matrix(model(HamiltonianKind::ising, 2, L));
    const std::vector<Count> reference = ex::dos_counts_transfer_matrix(L);
    const int n = L * L;
    for (int k = 0; k <= n; ++k)  // E = -2N + 4k
      EXPECT_EQ(text(levels.at(-2 * n + 4 * k)), text(reference[static_cast<std::size_t>(k)]))
          << "L = " << L << ", k = " << k;
    EXPECT_EQ(text(levels.total()), text(power(2, n)));
  }
}

TEST(ExactLevels, PottsWithTwoStatesIsIsingAtHalfTheCoupling) {
  for (int dimension : {2, 3}) {
    const int L = dimension == 2 ? 4 : 2;
    const ex::Levels ising =
        ex::levels_by_transfer_matrix(model(HamiltonianKind::ising, dimension, L));
    const ex::Levels potts =
        ex::levels_by_transfer_matrix(model(HamiltonianKind::potts, dimension, L, 2));
    const int bonds = dimension * (dimension == 2 ? L * L : L * L * L);
    for (int e = -bonds; e <= bonds; ++e) {  // E_potts = (E_ising - bonds) / 2
      if ((e + bonds) % 2 != 0) {
        EXPECT_EQ(text(ising.at(e)), "0") << "odd Ising level " << e;
        continue;
      }
      EXPECT_EQ(text(potts.at((e - bonds) / 2)), text(ising.at(e)))
          << "dimension " << dimension << ", E_ising = " << e;
    }
  }
}

TEST(ExactLevels, HandCountedLowEnergyStates) {
  // Potts q = 3 on 3 x 3: q ground states at -bonds; one site differing breaks its 4 bonds,
  // N q (q - 1) ways; nothing else breaks as few as 4 (a straight wall breaks 2 L = 6).
  const ex::Levels potts = ex::levels_by_transfer_matrix(model(HamiltonianKind::potts, 2, 3, 3));
  EXPECT_EQ(text(potts.at(-18)), "3");
  EXPECT_EQ(text(potts.at(-17)), "0");
  EXPECT_EQ(text(potts.at(-14)), "54");
  // 3D Ising 2 x 2 x 2 (a site meets its 3 neighbours by 2 bonds each): 2 ground states, and
  // a single flipped spin breaks 6 of the 24 bonds (bond sum -24 + 12), 2 N ways.
  const ex::Levels cube = ex::levels_by_transfer_matrix(model(HamiltonianKind::ising, 3, 2));
  EXPECT_EQ(text(cube.at(-24)), "2");
  EXPECT_EQ(text(cube.at(-12)), "16");
  // Blume-Capel 4 x 4: no non-zero spin: one state (bond 0, field 0). All spins non-zero:
  // the Ising model's counts. Ferromagnet with one zero spin: field N - 1, four bonds lost.
  const ex::Levels bc = ex::levels_by_transfer_matrix(model(HamiltonianKind::blume_capel, 2, 4));
  const ex::Levels ising = ex::levels_by_transfer_matrix(model(HamiltonianKind::ising, 2, 4));
  EXPECT_EQ(text(bc.total()), text(power(3, 16)));
  for (int e = -32; e <= 32; ++e) {
    EXPECT_EQ(text(bc.at(e, 0)), e == 0 ? "1" : "0") << e;
    EXPECT_EQ(text(bc.at(e, 16)), text(ising.at(e))) << e;
  }
  EXPECT_EQ(text(bc.at(-28, 15)), "32");
}

TEST(ExactLevels, InfiniteTemperatureAveragesAreExact) {
  // beta = 0: every configuration alike. A Potts bond is satisfied with probability 1/q, so
  // <E>/N = -d/q; a Blume-Capel spin is non-zero with probability 2/3 and <s_i s_j> = 0.
  for (int q : {2, 3, 4}) {
    const ex::LevelAverages a = ex::canonical_averages(
        ex::levels_by_transfer_matrix(model(HamiltonianKind::potts, 2, 3, q)), 0, 0);
    EXPECT_NEAR(a.energy_per_site, -2.0 / q, 1e-14) << "q = " << q;
    EXPECT_EQ(a.specific_heat_per_site, 0.0);
  }
  const ex::Levels bc = ex::levels_by_transfer_matrix(model(HamiltonianKind::blume_capel, 3, 2));
  const ex::LevelAverages a = ex::canonical_averages(bc, 0, 1.5);
  EXPECT_NEAR(a.field_per_site, 2.0 / 3.0, 1e-14);
  EXPECT_NEAR(a.energy_per_site, 1.5 * 2.0 / 3.0, 1e-14);
  // Low temperature: the ground state (Potts -d per site; Blume-Capel at D > 0 ... still
  // ferromagnetic for D < d = 2 in the ground state: -d + D per site).
  EXPECT_NEAR(ex::canonical_averages(
                  ex::levels_by_transfer_matrix(model(HamiltonianKind::potts, 2, 3, 3)), 40, 0)
                  .energy_per_site,
              -2.0, 1e-12);
  const ex::LevelAverages cold = ex::canonical_averages(
      ex::levels_by_transfer_matrix(model(HamiltonianKind::blume_capel, 2, 3)), 40, 1.0);
  EXPECT_NEAR(cold.energy_per_site, -2.0 + 1.0, 1e-12);
  EXPECT_NEAR(cold.field_per_site, 1.0, 1e-12);
}

TEST(ExactLevels, LogDensityMergesEqualEnergies) {
  const ex::Levels bc = ex::levels_by_enumeration(model(HamiltonianKind::blume_capel, 2, 3));
  for (double D : {0.0, 0.37, 1.0}) {
    const ex::LogDensity g = ex::log_density(bc, D);
    long double sum = 0;
    for (std::size_t i = 0; i < g.energy.size(); ++i) {
      if (i > 0) EXPECT_LT(g.energy[i - 1], g.energy[i]) << "D = " << D;
      sum += std::exp(static_cast<long double>(g.log_g[i]));
    }
    EXPECT_NEAR(static_cast<double>(sum / std::pow(3.0L, 9)), 1.0, 1e-13) << "D = " << D;
  }
  // D = 1: bond + field is an integer in [-18, 18 + 9], so at most 46 distinct energies.
  EXPECT_LE(ex::log_density(bc, 1.0).energy.size(), 46u);
}

TEST(ExactLevels, RefusesWhatItCannotCount) {
  EXPECT_THROW(ex::levels_by_enumeration(model(HamiltonianKind::blume_capel, 2, 5)),
               std::invalid_argument);
  try {
    ex::levels_by_transfer_matrix(model(HamiltonianKind::potts, 2, 3, 10));
    ADD_FAILURE() << "Potts q = 10 on 3 x 3 by transfer matrix should be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("potts q = 10 on the 3 x 3 square lattice"),
              std::string::npos)
        << e.what();
  }
  try {
    ex::levels_by_enumeration(model(HamiltonianKind::potts, 2, 3, 11));
    ADD_FAILURE() << "q = 11 should be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("model.q"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ex::levels_by_enumeration(model(HamiltonianKind::ising, 4, 2)),
               std::invalid_argument);
}

}  // namespace

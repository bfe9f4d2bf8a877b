// The exact references themselves: normalised laws and closed forms at zero coupling.
#include <gtest/gtest.h>

#include <cmath>

#include "portamc/cvf/exact.hpp"
#include "portamc/cvf/parameters.hpp"

namespace cvf = portamc::cvf;

TEST(CvfExact, IsolatedMoleculeAtZeroCouplingHasUniformPairs) {
  const auto law = cvf::exact::isolated_molecule(0.0);
  double total = 0;
  for (double p : law.probability) total += p;
  EXPECT_NEAR(total, 1.0, 1e-14);
  // 15 pairs, each equal with probability 1/6.
  EXPECT_NEAR(law.mean, 15.0 / 6.0, 1e-12);
  EXPECT_NEAR(law.probability[15], 6.0 / 46656.0, 1e-15);
}

TEST(CvfExact, IsolatedMoleculeOrdersAtStrongCoupling) {
  const auto law = cvf::exact::isolated_molecule(40.0);
  EXPECT_NEAR(law.probability[15], 1.0, 1e-9);
  EXPECT_NEAR(law.mean, 15.0, 1e-7);
  const auto weak = cvf::exact::isolated_molecule(-40.0);
  EXPECT_NEAR(weak.mean, 0.0, 1e-7);  // six arms can take six different states
}

TEST(CvfExact, IndependentBondProbability) {
  EXPECT_NEAR(cvf::exact::independent_bond_probability(0.0), 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(cvf::exact::independent_bond_probability(std::log(5.0)), 0.5, 1e-15);
  EXPECT_NEAR(cvf::exact::independent_bond_probability(1000.0), 1.0, 1e-15);
}

TEST(CvfParameters, TableOneInReducedUnits) {
  const cvf::ModelParameters m;
  EXPECT_NO_THROW(cvf::validate(m));
  const auto r = cvf::reduce(m, {300.0, 0.1});
  EXPECT_NEAR(r.t, 8.314462618 * 300 / 5500, 1e-15);
  // v0 = (2.9 A)^3 N_A = 14.687 cm^3/mol; 0.1 MPa * 14.687 cm^3/mol = 1.4687 J/mol.
  EXPECT_NEAR(cvf::molar_v0_cm3(m), 14.6874, 1e-3);
  EXPECT_NEAR(r.p, 0.1 * cvf::molar_v0_cm3(m) / 5500, 1e-15);
  EXPECT_NEAR(cvf::effective_coupling(m, r), 2.0 - 0.6 * r.p, 1e-15);
  // 18 cm^3/mol is 1.0008 g/cm^3.
  EXPECT_NEAR(cvf::density_g_per_cm3(m, 18.0 / cvf::molar_v0_cm3(m)), 18.01528 / 18.0, 1e-12);
  EXPECT_THROW(cvf::validate(cvf::StatePoint{0.0, 0.1}), std::invalid_argument);
  EXPECT_THROW(cvf::validate(cvf::StatePoint{-5.0, 0.1}), std::invalid_argument);
  cvf::ModelParameters bad;
  bad.J = -1;
  EXPECT_THROW(cvf::validate(bad), std::invalid_argument);
}

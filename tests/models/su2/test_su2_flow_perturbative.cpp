// E(t) of the Wilson flow at weak coupling against the leading order of lattice perturbation
// theory, on equilibrium fields from the heatbath chain (not on constructed ones).
//
// Leading order for the Wilson action and the Wilson flow on a periodic L^4 lattice: in
// Feynman gauge a gluon mode of lattice momentum p has <A A> = g0^2 / p^2 (p^2 = sum
// 4 sin^2(p_mu / 2)), the flow damps its transverse part as exp(-p^2 t) (the normalisation
// FlowTest checks on a smooth mode), and the plaquette field strength of the mode is
// p_mu A_nu - p_nu A_mu. Summing (1/4) F^a F^a over colours and polarisations,
//   <E_plaq(t)> = (N^2 - 1) (D - 1) g0^2 / (2 V) sum_{p != 0} exp(-2 p^2 t),   g0^2 = 4 / beta,
// whose continuum limit is Lüscher's 3 (N^2 - 1) g0^2 / (128 pi^2 t^2); at t = 0 it is the
// weak-coupling plaquette 1 - <P> = 3 / (4 beta).
//
// Corrections, and how the test handles them:
// - O(g0^2) relative (next order): the ratio R = <E> / E_LO is measured at beta and 4 beta
//   and extrapolated linearly in g0^2, R_0 = (4 R(4 beta) - R(beta)) / 3, which must be 1.
//   An O(g0^4) term of natural size leaves less than 1e-3 at these couplings.
// - The p = 0 modes, which the sum leaves out: on a torus they are not Gaussian (the
//   constant abelian "torons" cost no action at this order), and between none and all of
//   them act like one more mode, so they shift <E> by at most the p = 0 term of the sum,
//   (N^2 - 1)(D - 1) g0^2 / (2 V). That bound (0.1 % of E_LO at t = 0.1, 0.5 % at t = 0.25
//   on 8^4) is added to the tolerance.
// - Statistics: the errors are binned errors of the series over the chain (tau_int
//   included), and the tolerance is 4 standard deviations of R_0.
// A wrong normalisation of t or of E, or a flow that is not the gradient of the Wilson action,
// moves R_0 by far more than that (a factor 2 in t changes E_LO by 40 % at t = 0.25).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/series_analysis.hpp"
#include "portamc/su2/flow.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
namespace stats = portamc::stats;
using Space = TestSpace;

constexpr int kL = 8;
constexpr double kPi = 3.14159265358979323846;
constexpr std::array<double, 2> kFlowTimes = {0.1, 0.25};
constexpr double kEpsilon = 0.05;

/// The sum over p != 0 of exp(-2 p^2 t) on the L^4 lattice, over the volume (the sum over
/// all p factorises into one sum per direction).
double mode_sum(int L, double t) {
  double one_direction = 0;
  for (int k = 0; k < L; ++k)
    one_direction += std::exp(-8 * t * std::pow(std::sin(kPi * k / L), 2));
  return (std::pow(one_direction, 4) - 1) / std::pow(L, 4);
}

/// The same sum for `steps` Runge-Kutta steps of size epsilon instead of the exact flow to
/// t = steps epsilon: on a linear mode every third-order three-stage scheme, Lüscher's
/// included, multiplies the amplitude by the cubic Taylor polynomial of exp(-epsilon p^2)
/// per step. At epsilon = 0.05 this is 0.6 % below mode_sum at t = 0.1 and 0.5 % below at
/// t = 0.25 (the highest modes have epsilon p^2 up to 0.8), more than the statistics resolve.
double integrator_mode_sum(int L, int steps, double epsilon) {
  std::vector<double> p2(static_cast<std::size_t>(L));
  for (int k = 0; k < L; ++k) p2[k] = 4 * std::pow(std::sin(kPi * k / L), 2);
  double sum = 0;
  for (int a = 0; a < L; ++a)
    for (int b = 0; b < L; ++b)
      for (int c = 0; c < L; ++c)
        for (int d = 0; d < L; ++d) {
          if (a + b + c + d == 0) continue;
          const double z = -epsilon * (p2[a] + p2[b] + p2[c] + p2[d]);
          sum += std::pow(1 + z + z * z / 2 + z * z * z / 6, 2 * steps);
        }
  return sum / std::pow(L, 4);
}

/// (N^2 - 1)(D - 1) g0^2 / 2 for SU(2) in 4D: 9 g0^2 / 2 = 18 / beta.
double prefactor(double beta) {
  return 18.0 / beta;
}

struct Ratio {
  double value, error;
};

/// <E_plaq(t)> / E_LO(t) at each of kFlowTimes, from `configurations` fields of the heatbath
/// chain at `beta`, two updates apart.
std::array<Ratio, 2> measure_ratios(double beta, std::uint64_t seed, int configurations) {
  GaugeField<Space, double> field(Space(), {kL, kL, kL, kL});  // cold: already near the vacuum
  UpdateParameters up;
  up.beta = beta;
  up.seed = seed;
  up.heatbath_sweeps = 1;
  up.overrelaxation_sweeps = 2;
  Updater<Space, double> updater(Space(), up);
  // The slowest mode (the smallest p^2 = 4 sin^2(pi / 8) = 0.59) relaxes within a few
  // heatbath sweeps; 40 updates leave no trace of the cold start at this precision.
  for (int i = 0; i < 40; ++i) updater.update(field);
  std::array<std::vector<double>, 2> series;
  for (int k = 0; k < configurations; ++k) {
    updater.update(field);
    updater.update(field);
    WilsonFlow<Space, double> flow(Space(), field);
    for (std::size_t i = 0; i < kFlowTimes.size(); ++i) {
      flow.flow_to(kFlowTimes[i], kEpsilon);
      series[i].push_back(flow.measure().energy_plaquette);
    }
  }
  stats::SeriesRules rules;
  rules.detect_equilibration = false;
  std::array<Ratio, 2> ratios;
  for (std::size_t i = 0; i < kFlowTimes.size(); ++i) {
    const int steps = static_cast<int>(std::lround(kFlowTimes[i] / kEpsilon));
    const double lo = prefactor(beta) * integrator_mode_sum(kL, steps, kEpsilon);
    const stats::SeriesAnalysis a = stats::analyse_series(series[i], rules);
    ratios[i] = {a.mean.value / lo, a.mean.error / lo};
  }
  return ratios;
}

TEST(FlowPerturbative, LeadingOrderSumHasLuschersContinuumLimit) {
  // t^2 E_LO / (3 (N^2 - 1) g0^2 / (128 pi^2)) = 1 + c a^2 / t + O(a^4 / t^2) for
  // 1 << t << L^2 / 8 (at beta = 4, g0 = 1): the lattice momenta p^2 < p_continuum^2 let
  // modes decay more slowly. The tree-level coefficient of this action, flow and observable
  // is c = 1/8; on 256^4 the box is invisible up to t = 32.
  const auto ratio = [](double t) {
    return t * t * prefactor(4.0) * mode_sum(256, t) / (9 / (128 * kPi * kPi));
  };
  for (double t : {4.0, 8.0, 16.0}) {
    SCOPED_TRACE(testing::Message() << "t = " << t << ": ratio " << ratio(t));
    EXPECT_NEAR(t * (ratio(t) - 1), 0.125, 0.008);
  }
  // At t = 0: 1 - <P> = 3 / (4 beta), i.e. E_plaq = 24 (1 - <P>) = 18 / beta per site, less
  // the p = 0 mode's share 1 / V.
  EXPECT_NEAR(prefactor(4.0) * mode_sum(8, 0.0), 18.0 / 4.0 * (1 - 1.0 / 4096), 1e-12);
}

TEST(FlowPerturbative, WeakCouplingEnergyMatchesTheLeadingOrder) {
  const double beta = 48.0;
  const auto weak = measure_ratios(beta, 11, 100);
  const auto weaker = measure_ratios(4 * beta, 12, 100);
  for (std::size_t i = 0; i < kFlowTimes.size(); ++i) {
    const double t = kFlowTimes[i];
    const double extrapolated = (4 * weaker[i].value - weak[i].value) / 3;
    const double error =
        std::sqrt(16 * weaker[i].error * weaker[i].error + weak[i].error * weak[i].error) / 3;
    const double zero_modes = 1.0 / std::pow(kL, 4) / mode_sum(kL, t);
    SCOPED_TRACE(testing::Message()
                 << "t = " << t << ": R(beta = " << beta << ") = " << weak[i].value << " +- "
                 << weak[i].error << ", R(" << 4 * beta << ") = " << weaker[i].value << " +- "
                 << weaker[i].error << ", extrapolated " << extrapolated << " +- " << error
                 << ", zero-mode bound " << zero_modes);
    RecordProperty("R_extrapolated_t" + std::to_string(i),
                   std::to_string(extrapolated) + " +- " + std::to_string(error));
    EXPECT_NEAR(extrapolated, 1.0, 4 * error + zero_modes);
    // The statistics must be able to see a next-order term of natural size (a few g0^2).
    EXPECT_LT(error, 0.01);
  }
}

}  // namespace

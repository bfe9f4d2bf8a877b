// The full MC step (volume move, eta update, sigma update) with Metropolis and with
// Swendsen-Wang samples the same NPT ensemble: the averages of N_HB, N_sigma, the volume and
// the enthalpy agree within their errors on small systems, at a weakly and a strongly bonded
// state point. The averages and errors are the app's (cvf::analyse: the statistics service's
// binned means from the equilibration start on). The chains run on TestSpace (every backend).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "portamc/cvf/run.hpp"
#include "portamc/cvf/run_output.hpp"
#include "test_space.hpp"

namespace cvf = portamc::cvf;

namespace {

struct Averages {
  cvf::Estimate hb, sigma, volume, enthalpy;
};

Averages run_chain(cvf::SigmaAlgorithm algorithm, double T, double P, std::uint64_t seed) {
  cvf::RunParameters p;
  p.L = 4;
  p.temperatures = {T};
  p.pressures = {P};
  p.algorithm = algorithm;
  p.seed = seed;
  p.thermalisation = 2000;
  p.measurements = 24000;
  p.autocorrelation_lags = 10;
  cvf::Run run(TestSpace(), p);
  while (!run.done()) run.advance();
  const cvf::PointAnalysis a = cvf::analyse(p, run.points()).front();
  // Far more effective samples than the service asks for: the errors are to be trusted.
  EXPECT_TRUE(cvf::analysis_warnings(a).empty()) << cvf::analysis_warnings(a).front();
  return {a.hydrogen_bonds, a.cooperative, a.response.volume, a.response.enthalpy};
}

void expect_agree(const cvf::Estimate& a, const cvf::Estimate& b, const char* what) {
  const double sigma = std::sqrt(a.error * a.error + b.error * b.error);
  EXPECT_LT(std::abs(a.value - b.value), 4.5 * sigma)
      << what << ": " << a.value << " +- " << a.error << " vs " << b.value << " +- " << b.error;
  EXPECT_GT(sigma, 0.0) << what;
}

TEST(CvfAlgorithms, MetropolisAndSwendsenWangAgree) {
  for (const auto& [T, P] : std::vector<std::pair<double, double>>{{450.0, 0.1}, {380.0, 200.0}}) {
    const Averages m = run_chain(cvf::SigmaAlgorithm::metropolis, T, P, 11);
    const Averages s = run_chain(cvf::SigmaAlgorithm::swendsen_wang, T, P, 12);
    SCOPED_TRACE("T = " + std::to_string(T) + " K, P = " + std::to_string(P) + " MPa");
    expect_agree(m.hb, s.hb, "N_HB / N");
    expect_agree(m.sigma, s.sigma, "N_sigma / N");
    expect_agree(m.volume, s.volume, "V / N");
    expect_agree(m.enthalpy, s.enthalpy, "H / N");
  }
}

}  // namespace

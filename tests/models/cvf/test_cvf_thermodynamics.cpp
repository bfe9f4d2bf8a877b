// Response functions from synthetic (h, v) series whose exact C_P, kappa_T and alpha_P follow
// from the chosen covariance matrix, jackknife errors over automatic and fixed bins against the
// spread over independent replicas, the equilibration start shared by all series, the means
// through the statistics service, and the unit conversions against hand calculations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "portamc/cvf/parameters.hpp"
#include "portamc/cvf/thermodynamics.hpp"
#include "portamc/rng.hpp"
#include "portamc/series_analysis.hpp"
#include "portamc/statistics.hpp"

namespace cvf = portamc::cvf;
namespace rng = portamc::rng;

namespace {

// A water-like state point in reduced units (300 K: t = 0.4535) for N molecules.
struct Model {
  std::int64_t molecules = 4096;
  double t = 0.45;
  double mean_h = -1.5;
  double mean_v = 1.2;
  double cp = 9.0;      // k_B per molecule
  double kappa = 0.17;  // v0 / epsilon
  double r = -0.3;      // correlation coefficient of h and v
  double sigma_h() const { return std::sqrt(cp * t * t / molecules); }
  double sigma_v() const { return std::sqrt(kappa * t * mean_v / molecules); }
  double alpha() const { return molecules * r * sigma_h() * sigma_v() / (t * t * mean_v); }
};

struct Series {
  std::vector<double> h, v;
};

// Gaussian (h, v) with the model's covariance matrix; a = 0 gives independent samples, a > 0
// an AR(1) process x_{k+1} = a x_k + sqrt(1 - a^2) g_k per component with the same stationary
// law (started in it, so there is nothing to equilibrate).
Series gaussian_series(const Model& m, std::uint64_t replica, std::size_t samples, double a = 0) {
  Series s{std::vector<double>(samples), std::vector<double>(samples)};
  const double kick = std::sqrt(1 - a * a);
  double x = 0, y = 0;
  for (std::size_t k = 0; k < samples; ++k) {
    const auto g = rng::normal_pair(rng::draw(2024, rng::purpose_test, replica, k));
    x = k == 0 ? g.first : a * x + kick * g.first;
    y = k == 0 ? g.second : a * y + kick * g.second;
    s.h[k] = m.mean_h + m.sigma_h() * x;
    s.v[k] = m.mean_v + m.sigma_v() * (m.r * x + std::sqrt(1 - m.r * m.r) * y);
  }
  return s;
}

double mean_of(const std::vector<double>& x) {
  double sum = 0;
  for (double value : x) sum += value;
  return sum / static_cast<double>(x.size());
}

double std_dev(const std::vector<double>& x) {
  const double mean = mean_of(x);
  double sum = 0;
  for (double value : x) sum += (value - mean) * (value - mean);
  return std::sqrt(sum / static_cast<double>(x.size() - 1));
}

void expect_within(const cvf::Estimate& e, double exact, double sigmas = 5.0) {
  EXPECT_TRUE(std::isfinite(e.error) && e.error > 0) << e.error;
  EXPECT_NEAR(e.value, exact, sigmas * e.error);
}

cvf::ResponseOptions with_blocks(std::size_t blocks, std::size_t start = 0) {
  cvf::ResponseOptions o;
  o.start = start;
  o.blocks = blocks;
  return o;
}

}  // namespace

TEST(CvfThermodynamics, IndependentGaussianSeriesGiveExactResponseFunctions) {
  const Model m;
  const cvf::ModelParameters parameters;
  const std::size_t samples = 200000;
  const Series s = gaussian_series(m, 0, samples);
  const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, parameters, with_blocks(100));

  EXPECT_EQ(r.samples, samples);
  EXPECT_EQ(r.start, 0u);
  EXPECT_EQ(r.used, samples);
  EXPECT_EQ(r.blocking.blocks, 100u);
  EXPECT_EQ(r.blocking.block_size, 2000u);
  EXPECT_FALSE(r.blocking.automatic);
  expect_within(r.volume, m.mean_v);
  expect_within(r.enthalpy, m.mean_h);
  expect_within(r.heat_capacity, m.cp);
  expect_within(r.compressibility, m.kappa);
  expect_within(r.expansivity, m.alpha());
  // <rho_k> = rho(<v>) (1 + Var(v)/<v>^2 + ...): the correction is far below the error here.
  expect_within(r.density_g_per_cm3, cvf::density_g_per_cm3(parameters, m.mean_v));

  // Errors against the closed forms for independent Gaussian samples. The jackknife over
  // B = 100 bins scatters by 1/sqrt(2 (B - 1)) = 7%, the service's binned means (bins of 10,
  // 20000 of them) by far less; 5 of those bound the ratio.
  const double n = static_cast<double>(samples);
  const double cov = m.r * m.sigma_h() * m.sigma_v();
  const double sample_cov_error =
      std::sqrt((m.sigma_h() * m.sigma_h() * m.sigma_v() * m.sigma_v() + cov * cov) / n);
  const double expected[][2] = {
      {r.volume.error, m.sigma_v() / std::sqrt(n)},
      {r.enthalpy.error, m.sigma_h() / std::sqrt(n)},
      {r.heat_capacity.error, m.cp * std::sqrt(2 / n)},
      {r.compressibility.error, m.kappa * std::sqrt(2 / n)},
      {r.expansivity.error, m.molecules * sample_cov_error / (m.t * m.t * m.mean_v)},
  };
  for (const auto& pair : expected) {
    EXPECT_NEAR(pair[0] / pair[1], 1.0, 0.35) << pair[0] << " vs " << pair[1];
  }

  // Independent samples: tau_int = 1/2 within its error, bins far longer than 20 tau_int.
  EXPECT_NEAR(r.enthalpy_tau.tau_int, 0.5, 5 * r.enthalpy_tau.tau_error + 1e-3);
  EXPECT_NEAR(r.volume_tau.tau_int, 0.5, 5 * r.volume_tau.tau_error + 1e-3);
  EXPECT_TRUE(r.reliable()) << r.heat_capacity.warning;
  // Means carry tau_int and N_eff in measurements, the jackknife estimates in bins.
  EXPECT_FALSE(r.volume.jackknife);
  EXPECT_NEAR(r.volume.effective_samples, n / (2 * r.volume.tau_int), 1e-6 * n);
  EXPECT_TRUE(r.heat_capacity.jackknife);
  EXPECT_EQ(r.heat_capacity.bins, 100u);
  EXPECT_NEAR(r.heat_capacity.effective_samples, 100 / (2 * r.heat_capacity.tau_int), 1e-9);
  EXPECT_GT(r.heat_capacity.effective_samples, 25.0);  // independent bins: about 100
}

TEST(CvfThermodynamics, AutomaticBinsFollowTauInt) {
  const Model m;
  const Series s = gaussian_series(m, 4, 20000, 0.9);  // tau_int = 9.5
  const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, {});
  EXPECT_TRUE(r.blocking.automatic);
  const auto choice = portamc::stats::choose_bins(20000, r.tau_max);
  EXPECT_EQ(r.blocking.block_size, choice.bin_size);
  EXPECT_EQ(r.blocking.blocks, choice.bins);
  EXPECT_GE(static_cast<double>(r.blocking.block_size), 20 * r.tau_max);
  EXPECT_NEAR(r.tau_max, 9.5, 2.0);
  EXPECT_EQ(r.tau_max, std::max(r.enthalpy_tau.tau_int, r.volume_tau.tau_int));
  EXPECT_TRUE(r.reliable());
  // A trailing partial bin is dropped: the jackknife sees blocks * block_size samples.
  const std::size_t window = r.blocking.blocks * r.blocking.block_size;
  EXPECT_LE(window, 20000u);
  EXPECT_GT(window + r.blocking.block_size, 20000u);
}

TEST(CvfThermodynamics, JackknifeErrorsMatchTheSpreadOverReplicas) {
  const Model m;
  const cvf::ModelParameters parameters;
  const std::size_t replicas = 400, samples = 2000;
  std::vector<double> cp, kappa, alpha, volume;
  double cp_error = 0, kappa_error = 0, alpha_error = 0, volume_error = 0;
  for (std::size_t k = 0; k < replicas; ++k) {
    const Series s = gaussian_series(m, 100 + k, samples);
    const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, parameters);
    cp.push_back(r.heat_capacity.value);
    kappa.push_back(r.compressibility.value);
    alpha.push_back(r.expansivity.value);
    volume.push_back(r.volume.value);
    cp_error += r.heat_capacity.error / replicas;
    kappa_error += r.compressibility.error / replicas;
    alpha_error += r.expansivity.error / replicas;
    volume_error += r.volume.error / replicas;
  }
  // The replica standard deviation is known to 1/sqrt(2 R) = 3.5%; the mean error to < 1%.
  // 5 sigma of the ratio: 0.18.
  const double tolerance = 5 / std::sqrt(2.0 * replicas) + 0.01;
  EXPECT_NEAR(std_dev(cp) / cp_error, 1.0, tolerance);
  EXPECT_NEAR(std_dev(kappa) / kappa_error, 1.0, tolerance);
  EXPECT_NEAR(std_dev(alpha) / alpha_error, 1.0, tolerance);
  EXPECT_NEAR(std_dev(volume) / volume_error, 1.0, tolerance);
  // And no bias: the replica means agree with the exact values to their standard error.
  const double sqrt_r = std::sqrt(static_cast<double>(replicas));
  EXPECT_NEAR(mean_of(cp), m.cp, 5 * std_dev(cp) / sqrt_r);
  EXPECT_NEAR(mean_of(kappa), m.kappa, 5 * std_dev(kappa) / sqrt_r);
  EXPECT_NEAR(mean_of(alpha), m.alpha(), 5 * std_dev(alpha) / sqrt_r);
}

TEST(CvfThermodynamics, CorrelatedSeriesKeepHonestErrors) {
  const Model m;
  const cvf::ModelParameters parameters;
  const double a = 0.9;  // tau_int = (1 + a) / (2 (1 - a)) = 9.5 samples
  const std::size_t replicas = 200, samples = 20000;  // automatic bins of ~190 = 20 tau_int
  std::vector<double> cp, volume;
  double cp_error = 0, volume_error = 0, tau_h = 0;
  for (std::size_t k = 0; k < replicas; ++k) {
    const Series s = gaussian_series(m, 1000 + k, samples, a);
    const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, parameters);
    EXPECT_TRUE(r.reliable()) << "replica " << k << ": " << r.heat_capacity.warning;
    cp.push_back(r.heat_capacity.value);
    volume.push_back(r.volume.value);
    cp_error += r.heat_capacity.error / replicas;
    volume_error += r.volume.error / replicas;
    tau_h += r.enthalpy_tau.tau_int / replicas;
  }
  EXPECT_NEAR(tau_h, 9.5, 0.5);
  // Bins of 20 tau_int leave the error low by a few per cent at most (series_analysis.hpp); the
  // ratio is known to 5/sqrt(2 R) = 0.25.
  const double tolerance = 5 / std::sqrt(2.0 * replicas) + 0.05;
  EXPECT_NEAR(std_dev(cp) / cp_error, 1.0, tolerance);
  EXPECT_NEAR(std_dev(volume) / volume_error, 1.0, tolerance);
  // A naive i.i.d. error would be sqrt(2 tau_int) = 4.4 times too small; check that the
  // correlated error really is that much larger than the one of an uncorrelated series.
  const Series iid = gaussian_series(m, 7, samples);
  const auto r_iid = cvf::response_functions(iid.h, iid.v, m.molecules, m.t, parameters);
  EXPECT_GT(volume_error / r_iid.volume.error, 3.0);
  // Bias of the sample variance of an AR(1) series: about 2 tau_int / samples relative.
  const double bias = 2 * 9.5 / samples * m.cp;
  EXPECT_NEAR(mean_of(cp), m.cp, 5 * std_dev(cp) / std::sqrt(double(replicas)) + bias);
}

TEST(CvfThermodynamics, ShortSeriesAndShortBinsAreFlagged) {
  const Model m;
  const Series s = gaussian_series(m, 3, 4000, 0.99);  // tau_int ~ 100: N_eff ~ 20
  const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, {});
  EXPECT_FALSE(r.reliable());
  EXPECT_FALSE(r.heat_capacity.reliable);
  EXPECT_NE(r.heat_capacity.warning.find("effective samples"), std::string::npos)
      << r.heat_capacity.warning;
  EXPECT_FALSE(r.volume.reliable);
  EXPECT_NE(r.volume.warning.find("effective samples"), std::string::npos) << r.volume.warning;
  // Long enough series, but 200 fixed bins of 20 samples against tau_int ~ 9.5: too short.
  const Series t = gaussian_series(m, 6, 4000, 0.9);
  const auto f = cvf::response_functions(t.h, t.v, m.molecules, m.t, {}, with_blocks(200));
  EXPECT_FALSE(f.blocking.long_enough);
  EXPECT_FALSE(f.expansivity.reliable);
  EXPECT_NE(f.expansivity.warning.find("(analysis.blocks)"), std::string::npos)
      << f.expansivity.warning;
  EXPECT_TRUE(f.volume.reliable) << f.volume.warning;  // means keep the service's own bins
}

TEST(CvfThermodynamics, OneEquilibrationStartForEverySeries) {
  // h stationary; v relaxes from far away over its first 1000 samples.
  const Model m;
  Series s = gaussian_series(m, 8, 8000);
  for (std::size_t k = 0; k < 1000; ++k)
    s.v[k] += 200 * m.sigma_v() * std::exp(-static_cast<double>(k) / 150.0);
  const auto e = cvf::equilibration_point(s.h, s.v);
  EXPECT_EQ(e.measurements, 8000u);
  EXPECT_EQ(e.enthalpy_discarded, 0u);
  EXPECT_GE(e.volume_discarded, 500u);
  EXPECT_LE(e.volume_discarded, 4000u);  // never more than half
  EXPECT_EQ(e.discarded, std::max(e.enthalpy_discarded, e.volume_discarded));
  EXPECT_EQ(e.used, 8000u - e.discarded);
  // From there the volume is the exact one again, while the whole series is biased.
  cvf::ResponseOptions from;
  from.start = e.discarded;
  const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, {}, from);
  EXPECT_EQ(r.used, e.used);
  expect_within(r.volume, m.mean_v);
  expect_within(r.compressibility, m.kappa);
  // The whole series reads the transient as slow correlation.
  const auto whole = cvf::response_functions(s.h, s.v, m.molecules, m.t, {});
  EXPECT_GT(whole.volume_tau.tau_int, 10 * r.volume_tau.tau_int);
  // Every other series is analysed from the same start.
  const auto mean = cvf::series_mean(s.h, e.discarded);
  const auto service = portamc::stats::analyse_series_from(s.h, e.discarded);
  EXPECT_EQ(mean.value, service.mean.value);
  EXPECT_EQ(mean.error, service.mean.error);
  EXPECT_EQ(mean.tau_int, service.tau.tau_int);
  EXPECT_EQ(mean.effective_samples, service.effective_samples);
  EXPECT_EQ(mean.bin_size, service.bins.bin_size);
  EXPECT_EQ(mean.reliable, service.reliable);
  EXPECT_EQ(mean.warning, service.warning);
}

TEST(CvfThermodynamics, BlockingRules) {
  const auto automatic = cvf::blocking_for(10, 5000, 12.3);
  const auto choice = portamc::stats::choose_bins(5000, 12.3);
  EXPECT_TRUE(automatic.automatic);
  EXPECT_EQ(automatic.start, 10u);
  EXPECT_EQ(automatic.blocks, choice.bins);
  EXPECT_EQ(automatic.block_size, choice.bin_size);
  EXPECT_EQ(automatic.long_enough, choice.long_enough);
  const auto fixed = cvf::blocking_for(0, 5000, 12.3, 20);
  EXPECT_FALSE(fixed.automatic);
  EXPECT_EQ(fixed.blocks, 20u);
  EXPECT_EQ(fixed.block_size, 250u);
  EXPECT_TRUE(fixed.long_enough);                                  // 250 >= ceil(20 * 12.3) = 246
  EXPECT_FALSE(cvf::blocking_for(0, 5000, 12.6, 20).long_enough);  // 250 < 252
}

TEST(CvfThermodynamics, UnitConversionsMatchHandCalculation) {
  const cvf::ModelParameters p;
  // v0 = (2.9e-8 cm)^3 * 6.02214076e23 / mol = 14.687399 cm^3/mol; epsilon = 5500 J/mol.
  // kappa: 14.687399e-6 m^3/mol / 5500 J/mol = 2.670436e-9 1/Pa = 2.670436 1/GPa, so the
  // water-like 0.45 1/GPa is 0.1685118 v0/epsilon.
  EXPECT_NEAR(cvf::compressibility_per_gpa(p, 1.0), 2.670436, 1e-6);
  EXPECT_NEAR(cvf::compressibility_per_gpa(p, 0.1685118), 0.45, 1e-6);
  // alpha: temperature unit epsilon / R = 661.50 K, so 1 k_B/epsilon = 1.5117205e-3 1/K and
  // water's 2.57e-4 1/K is 0.170005 k_B/epsilon.
  EXPECT_NEAR(cvf::expansivity_per_kelvin(p, 1.0), 1.5117205e-3, 1e-10);
  EXPECT_NEAR(cvf::expansivity_per_kelvin(p, 0.170005), 2.57e-4, 1e-9);
  // C_P: 75.3 J/(mol K) of liquid water is 9.0565 k_B per molecule.
  EXPECT_NEAR(cvf::heat_capacity_j_per_mol_k(9.056508), 75.3, 1e-4);

  // The struct carries the same factors, on values and errors.
  const Model m;
  const Series s = gaussian_series(m, 5, 5000);
  const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, p);
  EXPECT_DOUBLE_EQ(r.heat_capacity_j_per_mol_k.value, r.heat_capacity.value * 8.314462618);
  EXPECT_DOUBLE_EQ(r.heat_capacity_j_per_mol_k.error, r.heat_capacity.error * 8.314462618);
  EXPECT_EQ(r.heat_capacity_j_per_mol_k.tau_int, r.heat_capacity.tau_int);
  EXPECT_NEAR(r.compressibility_per_gpa.value / r.compressibility.value, 2.670436, 1e-6);
  EXPECT_NEAR(r.compressibility_per_gpa.error / r.compressibility.error, 2.670436, 1e-6);
  EXPECT_NEAR(r.expansivity_per_kelvin.value / r.expansivity.value, 1.5117205e-3, 1e-10);
  EXPECT_NEAR(r.expansivity_per_kelvin.error / r.expansivity.error, 1.5117205e-3, 1e-10);
  EXPECT_DOUBLE_EQ(r.enthalpy_kj_per_mol.value, r.enthalpy.value * 5.5);
  EXPECT_DOUBLE_EQ(r.enthalpy_kj_per_mol.error, r.enthalpy.error * 5.5);
  // 1 g/cm^3 is v = 18.01528 / 14.687399 = 1.226581 v0.
  EXPECT_NEAR(cvf::density_g_per_cm3(p, 1.226581), 1.0, 1e-6);
}

TEST(CvfThermodynamics, TinyFluctuationsOfALargeSystemKeepTheirPrecision) {
  // N = 1e10: Var(h) ~ 1e-11 against <h>^2 ~ 4, where sum(h^2) - n <h>^2 would lose all digits.
  Model m;
  m.molecules = 10000000000LL;
  const Series s = gaussian_series(m, 11, 10000);
  const auto r = cvf::response_functions(s.h, s.v, m.molecules, m.t, {}, with_blocks(100));
  // Two-pass reference for the same samples (100 bins of 100 cover all of them).
  const double mh = mean_of(s.h);
  double var = 0;
  for (double h : s.h) var += (h - mh) * (h - mh);
  var /= static_cast<double>(s.h.size() - 1);
  EXPECT_NEAR(r.heat_capacity.value, m.molecules * var / (m.t * m.t), 1e-9 * m.cp);
  expect_within(r.heat_capacity, m.cp);
}

TEST(CvfThermodynamics, ConstantSeriesGiveZeroResponse) {
  const std::vector<double> h(100, -1.7), v(100, 1.1);
  const auto r = cvf::response_functions(h, v, 1000, 0.5, {});
  EXPECT_EQ(r.heat_capacity.value, 0.0);
  EXPECT_EQ(r.heat_capacity.error, 0.0);
  EXPECT_EQ(r.compressibility.value, 0.0);
  EXPECT_EQ(r.expansivity.value, 0.0);
  EXPECT_DOUBLE_EQ(r.volume.value, 1.1);
  EXPECT_EQ(r.volume.error, 0.0);
  EXPECT_DOUBLE_EQ(r.enthalpy.value, -1.7);
  const auto e = cvf::equilibration_point(h, v);
  EXPECT_EQ(e.discarded, 0u);
}

TEST(CvfThermodynamics, InvalidSeriesAreRejectedWithAClearMessage) {
  const std::vector<double> h(100, -1.0), v(100, 1.2), shorter(99, 1.2), few(10, 1.2);
  const cvf::ModelParameters p;
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(message([&] { cvf::response_functions(h, shorter, 10, 0.5, p); }).find("99"),
            std::string::npos);
  EXPECT_NE(message([&] {
              cvf::response_functions(few, few, 10, 0.5, p, with_blocks(20));
            }).find("20 jackknife blocks"),
            std::string::npos);
  EXPECT_NE(message([&] {
              cvf::response_functions(h, v, 10, 0.5, p, with_blocks(0, 99));
            }).find("fewer than 2 remain"),
            std::string::npos);
  std::vector<double> bad = v;
  bad[42] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message([&] { cvf::response_functions(h, bad, 10, 0.5, p); }).find("index 42"),
            std::string::npos);
  bad[42] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(cvf::response_functions(bad, v, 10, 0.5, p), std::invalid_argument);
  EXPECT_THROW(cvf::response_functions(h, v, 10, 0.5, p, with_blocks(1)), std::invalid_argument);
  EXPECT_THROW(cvf::response_functions(h, v, 0, 0.5, p), std::invalid_argument);
  EXPECT_THROW(cvf::response_functions(h, v, 10, 0.0, p), std::invalid_argument);
  EXPECT_THROW(cvf::response_functions(h, std::vector<double>(100, -1.0), 10, 0.5, p),
               std::invalid_argument);  // negative volume
  EXPECT_THROW(cvf::series_mean(few, 9), std::invalid_argument);
  EXPECT_THROW(cvf::series_mean(bad), std::invalid_argument);
  EXPECT_THROW(cvf::equilibration_point(h, shorter), std::invalid_argument);
  EXPECT_THROW(cvf::equilibration_point(h, bad), std::invalid_argument);
}

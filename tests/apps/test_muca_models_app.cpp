// End-to-end: portamc-muca on the models of the generic engine (Potts, 3D Ising, Blume-Capel),
// from YAML to HDF5, against exact counts of lattices small enough to count; resume and
// refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "../common/app_test.hpp"
#include "portamc/hdf5_file.hpp"
#include "portamc/muca/ising_exact.hpp"

namespace {

namespace fs = std::filesystem;

class MucaModelsApp : public portamc::testing::AppTest {
 protected:
  MucaModelsApp() : AppTest(PORTAMC_MUCA_APP, "muca_models") {}

  // Runs `input` and checks ln g(E) and U/N, C/N against the exact values the file holds:
  // every bin the exact counts call empty is never visited, every other one is, and the
  // deviations are within 5 of the run's own errors (jackknife over 16 walker groups).
  void expect_exact(const std::string& name, const std::string& yaml) {
    const auto input = write_input(name + ".yaml", yaml);
    const auto output = (dir_ / (name + ".h5")).string();
    ASSERT_EQ(run(input + " -o " + output), 0) << log();
    EXPECT_EQ(log().find("NOT converged"), std::string::npos) << log();
    portamc::h5::InputFile f(output);
    EXPECT_EQ(f.attribute_string("/muca", "engine"), "generic_spin");
    EXPECT_EQ(f.attribute_string("/muca/production", "error_method"), "walker_groups");
    const auto log_g = f.read<double>("/muca/dos/log_g");
    const auto error = f.read<double>("/muca/dos/log_g_error");
    const auto exact = f.read<double>("/muca/dos/log_g_exact");
    ASSERT_EQ(log_g.size(), exact.size());
    int compared = 0;
    for (std::size_t k = 0; k < exact.size(); ++k) {
      if (!std::isfinite(exact[k])) {
        EXPECT_FALSE(std::isfinite(log_g[k])) << "bin " << k << " has no state but was visited";
        continue;
      }
      ASSERT_TRUE(std::isfinite(log_g[k])) << "accessible bin " << k << " never visited";
      ASSERT_GT(error[k], 0) << k;
      EXPECT_LT(std::fabs(log_g[k] - exact[k]), 5 * error[k])
          << "bin " << k << ": " << log_g[k] << " +- " << error[k] << " vs " << exact[k];
      ++compared;
    }
    EXPECT_GE(compared, 9);
    for (const std::string q : {"energy", "specific_heat"}) {
      const auto v = f.read<double>("/muca/canonical/" + q);
      const auto e = f.read<double>("/muca/canonical/" + q + "_error");
      const auto x = f.read<double>("/muca/canonical/" + q + "_exact");
      for (std::size_t i = 0; i < v.size(); ++i)
        EXPECT_LT(std::fabs(v[i] - x[i]), 5 * e[i]) << q << " at beta index " << i;
    }
  }
};

const char* potts3 =
    "model: {hamiltonian: potts, q: 3, L: 3, walkers: 64, seed: 5}\n"
    "iteration: {kl_threshold: 0.01}\n"
    "production: {blocks: 6, updates_per_block: 4000, walker_groups: 16}\n"
    "analysis: {beta_min: 0.2, beta_max: 1.5, beta_points: 5}\n";

TEST_F(MucaModelsApp, PottsMatchesItsExactCounts) {
  expect_exact("potts3", potts3);
  portamc::h5::InputFile f((dir_ / "potts3.h5").string());
  EXPECT_EQ(f.attribute_string("/muca", "hamiltonian"), "potts");
  EXPECT_EQ(f.attribute_int("/muca", "q"), 3);
  // 2D Potts: bins of 1, 2, 3 and 5 unsatisfied bonds hold no state.
  const auto exact = f.read<double>("/muca/dos/log_g_exact");
  for (int k : {1, 2, 3, 5}) EXPECT_FALSE(std::isfinite(exact[k])) << k;
  // ln g is normalised to all 3^9 configurations.
  const auto log_g = f.read<double>("/muca/dos/log_g");
  double sum = 0;
  for (double v : log_g)
    if (std::isfinite(v)) sum += std::exp(v);
  EXPECT_NEAR(std::log(sum), 9 * std::log(3.0), 1e-9);
  EXPECT_NE(log().find("against exact counts"), std::string::npos) << log();
}

// Potts q = 2 is the Ising model at half the coupling: E_Potts = (E_Ising - 2N) / 2, so
// U_Potts(beta) / N = (U_Ising(beta / 2) / N - 2) / 2 and C_Potts(beta) = C_Ising(beta / 2), with
// the Ising values from Ferdinand and Fisher's closed form for the 4 x 4 torus.
TEST_F(MucaModelsApp, PottsWithTwoStatesIsTheIsingModel) {
  const auto input = write_input("potts2.yaml",
                                 "model: {hamiltonian: potts, q: 2, L: 4, walkers: 64, seed: 9}\n"
                                 "iteration: {kl_threshold: 0.01}\n"
                                 "production: {blocks: 6, updates_per_block: 4000, "
                                 "walker_groups: 16}\n"
                                 "analysis: {beta_min: 0.4, beta_max: 1.6, beta_points: 7}\n");
  const auto output = (dir_ / "potts2.h5").string();
  ASSERT_EQ(run(input + " -q -o " + output), 0) << log();
  portamc::h5::InputFile f(output);
  const auto beta = f.read<double>("/muca/canonical/beta");
  const auto u = f.read<double>("/muca/canonical/energy");
  const auto u_error = f.read<double>("/muca/canonical/energy_error");
  const auto c = f.read<double>("/muca/canonical/specific_heat");
  const auto c_error = f.read<double>("/muca/canonical/specific_heat_error");
  for (std::size_t i = 0; i < beta.size(); ++i) {
    const auto ising = portamc::muca::exact::ferdinand_fisher(4, beta[i] / 2);
    EXPECT_LT(std::fabs(u[i] - (ising.energy_per_spin - 2) / 2), 5 * u_error[i]) << beta[i];
    EXPECT_LT(std::fabs(c[i] - ising.specific_heat_per_spin), 5 * c_error[i]) << beta[i];
  }
}

// 2 x 2 x 2 is the largest 3D Ising lattice exact counts reach. Its 9 accessible bins are
// fewer than the paper's floor of 10 in d_KL, so the run compares with a flat histogram over
// its own 9 (else it could never converge).
TEST_F(MucaModelsApp, ThreeDimensionalIsingMatchesItsExactCounts) {
  expect_exact("ising3d",
               "model: {hamiltonian: ising, dimension: 3, L: 2, walkers: 64, seed: 7}\n"
               "iteration: {kl_threshold: 0.01, max_iterations: 200}\n"
               "production: {blocks: 6, updates_per_block: 4000, walker_groups: 16}\n"
               "analysis: {beta_min: 0.1, beta_max: 0.8, beta_points: 5}\n");
}

TEST_F(MucaModelsApp, ResumedRunEqualsTheUninterruptedOne) {
  const auto input = write_input("potts3.yaml", potts3);
  const auto whole = (dir_ / "whole.h5").string(), parts = (dir_ / "parts.h5").string();
  ASSERT_EQ(run(input + " -q -o " + whole), 0) << log();
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=3 -o " + parts), 3) << log();
  ASSERT_EQ(run(input + " -q --resume " + parts + ".checkpoint -o " + parts), 0) << log();
  portamc::h5::InputFile a(whole), b(parts);
  EXPECT_EQ(a.read<std::uint64_t>("/muca/production/block_histograms"),
            b.read<std::uint64_t>("/muca/production/block_histograms"));
  EXPECT_EQ(a.read<double>("/muca/weights/log_weight"), b.read<double>("/muca/weights/log_weight"));
  EXPECT_EQ(a.read<double>("/muca/order_parameter/binder"),
            b.read<double>("/muca/order_parameter/binder"));
}

const char* blume_capel =
    "model: {hamiltonian: blume_capel, beta: 0.7, L: 3, walkers: 64, seed: 5}\n"
    "iteration: {kl_threshold: 0.01}\n"
    "production: {blocks: 6, updates_per_block: 4000, walker_groups: 16}\n"
    "analysis: {crystal_field_min: -1, crystal_field_max: 3, crystal_field_points: 9}\n";

// A run at beta = 0.7 over every crystal field: ln Z_beta(n) and the density of non-zero spins
// over D against every one of the 3^9 configurations.
TEST_F(MucaModelsApp, BlumeCapelMatchesItsExactCounts) {
  const auto input = write_input("bc.yaml", blume_capel);
  const auto output = (dir_ / "bc.h5").string();
  ASSERT_EQ(run(input + " -o " + output), 0) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.attribute_string("/muca", "hamiltonian"), "blume_capel");
  EXPECT_EQ(f.attribute_double("/muca", "beta"), 0.7);
  const auto log_g = f.read<double>("/muca/dos/log_g");
  const auto error = f.read<double>("/muca/dos/log_g_error");
  const auto exact = f.read<double>("/muca/dos/log_g_exact");
  ASSERT_EQ(log_g.size(), 10u);
  ASSERT_EQ(exact.size(), 10u);
  EXPECT_EQ(log_g[0], 0.0);  // Z_beta(0) = 1: the anchor
  for (std::size_t n = 1; n < exact.size(); ++n)
    EXPECT_LT(std::fabs(log_g[n] - exact[n]), 5 * error[n]) << "n = " << n;
  const auto rho = f.read<double>("/muca/crystal_field/density");
  const auto rho_error = f.read<double>("/muca/crystal_field/density_error");
  const auto rho_exact = f.read<double>("/muca/crystal_field/density_exact");
  ASSERT_EQ(rho.size(), 9u);
  for (std::size_t i = 0; i < rho.size(); ++i)
    EXPECT_LT(std::fabs(rho[i] - rho_exact[i]), 5 * rho_error[i]) << "D index " << i;
  EXPECT_FALSE(f.exists("/muca/canonical/beta")) << "a fixed-beta run has no scan over beta";
  EXPECT_EQ(f.read<double>("/muca/order_parameter/crystal_field").size(), 9u);
  EXPECT_NE(log().find("<n>/N"), std::string::npos) << log();
}

TEST_F(MucaModelsApp, BlumeCapelResumesInsideTheProduction) {
  const auto input = write_input("bc.yaml", blume_capel);
  const auto whole = (dir_ / "whole.h5").string(), parts = (dir_ / "parts.h5").string();
  ASSERT_EQ(run(input + " -q -o " + whole), 0) << log();
  portamc::h5::InputFile a(whole);
  // Stop after the weight iteration and two production blocks.
  const auto stop = a.attribute_int("/muca", "iterations") + 2;
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=" + std::to_string(stop) + " -o " + parts),
            3)
      << log();
  ASSERT_EQ(run(input + " -q --resume " + parts + ".checkpoint -o " + parts), 0) << log();
  portamc::h5::InputFile b(parts);
  for (const char* name : {"/muca/production/block_histograms"})
    EXPECT_EQ(a.read<std::uint64_t>(name), b.read<std::uint64_t>(name)) << name;
  for (const char* name : {"/muca/dos/log_g", "/muca/crystal_field/density",
                           "/muca/order_parameter/binder", "/muca/order_parameter/susceptibility"})
    EXPECT_EQ(a.read<double>(name), b.read<double>(name)) << name;
}

TEST_F(MucaModelsApp, ACheckpointOfAnotherModelIsRefused) {
  const auto input = write_input("potts3.yaml", potts3);
  const auto stopped = (dir_ / "stopped.h5").string();
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=2 -o " + stopped), 3) << log();
  const auto output = (dir_ / "never.h5").string();
  EXPECT_EQ(run(input + " -q --set model.q=4 --resume " + stopped + ".checkpoint -o " + output), 2);
  EXPECT_NE(log().find("potts q = 3"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(MucaModelsApp, BadModelsAreRejectedBeforeAnyWork) {
  const auto output = (dir_ / "never.h5").string();
  EXPECT_EQ(run("--set model.hamiltonian=potts --set model.q=2 --set model.L=5 -o " + output), 2);
  EXPECT_NE(log().find("even"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.hamiltonian=potts --set model.q=11 -o " + output), 2);
  EXPECT_NE(log().find("model.q"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.dimension=4 -o " + output), 2);
  EXPECT_NE(log().find("model.dimension"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.hamiltonian=blume_capel -o " + output), 2);  // no model.beta
  EXPECT_NE(log().find("model.beta"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.hamiltonian=blume_capel --set model.beta=1 "
                "--set analysis.crystal_field_min=2 --set analysis.crystal_field_max=1 -o " +
                output),
            2);
  EXPECT_NE(log().find("analysis.crystal_field_max"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.L=2 -o " + output), 2);  // the 2D Ising model needs L >= 4
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(MucaModelsApp, DoublePeakAnalysisIsRecordedWhenAskedFor) {
  const auto input = write_input("potts3.yaml", potts3);
  const auto output = (dir_ / "peak.h5").string();
  ASSERT_EQ(run(input + " --set analysis.double_peak=yes -o " + output), 0) << log();
  portamc::h5::InputFile f(output);
  // 3 x 3 Potts q = 3 has no first-order transition: the analysis says so, with its reason.
  ASSERT_TRUE(f.has_attribute("/muca/first_order", "found"));
  if (f.attribute_int("/muca/first_order", "found") == 0) {
    EXPECT_FALSE(f.attribute_string("/muca/first_order", "reason").empty());
    EXPECT_NE(log().find("no double peak"), std::string::npos) << log();
  } else {
    const double beta = f.read_scalar<double>("/muca/first_order/beta_eq");
    EXPECT_GE(beta, 0.2);
    EXPECT_LE(beta, 1.5);
  }
  const auto plain = (dir_ / "plain.h5").string();
  ASSERT_EQ(run(input + " -q -o " + plain), 0) << log();
  EXPECT_FALSE(portamc::h5::InputFile(plain).exists("/muca/first_order/beta_eq"));
}

}  // namespace

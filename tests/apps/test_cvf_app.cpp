// End-to-end: portamc-cvf on tiny lattices (Metropolis and Swendsen-Wang, scans and paired
// state points), the HDF5 file it writes (the equilibration start, errors with tau_int and
// N_eff, warnings for errors that cannot be trusted, reduced units), reproducibility from the
// seed, checkpoints and bitwise resume, the shipped inputs and its error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "../common/app_test.hpp"
#include "../common/foreign_checkpoint.hpp"
#include "../common/h5_datasets.hpp"
#include "../common/resume_refusals.hpp"
#include "portamc/cvf/checkpoint.hpp"
#include "portamc/hdf5_file.hpp"

namespace {

namespace fs = std::filesystem;

class CvfApp : public portamc::testing::AppTest {
 protected:
  CvfApp() : AppTest(PORTAMC_CVF_APP, "cvf") {}
};

const char* tiny =
    "lattice: {L: 8}\n"
    "state: {temperatures: [400, 350], pressures: [0.1]}\n"
    "run: {seed: 7, thermalisation: 20, measurements: 40, steps_between_measurements: 2}\n"
    "analysis: {blocks: 4, autocorrelation_lags: 10}\n";

TEST_F(CvfApp, WritesACompleteSelfDescribingFile) {
  const auto output = path("out.h5");
  ASSERT_EQ(run(write_input("tiny.yaml", tiny) + " -o " + output), 0) << log();
  EXPECT_NE(log().find("rho [g/cm^3]"), std::string::npos) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.read_string("/provenance/software"), "portamc");
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/provenance/seed"), 7u);
  EXPECT_NE(f.read_string("/config").find("L: 8"), std::string::npos);
  EXPECT_EQ(f.attribute_int("/cvf", "molecules"), 512);
  EXPECT_EQ(f.attribute_int("/cvf", "points"), 2);
  EXPECT_EQ(f.attribute_string("/cvf", "algorithm"), "metropolis");
  EXPECT_EQ(f.read<double>("/cvf/scan/temperature"), (std::vector<double>{400, 350}));
  EXPECT_EQ(f.read<double>("/cvf/scan/pressure"), (std::vector<double>{0.1, 0.1}));

  for (int k = 0; k < 2; ++k) {
    const std::string p = "/cvf/point_" + std::to_string(k) + "/";
    EXPECT_DOUBLE_EQ(f.attribute_double(p, "temperature"), k == 0 ? 400.0 : 350.0);
    const auto step = f.read<std::int64_t>(p + "order/step");
    ASSERT_EQ(step.size(), 40u);
    // Thermalisation, then a measurement after it and every 2 steps: the run's counter runs on.
    const std::int64_t first = 20 + k * (20 + 39 * 2);
    EXPECT_EQ(step.front(), first);
    EXPECT_EQ(step.back(), first + 78);
    EXPECT_EQ(f.attribute_int(p, "steps"), 20 + 39 * 2);
    for (double m : f.read<double>(p + "order/value")) {
      EXPECT_GE(m, 1.0 / 6.0 - 1e-12);
      EXPECT_LE(m, 1.0);
    }
    for (double n : f.read<double>(p + "hydrogen_bonds/value")) {
      EXPECT_GE(n, 0.0);
      EXPECT_LE(n, 2.0);  // four allowed bonds per molecule, each shared by two
    }
    const auto v_iso = f.read<double>(p + "v_iso/value");
    const auto volume = f.read<double>(p + "volume/value");
    for (std::size_t i = 0; i < v_iso.size(); ++i) {
      EXPECT_GE(v_iso[i], 1.0);  // hard core
      EXPECT_GE(volume[i], v_iso[i]);
    }
    const double rho = f.read_scalar<double>(p + "density/value");
    EXPECT_GT(rho, 0.1);
    EXPECT_LT(rho, 1.3);
    EXPECT_GT(f.read_scalar<double>(p + "density/error"), 0.0);
    EXPECT_GT(f.read_scalar<double>(p + "heat_capacity/value"), 0.0);
    EXPECT_GT(f.read_scalar<double>(p + "compressibility/value"), 0.0);
    // One equilibration start for every series, recorded; at most half the measurements.
    const std::int64_t start = f.attribute_int(p, "equilibration_start");
    EXPECT_GE(start, 0);
    EXPECT_LE(start, 20);
    EXPECT_EQ(start, std::max(f.attribute_int(p, "equilibration_enthalpy"),
                              f.attribute_int(p, "equilibration_volume")));
    EXPECT_EQ(f.attribute_int(p, "used_measurements"), 40 - start);
    EXPECT_EQ(f.attribute_int(p + "order_autocorrelation", "start"), start);
    // Every estimate carries tau_int, N_eff and whether it is reliable. 40 measurements give
    // fewer than 100 effective samples: flagged, with the service's reason.
    for (const char* e : {"density", "volume_mean", "v_iso_mean", "enthalpy_mean", "heat_capacity",
                          "compressibility", "expansivity", "hydrogen_bonds_mean",
                          "cooperative_mean", "order_mean"}) {
      const std::string g = p + e;
      // tau_int is positive or unknown (NaN): a jackknife over fewer than 8 bins, or a series
      // too short for Sokal's sum, cannot measure it. N_eff follows it.
      const double tau = f.read_scalar<double>(g + "/tau_int");
      EXPECT_TRUE(std::isnan(tau) || tau > 0) << g;
      EXPECT_EQ(std::isnan(tau), std::isnan(f.read_scalar<double>(g + "/n_eff"))) << g;
      if (!std::isnan(tau) && f.attribute_string(g + "/tau_int", "units") == "measurements") {
        EXPECT_NEAR(f.read_scalar<double>(g + "/n_eff"),
                    (40 - start) / (2 * f.read_scalar<double>(g + "/tau_int")), 1e-9)
            << g;
      }
      EXPECT_EQ(f.attribute_int(g, "reliable"), 0) << g;
      EXPECT_NE(f.attribute_string(g, "warning").find("effective samples"), std::string::npos) << g;
    }
    EXPECT_EQ(f.attribute_string(p + "heat_capacity/tau_int", "units"), "bins");
    EXPECT_EQ(f.attribute_string(p + "density/tau_int", "units"), "measurements");
    EXPECT_EQ(f.attribute_int(p + "heat_capacity", "bins"), 4);  // analysis.blocks
    EXPECT_EQ(f.attribute_int(p + "heat_capacity", "bins_automatic"), 0);
    EXPECT_EQ(f.attribute_int(p, "reliable"), 0);
    EXPECT_FALSE(f.attribute_string(p, "warning").empty());
    // Reduced units beside the SI ones: k_B T / 4 epsilon, P v0 / 4 epsilon, V / (N v0).
    const double T = k == 0 ? 400.0 : 350.0;
    EXPECT_NEAR(f.attribute_double(p, "t_over_4epsilon"), 8.314462618 * T / 22000, 1e-12);
    EXPECT_NEAR(f.attribute_double(p, "p_v0_over_4epsilon"), 0.1 * 14.6873993 / 22000, 1e-9);
    const double v = f.read_scalar<double>(p + "volume_mean/value");
    EXPECT_NEAR(v * 14.6873993 * rho, 18.01528, 1e-2);  // rho = M / (v v0), to Var(v)
    const auto c = f.read<double>(p + "order_autocorrelation/c");
    ASSERT_EQ(c.size(), 11u);
    EXPECT_DOUBLE_EQ(c[0], 1.0);
    EXPECT_EQ(f.attribute_string(p + "density/value", "units"), "g/cm^3");
    EXPECT_FALSE(f.attribute_string(p + "enthalpy", "description").empty());
    const double acceptance = f.attribute_double(p, "volume_acceptance");
    EXPECT_GT(acceptance, 0.0);
    EXPECT_LT(acceptance, 1.0);
  }
  EXPECT_EQ(f.attribute_string("/cvf", "analysis_blocks"), "4");
  for (const char* column :
       {"t_over_4epsilon", "p_v0_over_4epsilon", "equilibration_start", "used_measurements",
        "reliable", "volume", "volume_error", "volume_tau_int", "volume_n_eff", "density_tau_int",
        "density_n_eff", "enthalpy_tau_int", "heat_capacity_tau_int", "heat_capacity_n_eff",
        "compressibility_n_eff", "expansivity_tau_int", "hydrogen_bonds_tau_int",
        "hydrogen_bonds_n_eff"})
    EXPECT_TRUE(f.exists(std::string("/cvf/scan/") + column)) << column;
  // The warnings are printed too (on stderr, also with --quiet).
  EXPECT_NE(log().find("warning: T = 400 K, P = 0.1 MPa"), std::string::npos) << log();
  EXPECT_NE(log().find("heat_capacity: only"), std::string::npos) << log();
  ASSERT_EQ(run(write_input("tiny.yaml", tiny) + " -q -o " + path("quiet.h5")), 0) << log();
  EXPECT_NE(log().find("estimate(s) not reliable"), std::string::npos) << log();
}

TEST_F(CvfApp, LongRunIsReliableWithAutomaticBins) {
  // 4^3 molecules at a weakly bonded point decorrelate within tens of steps: 10000
  // measurements are plenty, so no warning, and the jackknife bins follow tau_int.
  const auto output = path("long.h5");
  const auto input =
      write_input("long.yaml",
                  "lattice: {L: 4}\nstate: {temperatures: [450], pressures: [0.1]}\n"
                  "run: {seed: 3, thermalisation: 200, measurements: 10000}\n"
                  "moves: {volume_step: 0.1}\nanalysis: {autocorrelation_lags: 20}\n");
  ASSERT_EQ(run(input + " -o " + output), 0) << log();
  EXPECT_EQ(log().find("warning"), std::string::npos) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.attribute_string("/cvf", "analysis_blocks"), "auto");
  const std::string p = "/cvf/point_0/";
  EXPECT_EQ(f.attribute_int(p, "reliable"), 1);
  EXPECT_EQ(f.attribute_string(p, "warning"), "");
  EXPECT_EQ(f.attribute_int(p + "heat_capacity", "bins_automatic"), 1);
  EXPECT_EQ(f.attribute_int(p + "heat_capacity", "bins_long_enough"), 1);
  EXPECT_GE(f.attribute_int(p + "heat_capacity", "bins"), 16);
  EXPECT_GE(static_cast<double>(f.attribute_int(p + "heat_capacity", "bin_size")),
            20 * f.attribute_double(p + "heat_capacity", "bins_tau_int"));
  EXPECT_GE(f.read_scalar<double>(p + "hydrogen_bonds_mean/n_eff"), 100.0);
  EXPECT_EQ(f.read<std::int64_t>("/cvf/scan/reliable"), (std::vector<std::int64_t>{1}));
}

TEST_F(CvfApp, SameSeedSameSeriesAndSwendsenWangRuns) {
  const auto input = write_input("tiny.yaml", tiny);
  std::vector<std::vector<double>> enthalpy;
  for (const char* extra : {"", "", " --set algorithm.sigma=swendsen_wang",
                            " --set algorithm.sigma=swendsen_wang --set "
                            "algorithm.labelling=label_equivalence"}) {
    const auto output = path("run.h5");
    ASSERT_EQ(run(input + extra + " -o " + output), 0) << log();
    portamc::h5::InputFile f(output);
    enthalpy.push_back(f.read<double>("/cvf/point_1/enthalpy/value"));
    fs::remove(output);
  }
  EXPECT_EQ(enthalpy[0], enthalpy[1]);  // reproducible
  EXPECT_NE(enthalpy[0], enthalpy[2]);  // another algorithm
  EXPECT_EQ(enthalpy[2], enthalpy[3]);  // both labellings give the same clusters
}

TEST_F(CvfApp, PairedStatePoints) {
  const auto output = path("pairs.h5");
  const auto input = write_input(
      "pairs.yaml",
      "lattice: {L: 4}\nstate: {temperatures: [300, 350, 400], pressures: [-100, 0.1, 100], "
      "grid: false}\nrun: {thermalisation: 5, measurements: 10}\n"
      "analysis: {blocks: 2, autocorrelation_lags: 3}\n");
  ASSERT_EQ(run(input + " -o " + output), 0) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.read<double>("/cvf/scan/temperature"), (std::vector<double>{300, 350, 400}));
  EXPECT_EQ(f.read<double>("/cvf/scan/pressure"), (std::vector<double>{-100, 0.1, 100}));
}

TEST_F(CvfApp, ShippedInputsAreValid) {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(PORTAMC_SOURCE_DIR) / "input")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cvf", 0) != 0 || entry.path().extension() != ".yaml") continue;
    EXPECT_EQ(run(entry.path().string() + " --dry-run"), 0) << name << "\n" << log();
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST_F(CvfApp, BadInputIsRejectedBeforeAnyWork) {
  const auto output = path("never.h5");
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"--set lattice.L=6", "multiple of 4"},
      {"--set lattice.L=2", "lattice.L"},
      {"--set state.temperatures=[300,-5]", "temperature"},
      {"--set state.temperatures=[0]", "temperature"},
      {"--set state.grid=false --set state.temperatures=[300,310]", "equal"},
      {"--set analysis.autocorrelation_lags=50 --set run.measurements=50", "lags"},
      {"--set analysis.blocks=60 --set run.measurements=50", "blocks"},
      {"--set analysis.blocks=26 --set run.measurements=50", "analysis.blocks"},
      {"--set analysis.blocks=1", "analysis.blocks"},
      {"--set analysis.blocks=many", "analysis.blocks"},
      {"--set start.v_iso=0.9", "v_iso"},
      {"--set model.gas_threshold=1", "gas"},
      {"--set model.cutoff=0.5", "cutoff"},
      {"--set model.J_over_4epsilon=-1", "J_over_4epsilon"},
      {"--set algorithm.sigma=wolff", "algorithm.sigma"},
      {"--set lattice.M=3", "lattice.M"},
      {"--set lattice.L=400000", "free to give"},
      {"--set checkpoint.every=-1", "checkpoint.every"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(run(c.args + " -o " + output), 2) << c.args << "\n" << log();
    EXPECT_NE(log().find(c.message), std::string::npos) << c.args << "\n" << log();
    EXPECT_FALSE(fs::exists(output)) << c.args;
  }
}

// Two state points; one unit of work is a thermalisation step or a measurement (with the
// steps before it): point 0 is units 1..5 (thermalisation) and 6..11, point 1 12..16, 17..22.
const char* two_points =
    "lattice: {L: 8}\n"
    "state: {temperatures: [300, 280], pressures: [0.1]}\n"
    "run: {seed: 5, thermalisation: 5, measurements: 6, steps_between_measurements: 2}\n"
    "analysis: {blocks: 2, autocorrelation_lags: 2}\n";

TEST_F(CvfApp, StoppedTwiceAndResumedWritesTheSameResultsBitForBit) {
  const auto input = write_input("two.yaml", two_points);
  const auto reference = path("reference.h5");
  ASSERT_EQ(run(input + " -q -o " + reference), 0) << log();
  const auto output = path("resumed.h5"), checkpoint = output + ".checkpoint";
  // Inside point 0's thermalisation, then inside point 1's measurements (3 + 16 = 19).
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=3 -o " + output), 3) << log();
  EXPECT_NE(log().find("--resume " + checkpoint), std::string::npos) << log();
  ASSERT_TRUE(fs::exists(checkpoint));
  EXPECT_FALSE(fs::exists(output));
  EXPECT_EQ(portamc::cvf::read_checkpoint(checkpoint).position.thermalisation_done, 3);
  ASSERT_EQ(
      run(input + " -q --set checkpoint.stop_after=16 --resume " + checkpoint + " -o " + output), 3)
      << log();
  const auto middle = portamc::cvf::read_checkpoint(checkpoint);
  EXPECT_EQ(middle.position.point, 1u);
  EXPECT_EQ(middle.position.measurements_done, 3);
  EXPECT_FALSE(fs::exists(output));
  // Another seed is another chain: bad input, nothing written, the checkpoint kept.
  EXPECT_EQ(run(input + " -q --set run.seed=6 --resume " + checkpoint + " -o " + output), 2);
  EXPECT_NE(log().find("another chain"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
  ASSERT_TRUE(fs::exists(checkpoint));

  ASSERT_EQ(run(input + " -q --resume " + checkpoint + " -o " + output), 0) << log();
  EXPECT_FALSE(fs::exists(checkpoint)) << "the checkpoint outlived the finished run";
  portamc::testing::expect_same_results(reference, output, 41);
}

TEST_F(CvfApp, InterruptedBySignalWritesACheckpointAndExitsThree) {
  // A long run, with a checkpoint after every unit once a millisecond has passed.
  const auto input = write_input("long.yaml",
                                 "lattice: {L: 8}\n"
                                 "run: {seed: 3, thermalisation: 200000, measurements: 10}\n"
                                 "analysis: {autocorrelation_lags: 2}\n"
                                 "checkpoint: {every: 0.001}\n");
  const auto output = path("long.h5"), checkpoint = output + ".checkpoint";
  const int status = interrupt_once_written(input + " -q -o " + output, checkpoint);
  ASSERT_EQ(status, 3) << log();
  EXPECT_NE(log().find("interrupted: checkpoint written to " + checkpoint), std::string::npos)
      << log();
  EXPECT_FALSE(fs::exists(output));
  EXPECT_GT(portamc::cvf::read_checkpoint(checkpoint).position.thermalisation_done, 0);
}

TEST_F(CvfApp, ResumeRefusesEveryUnusableCheckpointAsBadInput) {
  const auto input = write_input("two.yaml", two_points);
  const auto stopped = path("stopped.h5");
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=8 -o " + stopped), 3) << log();
  const std::string checkpoint = stopped + ".checkpoint", foreign = path("muca.ckpt");
  portamc::testing::write_muca_checkpoint(foreign);
  const auto output = path("never.h5");
  portamc::testing::expect_resume_refusals(
      [&](const std::string& args) { return run(args); }, [&] { return log(); }, dir_,
      input + " -q -o " + output, output, checkpoint, foreign,
      [](const std::string& file) {
        portamc::testing::flip_bit<std::uint8_t>(file, "/configuration/sigma", 7, 1);
      });
}

}  // namespace

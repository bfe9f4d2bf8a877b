// End-to-end: portamc-muca on tiny inputs; the HDF5 file it writes; its error paths.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "../common/app_test.hpp"
#include "../common/resume_refusals.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/hdf5_file.hpp"

namespace {

namespace fs = std::filesystem;

class MucaApp : public portamc::testing::AppTest {
 protected:
  MucaApp() : AppTest(PORTAMC_MUCA_APP, "muca") {}
};

const char* tiny =
    "model: {L: 4, walkers: 4, seed: 3}\n"
    "iteration: {kl_threshold: 0.01}\n"
    "production: {blocks: 4, updates_per_block: 500}\n"
    "analysis: {beta_min: 0.3, beta_max: 0.5, beta_points: 3}\n";

TEST_F(MucaApp, WritesACompleteSelfDescribingFile) {
  const auto input = write_input("tiny.yaml", tiny);
  const auto output = (dir_ / "out.h5").string();
  ASSERT_EQ(run(input + " -o " + output), 0) << log();
  EXPECT_NE(log().find("converged"), std::string::npos) << log();
  ASSERT_TRUE(fs::exists(output));
  EXPECT_FALSE(fs::exists(output + ".checkpoint"));  // removed after a complete run
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.read_string("/provenance/software"), "portamc");
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/provenance/seed"), 3u);
  EXPECT_NE(f.read_string("/config").find("L: 4"), std::string::npos);
  EXPECT_EQ(f.read<double>("/muca/dos/log_g").size(), 17u);
  EXPECT_EQ(f.read<double>("/muca/canonical/beta").size(), 3u);
  EXPECT_EQ(f.attribute_string("/muca/dos/log_g", "description").empty(), false);
  EXPECT_EQ(f.shape("/muca/production/block_histograms"), (std::vector<std::size_t>{4, 17}));
  EXPECT_EQ(f.attribute_int("/muca", "converged"), 1);
  // Thermalisation under the final weights, round(16^2.25) = 512 attempts per walker.
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/muca/production/therm_attempts"), 512u);
  // Four blocks are too few for the comparison of thirds: recorded as not checked.
  EXPECT_EQ(f.attribute_int("/muca/production/stationarity", "checked"), 0);
  EXPECT_NE(log().find("stationarity: not checked"), std::string::npos) << log();
  // Every error has its tau_int and effective sample size beside it.
  for (const char* name :
       {"/muca/dos/log_g", "/muca/canonical/energy", "/muca/canonical/specific_heat",
        "/muca/canonical/free_energy", "/muca/canonical/entropy"}) {
    const std::string base = name;
    const auto n = f.read<double>(base).size();
    EXPECT_EQ(f.read<double>(base + "_error").size(), n) << base;
    EXPECT_EQ(f.read<double>(base + "_tau_int").size(), n) << base;
    EXPECT_EQ(f.read<double>(base + "_n_eff").size(), n) << base;
  }
}

TEST_F(MucaApp, ProductionStationarityIsCheckedAndRecorded) {
  const auto input = write_input("tiny.yaml", tiny);
  const auto output = (dir_ / "checked.h5").string();
  ASSERT_EQ(run(input + " --set production.blocks=12 --set production.updates_per_block=2000 -o " +
                output),
            0)
      << log();
  EXPECT_NE(log().find("stationarity: passed"), std::string::npos) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.attribute_int("/muca/production/stationarity", "checked"), 1);
  EXPECT_EQ(f.attribute_int("/muca/production/stationarity", "passed"), 1);
  EXPECT_EQ(f.read<double>("/muca/production/stationarity/z").size(), 15u);  // 15 bins at L = 4
  EXPECT_LE(f.read_scalar<double>("/muca/production/stationarity/max_abs_z"),
            f.read_scalar<double>("/muca/production/stationarity/threshold"));
  // Four walkers are too few groups for the jackknife: the errors come from time bins.
  EXPECT_EQ(f.attribute_string("/muca/production", "error_method"), "time_bins");
  EXPECT_NE(log().find("errors: jackknife over"), std::string::npos) << log();
  const auto bad = (dir_ / "bad.h5").string();
  EXPECT_EQ(run(input + " --set production.therm_prefactor=-1 -o " + bad), 2);
  EXPECT_NE(log().find("production.therm_prefactor"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(bad));
}

TEST_F(MucaApp, ErrorsFromWalkerGroups) {
  const auto input = write_input("tiny.yaml", tiny);
  const auto output = (dir_ / "groups.h5").string();
  ASSERT_EQ(run(input + " --set model.walkers=40 --set production.walker_groups=20 " +
                "--set production.blocks=6 -o " + output),
            0)
      << log();
  EXPECT_NE(log().find("errors: jackknife over 20 independent walker groups"), std::string::npos)
      << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.attribute_string("/muca/production", "error_method"), "walker_groups");
  EXPECT_EQ(f.attribute_int("/muca/production", "jackknife_samples"), 20);
  EXPECT_EQ(f.shape("/muca/production/group_histograms"), (std::vector<std::size_t>{20, 17}));
  // The groups' production histograms add up to the blocks'.
  const auto groups = f.read<std::uint64_t>("/muca/production/group_histograms");
  const auto blocks = f.read<std::uint64_t>("/muca/production/block_histograms");
  std::uint64_t a = 0, b = 0;
  for (auto v : groups) a += v;
  for (auto v : blocks) b += v;
  EXPECT_EQ(a, b);
  EXPECT_EQ(b, 40u * 6u * 500u);
  EXPECT_EQ(f.attribute_int("/muca/production/stationarity", "checked"), 1);
  EXPECT_NE(f.attribute_string("/muca/production/stationarity", "statistic").find("groups"),
            std::string::npos);
  EXPECT_EQ(run(input + " --set production.walker_groups=0 -o " + output + "x"), 2);
}

TEST_F(MucaApp, DryRunPrintsResolvedConfigurationAndWritesNothing) {
  const auto output = (dir_ / "dry.h5").string();
  ASSERT_EQ(run("--dry-run --set model.L=8 -o " + output), 0) << log();
  EXPECT_NE(log().find("L: 8"), std::string::npos) << log();
  EXPECT_NE(log().find("kl_threshold"), std::string::npos);
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(MucaApp, BadInputIsRejectedBeforeAnyWork) {
  const auto output = (dir_ / "never.h5").string();
  const auto broken = write_input("broken.yaml", "model:\n  L: -8\n  Lx: 3\n");
  EXPECT_EQ(run(broken + " -o " + output), 2);
  EXPECT_NE(log().find("broken.yaml:2:6: model.L"), std::string::npos) << log();
  EXPECT_NE(log().find("model.Lx: unknown key"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.L=7 -o " + output), 2);
  EXPECT_NE(log().find("even"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.walkers=0 -o " + output), 2);
  EXPECT_EQ(run((dir_ / "missing.yaml").string()), 2);
  EXPECT_EQ(run("--bogus"), 2);
  EXPECT_EQ(run(write_input("t.yaml", tiny) + " -o " + (dir_ / "no/such/dir/x.h5").string()), 2);
  EXPECT_NE(log().find("cannot write output file"), std::string::npos) << log();
  // Lattices that cannot fit in memory: a clear error, no allocation attempt.
  EXPECT_EQ(run("--set model.L=256 --set model.walkers=536870912 -o " + output), 2);
  EXPECT_NE(log().find("needs"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(MucaApp, ResumeRejectsACheckpointOfAnotherRun) {
  const auto input = write_input("tiny.yaml", tiny);
  const auto fake = write_input("fake.ckpt", "not hdf5");
  EXPECT_EQ(run(input + " --resume " + fake + " -o " + (dir_ / "r.h5").string()), 2);
  EXPECT_NE(log().find("fake.ckpt"), std::string::npos) << log();
}

TEST_F(MucaApp, ResumeRefusesEveryUnusableCheckpointAsBadInput) {
  const auto input = write_input("tiny.yaml", tiny);
  const auto stopped = (dir_ / "stopped.h5").string();
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=2 -o " + stopped), 3) << log();
  const std::string checkpoint = stopped + ".checkpoint";
  ASSERT_TRUE(fs::exists(checkpoint));
  const std::string foreign = (dir_ / "josephson.ckpt").string();
  {
    portamc::h5::OutputFile f(foreign);
    auto root = f.root();
    portamc::h5::begin_checkpoint(root, "josephson", "");
    portamc::h5::seal_checkpoint(root, 0);
    f.commit();
  }
  const auto output = (dir_ / "never.h5").string();
  portamc::testing::expect_resume_refusals(
      [&](const std::string& args) { return run(args); }, [&] { return log(); }, dir_,
      input + " -q -o " + output, output, checkpoint, foreign,
      [](const std::string& file) {
        portamc::testing::flip_bit<std::uint32_t>(file, "/model/spins", 3, 17);
      });
  // The intact checkpoint still resumes.
  EXPECT_EQ(run(input + " -q --resume " + checkpoint + " -o " + output), 0) << log();
}

TEST_F(MucaApp, HelpAndVersion) {
  EXPECT_EQ(run("--help"), 0);
  EXPECT_NE(log().find("model.L"), std::string::npos);
  EXPECT_EQ(run("--version"), 0);
  EXPECT_NE(log().find("Kokkos"), std::string::npos);
}

}  // namespace

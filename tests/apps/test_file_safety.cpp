// Every app, end to end: no flag, name or full disk destroys a user's file or leaves one that
// looks finished (portamc/run_files.hpp, portamc/hdf5_file.hpp). Bad names exit 2 before any
// work and write nothing; a write that fails exits 1, removes its temporary file and leaves an
// earlier file as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <set>
#include <string>

#include "../common/app_test.hpp"
#include "portamc/run_files.hpp"

namespace {

namespace fs = std::filesystem;

struct App {
  const char* name;
  const char* binary;
  const char* tiny;  // a run of about a second on one CPU core
};

void PrintTo(const App& app, std::ostream* out) {
  *out << app.name;
}

const App apps[] = {
    {"muca", PORTAMC_MUCA_APP,
     "model: {L: 4, walkers: 4, seed: 3}\niteration: {kl_threshold: 0.01}\n"
     "production: {blocks: 4, updates_per_block: 500}\n"
     "analysis: {beta_min: 0.3, beta_max: 0.5, beta_points: 3}\n"},
    {"su2", PORTAMC_SU2_APP,
     "lattice: {extents: [6, 6, 6, 4]}\nmodel: {beta: 2.3, start: hot, seed: 5}\n"
     "updates: {n_hb: 1, n_or: 1}\n"
     "run: {thermalisation: 2, measurements: 8, updates_between_measurements: 1}\n"
     "measure: {wilson_r_max: 3, wilson_t_max: 2, ape_iterations: 1, polyakov_bins: 10}\n"
     "analysis: {blocks: 4}\n"},
    {"josephson", PORTAMC_JOSEPHSON_APP,
     "mode: escape\njunction: {V0: 1.0, beta: 0.05, theta: 0.3}\nbias: {gamma: 0.5}\n"
     "model: {h: 0.004}\nrun: {realisations: 64, max_steps: 20000, seed: 21, steps_per_launch: "
     "1000}\n"
     "analysis: {histogram_bins: 10, theory_points: 20}\n"},
    {"tilings", PORTAMC_TILINGS_APP,
     "model: domino\nmode: cftp\nseed: 3\ndomain: {shape: aztec_diamond, n: 4}\n"
     "cftp: {samples: 4}\n"},
    {"cvf", PORTAMC_CVF_APP,
     "lattice: {L: 8}\nstate: {temperatures: [400], pressures: [0.1]}\n"
     "run: {seed: 7, thermalisation: 10, measurements: 20, steps_between_measurements: 1}\n"
     "analysis: {blocks: 4, autocorrelation_lags: 5}\n"},
};

class FileSafety : public portamc::testing::AppTest, public ::testing::WithParamInterface<App> {
 protected:
  FileSafety() : AppTest(GetParam().binary, std::string("safety_") + GetParam().name) {}

  void SetUp() override {
    AppTest::SetUp();
    input_ = write_input("in.yaml", GetParam().tiny);
  }

  std::string read(const std::string& file) const {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // Names in the test directory other than the log.
  std::set<std::string> listing() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_))
      if (entry.path().filename() != "log.txt") names.insert(entry.path().filename().string());
    return names;
  }
  // Runs the app with `args`, expects exit code 2, a message with `words`, and no new file.
  void expect_refused(const std::string& args, const std::string& words) {
    const auto before = listing();
    EXPECT_EQ(run(input_ + " " + args), 2) << args << "\n" << log();
    EXPECT_NE(log().find(words), std::string::npos) << args << "\n" << log();
    EXPECT_EQ(listing(), before) << args;
  }

  std::string input_;
};

TEST_P(FileSafety, OutputNamingTheInputIsRefused) {
  const std::string text = read(input_);
  expect_refused("-o " + input_, "is also the output");
  EXPECT_EQ(read(input_), text);
}

TEST_P(FileSafety, DevicesDirectoriesAndEmptyNamesAreRefused) {
  expect_refused("-o /dev/null", "character device");
  fs::create_directory(path("dir.h5"));
  expect_refused("-o " + path("dir.h5"), "directory");
  expect_refused("-o ''", "needs a file name");
  expect_refused("--output=", "needs a file name");
}

TEST_P(FileSafety, SymbolicLinkIsReplacedOnlyWithForce) {
  const auto target = path("target.h5"), link = path("link.h5");
  std::ofstream(target) << "earlier";
  fs::create_symlink(target, link);
  expect_refused("-q -o " + link, "symbolic link");
  EXPECT_TRUE(fs::is_symlink(link));
  ASSERT_EQ(run(input_ + " -q --force -o " + link), 0) << log();
  EXPECT_FALSE(fs::is_symlink(link));
  EXPECT_EQ(read(target), "earlier");  // the link was replaced, not the file it pointed to
}

// A file-size limit makes every write past it fail (EFBIG), as a full disk does (ENOSPC).
// Open MPI's singleton start writes shared-memory files larger than the limit; PMIx's hash
// store keeps them out of files.
TEST_P(FileSafety, FailedWriteKeepsTheEarlierFileAndLeavesNoTemporary) {
  const auto output = path("out.h5");
  std::ofstream(output) << "earlier result";
  const auto before = listing();
  EXPECT_EQ(run_shell("ulimit -f 16 && PMIX_MCA_gds=hash exec " + app_ + " -q " + input_ + " -o " +
                      output),
            1)
      << log();
  EXPECT_NE(log().find("File too large"), std::string::npos) << log();
  EXPECT_EQ(read(output), "earlier result");
  EXPECT_EQ(listing(), before);
}

// Checkpoints, which every app writes.
class CheckpointSafety : public FileSafety {};

TEST_P(CheckpointSafety, CheckpointNamingTheOutputIsRefused) {
  const auto output = path("out.h5");
  std::ofstream(output) << "earlier result";
  expect_refused("-o " + output + " --set checkpoint.file=" + output, "are the same file");
  expect_refused("-o " + output + " --set checkpoint.file=" + input_, "is also the checkpoint");
  EXPECT_EQ(read(output), "earlier result");
}

// A resumed run whose output cannot be written (a file size limit, as a full disk) exits 1,
// keeps the checkpoint it resumed from untouched and says how to continue from it.
TEST_P(CheckpointSafety, FailedOutputKeepsTheCheckpointAndSaysHowToContinue) {
  const auto output = path("out.h5"), checkpoint = output + ".checkpoint";
  ASSERT_EQ(run(input_ + " -q --set checkpoint.stop_after=1 -o " + output), 3) << log();
  ASSERT_TRUE(fs::exists(checkpoint));
  const std::string saved = read(checkpoint);
  EXPECT_EQ(run_shell("ulimit -f 16 && PMIX_MCA_gds=hash exec " + app_ + " -q " + input_ +
                      " --set checkpoint.every=0 --resume " + checkpoint + " -o " + output),
            1)
      << log();
  EXPECT_NE(log().find("File too large"), std::string::npos) << log();
  EXPECT_NE(log().find("is kept: continue from it with --resume " + checkpoint), std::string::npos)
      << log();
  EXPECT_FALSE(fs::exists(output));
  EXPECT_EQ(read(checkpoint), saved);
}

TEST_P(CheckpointSafety, CheckpointInUseByAnotherRunIsRefused) {
  const auto output = path("out.h5");
  const portamc::app::FileLock other_run(output + ".checkpoint", "checkpoint file");
  expect_refused("-o " + output, "in use by another run");
}

std::string app_name(const ::testing::TestParamInfo<App>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(EveryApp, FileSafety, ::testing::ValuesIn(apps), app_name);
INSTANTIATE_TEST_SUITE_P(EveryApp, CheckpointSafety, ::testing::ValuesIn(apps), app_name);

class Su2FileSafety : public portamc::testing::AppTest {
 protected:
  Su2FileSafety() : AppTest(PORTAMC_SU2_APP, "safety_su2_files") {}
};

TEST_F(Su2FileSafety, SavedConfigurationAndStartFileMustDifferFromWrittenFiles) {
  const auto input = write_input("in.yaml", apps[1].tiny);
  const auto output = path("out.h5");
  EXPECT_EQ(run(input + " -o " + output + " --set output.save_config=" + output), 2) << log();
  EXPECT_NE(log().find("are the same file"), std::string::npos) << log();
  EXPECT_EQ(run(input + " -o " + output + " --set output.save_config=" + output + ".checkpoint"), 2)
      << log();
  EXPECT_NE(log().find("are the same file"), std::string::npos) << log();
  std::ofstream(output) << "earlier result";
  EXPECT_EQ(
      run(input + " -o " + output + " --set model.start=file --set model.start_file=" + output), 2)
      << log();
  EXPECT_NE(log().find("model.start_file"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output + ".checkpoint"));
}

}  // namespace

// The rules that keep a run from destroying a user's file (portamc/run_files.hpp).
#include "portamc/run_files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "../common/expect_error.hpp"
#include "../common/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using portamc::app::check_run_files;
using portamc::app::FileLock;
using portamc::app::RunFiles;
using portamc::testing::expect_error;

class RunFilesTest : public portamc::testing::TempDir {
 protected:
  std::string touch(const std::string& name) const {
    std::ofstream(file(name)) << name;
    return file(name);
  }
};

TEST_F(RunFilesTest, DistinctNewFilesPass) {
  const auto input = touch("in.yaml");
  EXPECT_NO_THROW(check_run_files(
      {input, "", {{"output", file("out.h5")}, {"checkpoint.file", file("out.h5.ckpt"), true}}}));
  // Empty paths are files the run does not write.
  EXPECT_NO_THROW(check_run_files({input, "", {{"output", file("out.h5")}, {"save", ""}}}));
}

TEST_F(RunFilesTest, TwoWrittenNamesOfOneFileAreRefused) {
  const auto out = file("out.h5");
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", out}, {"checkpoint.file", out, true}}});
      },
      {"output '" + out + "'", "checkpoint.file", "are the same file"});
  // Another spelling of the same path, before the file exists.
  const auto spelled = (dir_ / "." / "out.h5").string();
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", out}, {"checkpoint.file", spelled}}});
      },
      {"are the same file"});
  // A hard link: two paths, one inode.
  touch("out.h5");
  fs::create_hard_link(out, file("hard.h5"));
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", out}, {"save", file("hard.h5")}}});
      },
      {"are the same file"});
}

TEST_F(RunFilesTest, ReadFilesMustNotBeWritten) {
  const auto input = touch("in.yaml");
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({input, "", {{"output", input}}});
      },
      {"input file '" + input + "' is also the output"});
  // The resume file may be the checkpoint (a run continues), nothing else it writes.
  const auto ckpt = touch("out.h5.checkpoint");
  EXPECT_NO_THROW(check_run_files(
      {input, ckpt, {{"output", file("out.h5")}, {"checkpoint.file", ckpt, true}}}));
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({input, ckpt, {{"output", ckpt}}});
      },
      {"--resume file", "is also the output"});
  // Other read files (a start configuration) likewise.
  const auto start = touch("start.h5");
  RunFiles files{input, "", {{"output", start}}, {{"model.start_file", start}}};
  expect_error<std::invalid_argument>([&] { check_run_files(files); },
                                      {"model.start_file '" + start + "' is also the output"});
}

TEST_F(RunFilesTest, NodesThatARenameWouldDestroyAreRefused) {
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", "/dev/null"}}});
      },
      {"'/dev/null' is a character device"});
  fs::create_directory(file("dir"));
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", file("dir")}}});
      },
      {"is a directory"});
  ASSERT_EQ(::mkfifo(file("fifo").c_str(), 0600), 0);
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", file("fifo")}}});
      },
      {"is a FIFO"});
}

TEST_F(RunFilesTest, SymbolicLinkNeedsForce) {
  const auto target = touch("target.h5");
  fs::create_symlink(target, file("link.h5"));
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", file("link.h5")}}});
      },
      {"is a symbolic link to '" + target + "'", "--force"});
  EXPECT_NO_THROW(check_run_files({"", "", {{"output", file("link.h5")}}, {}, true}));
  // Even with --force a link may not make two written names one file.
  expect_error<std::invalid_argument>(
      [&] {
        check_run_files({"", "", {{"output", file("link.h5")}, {"save", target}}, {}, true});
      },
      {"are the same file"});
}

TEST_F(RunFilesTest, LockIsExclusiveAndRemovedOnRelease) {
  const auto ckpt = file("out.h5.checkpoint");
  {
    const FileLock first(ckpt, "checkpoint file");
    EXPECT_TRUE(first.held());
    EXPECT_TRUE(fs::exists(ckpt + ".lock"));
    // flock belongs to the open file: a second lock in the same process conflicts as another
    // process's would, and names the holder.
    expect_error<std::invalid_argument>([&] { FileLock second(ckpt, "checkpoint file"); },
                                        {"checkpoint file '" + ckpt + "' is in use by another run",
                                         "process " + std::to_string(::getpid())});
  }
  EXPECT_FALSE(fs::exists(ckpt + ".lock"));
  const FileLock again(ckpt, "checkpoint file");
  EXPECT_TRUE(again.held());
}

}  // namespace

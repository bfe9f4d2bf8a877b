// h5::open_checkpoint, verify_checkpoint and friends (checkpoint_file.hpp): every file a run
// cannot resume from is refused as BadCheckpoint, a std::invalid_argument (exit code 2 in the
// apps), with a message that names the file and says what is wrong.
#include "portamc/checkpoint_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../common/checkpoint_damage.hpp"
#include "../common/expect_error.hpp"
#include "portamc/checksum.hpp"

namespace {

namespace fs = std::filesystem;
namespace h5 = portamc::h5;
using h5::BadCheckpoint;
using portamc::testing::expect_error;

static_assert(std::is_base_of_v<std::invalid_argument, BadCheckpoint>,
              "a refused checkpoint is bad input: exit code 2");

class CheckpointFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("portamc_checkpoint_file_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A sealed checkpoint of `app` holding one dataset.
  std::string sealed(const std::string& name, const std::string& app) {
    h5::OutputFile file(path(name));
    auto root = file.root();
    h5::begin_checkpoint(root, app, "model: {L: 4}\n");
    root.write("state", std::vector<double>{1, 2, 3}, "", "");
    h5::seal_checkpoint(root, 0x1234);
    file.commit();
    return path(name);
  }

  fs::path dir_;
};

TEST_F(CheckpointFile, OpensASealedCheckpointOfTheApp) {
  const std::string file = sealed("ok.ckpt", "muca");
  const h5::InputFile f = h5::open_checkpoint(file, "muca");
  EXPECT_EQ(f.attribute_string("/", h5::kChecksumAttribute), portamc::checksum_text(0x1234));
  EXPECT_NO_THROW(h5::verify_checkpoint(f, 0x1234));
  expect_error<BadCheckpoint>([&] { h5::verify_checkpoint(f, 0x1235); },
                              {"cannot resume from '" + file + "'", "damaged",
                               portamc::checksum_text(0x1235), portamc::checksum_text(0x1234)});
}

TEST_F(CheckpointFile, RefusesFilesThatAreNoCheckpointOfTheApp) {
  const std::string missing = path("missing.ckpt");
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(missing, "muca"); },
                              {"'" + missing + "'", "no such file"});
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(dir_.string(), "muca"); },
                              {"not a regular file"});
  const std::string empty = path("empty.ckpt");
  portamc::testing::plain_file(empty);
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(empty, "muca"); },
                              {"'" + empty + "'", "empty"});
  const std::string text = path("text.ckpt");
  portamc::testing::plain_file(text, "not hdf5");
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(text, "muca"); },
                              {"'" + text + "'", "not a readable HDF5 file"});
  const std::string whole = sealed("whole.ckpt", "muca"), cut = path("cut.ckpt");
  portamc::testing::truncated_copy(whole, cut, fs::file_size(whole) / 2);
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(cut, "muca"); },
                              {"'" + cut + "'", "truncated"});
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(sealed("su2.ckpt", "su2"), "muca"); },
                              {"su2.ckpt", "checkpoint of portamc-su2, not of portamc-muca"});
  const std::string result = path("result.h5");
  {
    h5::OutputFile f(result);
    f.root().write_string("config", "x", "a result file");
    f.commit();
  }
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(result, "muca"); },
                              {"result.h5", "not a portamc checkpoint"});
}

TEST_F(CheckpointFile, RefusesACheckpointWithoutChecksum) {
  const std::string old = sealed("old.ckpt", "josephson");
  portamc::testing::remove_attribute(old, "/", h5::kChecksumAttribute);
  expect_error<BadCheckpoint>([&] { h5::open_checkpoint(old, "josephson"); },
                              {"'" + old + "'", "no checksum", "start the run again"});
}

TEST_F(CheckpointFile, ReadErrorsOfTheContentsAreRefusals) {
  const std::string file = sealed("layout.ckpt", "su2");
  const h5::InputFile f = h5::open_checkpoint(file, "su2");
  expect_error<BadCheckpoint>(
      [&] { h5::read_checkpoint_contents(f, [&] { return f.read<double>("/position/links"); }); },
      {"'" + file + "'", "damaged or of another portamc version", "/position/links"});
  EXPECT_EQ(h5::read_checkpoint_contents(f, [&] { return f.read<double>("/state"); }).size(), 3u);
  expect_error<BadCheckpoint>([&] { h5::require_size(f, "/state", 3, 4); },
                              {"'" + file + "'", "/state holds 3 values", "needs 4"});
}

}  // namespace

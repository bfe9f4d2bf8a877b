#pragma once
// Shared by the app tests: every --resume file an app cannot continue from is bad input, exit
// code 2 with a message that names the file and says what is wrong, and nothing is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint_damage.hpp"
#include "portamc/checkpoint_file.hpp"

namespace portamc::testing {

/// Runs the app (`run`: exit status for the arguments; `log`: its output) with `args` and one
/// unusable --resume file after another, made in `dir` from `checkpoint`, an intact checkpoint
/// of the app: missing, empty, no HDF5, cut short, without checksum, damaged by `damage`, and
/// `foreign`, a checkpoint of another app. `output` must not appear.
template <class Run, class Log>
void expect_resume_refusals(Run&& run, Log&& log, const std::filesystem::path& dir,
                            const std::string& args, const std::string& output,
                            const std::string& checkpoint, const std::string& foreign,
                            const std::function<void(const std::string&)>& damage) {
  namespace fs = std::filesystem;
  const auto copy = [&](const std::string& name) {
    const std::string to = (dir / name).string();
    fs::copy_file(checkpoint, to, fs::copy_options::overwrite_existing);
    return to;
  };
  const std::string empty = (dir / "empty.ckpt").string(), text = (dir / "text.ckpt").string(),
                    cut = (dir / "cut.ckpt").string();
  plain_file(empty);
  plain_file(text, "not hdf5");
  truncated_copy(checkpoint, cut, fs::file_size(checkpoint) / 2);
  const std::string old = copy("old.ckpt"), damaged = copy("damaged.ckpt");
  remove_attribute(old, "/", h5::kChecksumAttribute);
  damage(damaged);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {(dir / "missing.ckpt").string(), "no such file"},
      {empty, "empty"},
      {text, "not a readable HDF5 file"},
      {cut, "truncated"},
      {old, "no checksum"},
      {damaged, "damaged"},
      {foreign, "a checkpoint of portamc-"}};
  for (const auto& [file, what] : cases) {
    EXPECT_EQ(run(args + " --resume " + file), 2) << file << "\n" << log();
    const std::string said = log();
    EXPECT_NE(said.find("cannot resume from '" + file + "'"), std::string::npos) << said;
    EXPECT_NE(said.find(what), std::string::npos) << said;
  }
  EXPECT_FALSE(fs::exists(output));
}

}  // namespace portamc::testing

#pragma once
// Shared fixture of the models' checkpoint-integrity tests: a private directory, a checkpoint
// written there, and the expectation that reading a file is refused as bad input
// (h5::BadCheckpoint) with a message naming the file. Traits supply, for one model:
//   using Checkpoint = ...;
//   static const Checkpoint& state();                        // a checkpoint mid-run
//   static void write(const std::string& path, const Checkpoint& c);
//   static Checkpoint read(const std::string& path);
#include <filesystem>
#include <string>
#include <vector>

#include "checkpoint_damage.hpp"
#include "expect_error.hpp"
#include "portamc/checkpoint_file.hpp"
#include "temp_dir.hpp"

namespace portamc::testing {

template <class Traits>
class CheckpointIntegrityTest : public TempDir {
 protected:
  using Checkpoint = typename Traits::Checkpoint;

  std::string path(const std::string& name) const { return file(name); }
  std::string written(const std::string& name, const Checkpoint& c = Traits::state()) {
    Traits::write(path(name), c);
    return path(name);
  }
  // Missing, empty, non-HDF5, truncated, unsealed files and a checkpoint of `other_app` are
  // all refused; `app` is the name the model's checkpoints carry.
  void expect_unusable_files_refused(const std::string& app, const std::string& other_app) {
    expect_refused(path("missing.ckpt"), {"no such file"});
    plain_file(path("empty.ckpt"));
    expect_refused(path("empty.ckpt"), {"empty"});
    plain_file(path("text.ckpt"), "not hdf5");
    expect_refused(path("text.ckpt"), {"not a readable HDF5 file"});
    const std::string whole = written("whole.ckpt");
    truncated_copy(whole, path("cut.ckpt"), std::filesystem::file_size(whole) / 2);
    expect_refused(path("cut.ckpt"), {"truncated"});
    {
      h5::OutputFile other(path("other.ckpt"));
      auto root = other.root();
      h5::begin_checkpoint(root, other_app, "");
      h5::seal_checkpoint(root, 0);
      other.commit();
    }
    expect_refused(path("other.ckpt"),
                   {"checkpoint of portamc-" + other_app + ", not of portamc-" + app});
    const std::string old = written("old.ckpt");
    remove_attribute(old, "/", h5::kChecksumAttribute);
    expect_refused(old, {"no checksum"});
  }
  // Reading `file` is refused with a message naming it and every needle.
  void expect_refused(const std::string& file, std::vector<std::string> needles) {
    needles.push_back("cannot resume from '" + file + "'");
    expect_error<h5::BadCheckpoint>([&] { Traits::read(file); }, needles);
  }
};

}  // namespace portamc::testing

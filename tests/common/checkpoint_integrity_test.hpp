#pragma once
// Shared fixture of the models' checkpoint-integrity tests: a private directory, a checkpoint
// written there, and the expectation that reading a file is refused as bad input
// (h5::BadCheckpoint) with a message naming the file. Traits supply, for one model:
//   using Checkpoint = ...;
//   static const Checkpoint& state();                        // a checkpoint mid-run
//   static void write(const std::string& path, const Checkpoint& c);
//   static Checkpoint read(const std::string& path);
#include <string>
#include <vector>

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
  // Reading `file` is refused with a message naming it and every needle.
  void expect_refused(const std::string& file, std::vector<std::string> needles) {
    needles.push_back("cannot resume from '" + file + "'");
    expect_error<h5::BadCheckpoint>([&] { Traits::read(file); }, needles);
  }
};

}  // namespace portamc::testing

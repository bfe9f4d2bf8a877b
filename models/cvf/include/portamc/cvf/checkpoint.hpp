#pragma once
// portamc-cvf checkpoints: the whole state of a run (run.hpp, RunCheckpoint) in one HDF5 file,
// written by rank 0 and read by every rank of a run on any rank count the lattice allows.
// The file carries a checksum of its contents and its values are range-checked on reading
// (core checkpoint_file.hpp), so a damaged or foreign file is refused (h5::BadCheckpoint,
// exit code 2) instead of continuing a different chain.
#include <string>

#include "portamc/cvf/run.hpp"

namespace portamc::cvf {

/// Writes `checkpoint` (rank 0's, with the configuration) to `path`, atomically.
void write_checkpoint(const std::string& path, const RunCheckpoint& checkpoint,
                      const std::string& config_yaml);

/// Reads and verifies a checkpoint written by write_checkpoint; h5::BadCheckpoint for a
/// missing, damaged, foreign or inconsistent file.
RunCheckpoint read_checkpoint(const std::string& path);

}  // namespace portamc::cvf

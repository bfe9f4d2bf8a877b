#pragma once
// What run_output.cpp's checkpoint reader checks beyond the HDF5 layout (core
// checkpoint_file.hpp): the checksum of the contents, and values that a run can have produced.
#include <cstdint>
#include <string>

#include "portamc/su2/run.hpp"

namespace portamc::su2 {

/// Checksum (portamc/checksum.hpp) of everything write_checkpoint stores: computed by the
/// writer from what it writes and by the reader from what it read. Every field of
/// RunCheckpoint goes in, so a field added there must be added here too.
std::uint64_t checkpoint_checksum(const RunCheckpoint& checkpoint, const std::string& config_yaml);

/// h5::BadCheckpoint naming `path`, the dataset and its first bad element unless the
/// checkpoint is one a run can have written: finite unit quaternions as links, a position
/// within the couplings begun, series of equal lengths whose steps grow within the run's
/// updates, counters that agree, and measurements within their range.
void check_checkpoint(const RunCheckpoint& checkpoint, const std::string& path);

}  // namespace portamc::su2

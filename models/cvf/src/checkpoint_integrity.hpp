#pragma once
// What checkpoint_file.cpp's reader checks beyond the HDF5 layout (core checkpoint_file.hpp):
// the checksum of the contents, and values that a run can have produced.
#include <cstdint>
#include <string>

#include "portamc/cvf/run.hpp"

namespace portamc::cvf {

/// Checksum (portamc/checksum.hpp) of everything write_checkpoint stores, computed by the
/// writer from what it writes and by the reader from what it read. Every field of
/// RunCheckpoint goes in: a field added there must be added here too.
std::uint64_t checkpoint_checksum(const RunCheckpoint& checkpoint, const std::string& config_yaml);

/// h5::BadCheckpoint naming `path` and the first bad value unless the checkpoint is one a run
/// can have written: sigma 0..5 and cube states 0..8 over a whole L^3 lattice (L from the
/// fingerprint), v_iso >= 1, the step counter equal to the position's, records of equal
/// lengths with finite values, and counters that add up.
void check_checkpoint(const RunCheckpoint& checkpoint, const std::string& path);

}  // namespace portamc::cvf

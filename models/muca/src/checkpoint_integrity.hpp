#pragma once
// What io.cpp's checkpoint reader checks beyond the HDF5 layout (core checkpoint_file.hpp):
// the checksum of the contents, and values that a run of this model can have produced.
#include <cstdint>
#include <string>

#include "portamc/muca/simulation.hpp"

namespace portamc::muca {

/// Checksum (portamc/checksum.hpp) of everything write_checkpoint stores: computed by the
/// writer from what it writes and by the reader from what it read. Every field of Checkpoint
/// goes in, so a field added there must be added here too.
std::uint64_t checkpoint_checksum(const Checkpoint& checkpoint, const std::string& config_yaml);

/// h5::BadCheckpoint naming `path`, the dataset and its first bad element unless the
/// checkpoint is one a run can have written: arrays of the sizes the model and W give, energy
/// bins within range and equal to what each walker's spins give, finite weights, and counters that
/// agree (the RNG step with the attempts recorded, the histograms with their attempts).
void check_checkpoint(const Checkpoint& checkpoint, const std::string& path);

}  // namespace portamc::muca

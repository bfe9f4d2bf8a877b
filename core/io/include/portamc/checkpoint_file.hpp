#pragma once
// What every checkpoint file passes before a run resumes from it, so that a damaged or foreign
// file is refused instead of silently changing the results (or crashing the run).
//
// A writer stores, as the root attribute portamc_checksum, the checksum (checksum.hpp) of
// everything its checkpoint holds, computed from the data it writes; the reader recomputes it
// from the data it read and refuses a mismatch. Checkpoints without the attribute (written by a
// portamc before checksums) are refused as well: a run cannot resume from them.
//
// Every refusal is a BadCheckpoint, a std::invalid_argument: a --resume file is input, and
// app::collective_check turns it into exit code 2. Messages begin with
// "cannot resume from '<file>': " and then say what is wrong.
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

#include "portamc/hdf5_file.hpp"

namespace portamc::h5 {

/// A checkpoint that cannot be resumed: missing, empty, not HDF5, truncated, of another app,
/// without a checksum, damaged, or holding values no run can have produced.
struct BadCheckpoint : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Root attribute holding the checksum, as checksum_text() writes it.
inline constexpr const char* kChecksumAttribute = "portamc_checksum";

/// Stores `checksum`, the checksum of the checkpoint's contents, as the root attribute.
void seal_checkpoint(Group root, std::uint64_t checksum);

/// BadCheckpoint unless `path` is an existing, non-empty regular file: the checks of
/// open_checkpoint that need no HDF5 (apps make them before the execution space starts).
void require_resumable_file(const std::string& path);

/// Opens `path` as a checkpoint of `app` (h5::begin_checkpoint's attribute) that carries a
/// checksum. BadCheckpoint if the file does not exist, is empty, is no readable HDF5 file
/// (truncated files are not), belongs to another app or to none, or has no checksum.
InputFile open_checkpoint(const std::string& path, const std::string& app);

/// BadCheckpoint saying the checkpoint is damaged unless `computed`, the checksum of what was
/// read from `file`, is the one stored when it was written.
void verify_checkpoint(const InputFile& file, std::uint64_t computed);

/// Throws BadCheckpoint "cannot resume from '<path>': <problem>".
[[noreturn]] void refuse_checkpoint(const std::string& path, const std::string& problem);

/// BadCheckpoint naming the dataset unless it holds `expected` values: a reader checks this
/// before it cuts a flat dataset into rows, whatever a damaged file claims.
void require_size(const InputFile& file, const std::string& dataset, std::size_t size,
                  std::size_t expected);

/// Runs `read`, which reads the contents of a checkpoint opened by open_checkpoint, and turns
/// the HDF5 layer's std::runtime_error (a dataset missing, unreadable or of another type) into
/// BadCheckpoint: in a file that is a checkpoint of this app, that means damage or a layout of
/// another portamc version. So are allocation failures: a damaged dataset shape can claim
/// more values than any memory holds.
template <class Read>
auto read_checkpoint_contents(const InputFile& file, Read&& read) -> decltype(read()) {
  const std::string problem = "the checkpoint is damaged or of another portamc version: ";
  try {
    return read();
  } catch (const std::runtime_error& error) {
    refuse_checkpoint(file.path(), problem + error.what());
  } catch (const std::length_error& error) {
    refuse_checkpoint(file.path(), problem + error.what());
  } catch (const std::bad_alloc&) {
    refuse_checkpoint(file.path(), problem + "a dataset holds more values than fit in memory");
  }
}

/// The whole read of a checkpoint of `app`: open_checkpoint, `read` (InputFile -> C) under
/// read_checkpoint_contents, the checksum of what was read (`checksum`: C, the /config text ->
/// std::uint64_t) verified, then `check` (C, path) for the ranges. Returns what was read.
template <class Read, class Checksum, class Check>
auto read_verified_checkpoint(const std::string& path, const std::string& app, Read&& read,
                              Checksum&& checksum, Check&& check) {
  const InputFile file = open_checkpoint(path, app);
  decltype(read(file)) contents;
  const std::uint64_t computed = read_checkpoint_contents(file, [&] {
    contents = read(file);
    return checksum(contents, file.read_string("/config"));
  });
  verify_checkpoint(file, computed);
  check(contents, path);
  return contents;
}

}  // namespace portamc::h5

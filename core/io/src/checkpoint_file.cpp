#include "portamc/checkpoint_file.hpp"

#include <filesystem>
#include <optional>
#include <utility>

#include "portamc/checksum.hpp"

namespace portamc::h5 {

namespace fs = std::filesystem;

void refuse_checkpoint(const std::string& path, const std::string& problem) {
  throw BadCheckpoint("cannot resume from '" + path + "': " + problem);
}

void seal_checkpoint(Group root, std::uint64_t checksum) {
  root.attribute(kChecksumAttribute, checksum_text(checksum));
}

// The file itself, before HDF5 sees it: HDF5's own reasons for a missing or empty file are
// obscure ("unable to open file: name = ..., errno = 2, ...").
void require_resumable_file(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) refuse_checkpoint(path, "no such file");
  if (error) refuse_checkpoint(path, error.message());  // e.g. a directory we may not enter
  if (!fs::is_regular_file(status)) refuse_checkpoint(path, "not a regular file");
  const std::uintmax_t size = fs::file_size(path, error);
  if (!error && size == 0)
    refuse_checkpoint(path, "the file is empty (its writing was cut off, or it is no checkpoint)");
}

namespace {

InputFile open_owned_by(const std::string& path, const std::string& app) {
  std::optional<InputFile> file;
  try {
    file.emplace(path);
  } catch (const std::runtime_error& error) {
    refuse_checkpoint(path, std::string("not a readable HDF5 file: it is truncated, damaged or "
                                        "no checkpoint (") +
                                error.what() + ")");
  }
  if (!file->has_attribute("/", "portamc_checkpoint"))
    refuse_checkpoint(path, "not a portamc checkpoint (no root attribute portamc_checkpoint)");
  const std::string owner = file->attribute_string("/", "portamc_checkpoint");
  if (owner != app)
    refuse_checkpoint(path, "a checkpoint of portamc-" + owner + ", not of portamc-" + app);
  if (!file->has_attribute("/", kChecksumAttribute))
    refuse_checkpoint(path,
                      "the checkpoint has no checksum: it was written by a portamc older than "
                      "checksummed checkpoints, and those are not resumed; start the run again");
  return std::move(*file);
}

}  // namespace

InputFile open_checkpoint(const std::string& path, const std::string& app) {
  require_resumable_file(path);
  try {
    return open_owned_by(path, app);
  } catch (const std::runtime_error& error) {  // unreadable attributes: damaged metadata
    refuse_checkpoint(path, std::string("the checkpoint is damaged: ") + error.what());
  }
}

void verify_checkpoint(const InputFile& file, std::uint64_t computed) {
  std::string stored;
  try {
    stored = file.attribute_string("/", kChecksumAttribute);
  } catch (const std::runtime_error& error) {
    refuse_checkpoint(file.path(), std::string("the checkpoint is damaged: ") + error.what());
  }
  if (stored != checksum_text(computed))
    refuse_checkpoint(file.path(), "the checkpoint is damaged: what it holds has checksum " +
                                       checksum_text(computed) + ", but it was written with " +
                                       stored + " (root attribute " + kChecksumAttribute + ")");
}

void require_size(const InputFile& file, const std::string& dataset, std::size_t size,
                  std::size_t expected) {
  if (size != expected)
    refuse_checkpoint(file.path(), "the checkpoint is damaged or inconsistent: " + dataset +
                                       " holds " + std::to_string(size) +
                                       " values where the checkpoint needs " +
                                       std::to_string(expected));
}

}  // namespace portamc::h5

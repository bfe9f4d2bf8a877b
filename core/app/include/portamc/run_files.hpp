#pragma once
// The files of one run, checked before any work starts so that no input, flag or typo can
// destroy a user's file:
//  - no two of the input, the output, the checkpoint and any other written file may be the same
//    file (compared by resolved path, and by device and inode where the file exists); the
//    --resume file may be the checkpoint (that is how a run continues), nothing else written;
//  - a written file that exists as a directory, device, FIFO or socket is refused: portamc
//    writes a new file and renames it, which would replace the node;
//  - a written file that is a symbolic link is refused unless replace_links (--force): the
//    rename replaces the link itself, not the file it points to.
// A checkpoint is also locked for the whole run (FileLock), so two runs cannot share it.
#include <string>
#include <vector>

namespace portamc::app {

struct NamedFile {
  std::string role;  ///< how the user names it: "output", "checkpoint.file", ...
  std::string path;
  bool resumable = false;  ///< the checkpoint: may be the --resume file
};

struct RunFiles {
  std::string input;               ///< YAML input; empty = none
  std::string resume;              ///< --resume file; empty = none
  std::vector<NamedFile> written;  ///< every file the run writes; empty paths are skipped
  std::vector<NamedFile> read;     ///< other files it reads (a start configuration, ...)
  bool replace_links = false;      ///< --force: a written symbolic link may be replaced
};

/// Throws std::invalid_argument naming the files and the rule they break.
void check_run_files(const RunFiles& files);

/// An advisory lock (flock) on '<path>.lock', taken without waiting and held until destroyed.
/// Throws std::invalid_argument when another process holds it, naming that process. The lock
/// file is removed when the lock is released.
class FileLock {
 public:
  FileLock() = default;
  FileLock(const std::string& path, const std::string& role);
  ~FileLock();
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return fd_ >= 0; }

 private:
  void release() noexcept;
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace portamc::app

#include "portamc/run_files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace portamc::app {
namespace {

namespace fs = std::filesystem;

// What decides whether two names are one file: the path with every link resolved, and the
// device and inode where the file exists (hard links, bind mounts, other spellings).
struct Identity {
  std::string resolved;
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
};

Identity identify(const std::string& path) {
  Identity id;
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  const fs::path resolved = fs::weakly_canonical(error ? fs::path(path) : absolute, error);
  id.resolved = error ? absolute.lexically_normal().string() : resolved.string();
  struct stat s {};
  if (::stat(path.c_str(), &s) == 0) {
    id.exists = true;
    id.device = s.st_dev;
    id.inode = s.st_ino;
  }
  return id;
}

bool same_file(const Identity& a, const Identity& b) {
  return a.resolved == b.resolved ||
         (a.exists && b.exists && a.device == b.device && a.inode == b.inode);
}

std::string named(const NamedFile& f) {
  return f.role + " '" + f.path + "'";
}

// Refuses a written path whose existing node a rename would destroy or could not replace.
void check_replaceable(const NamedFile& f, bool replace_links) {
  struct stat s {};
  if (::lstat(f.path.c_str(), &s) != 0) return;  // not there yet: the usual case
  if (S_ISLNK(s.st_mode)) {
    if (replace_links) return;
    std::error_code error;
    const fs::path target = fs::read_symlink(f.path, error);
    throw std::invalid_argument(
        named(f) + " is a symbolic link" + (error ? "" : " to '" + target.string() + "'") +
        "; portamc writes a new file and renames it over the name, which replaces the link " +
        "itself: name the target instead, or pass --force to replace the link");
  }
  const char* kind = S_ISDIR(s.st_mode)    ? "a directory"
                     : S_ISCHR(s.st_mode)  ? "a character device"
                     : S_ISBLK(s.st_mode)  ? "a block device"
                     : S_ISFIFO(s.st_mode) ? "a FIFO"
                     : S_ISSOCK(s.st_mode) ? "a socket"
                                           : nullptr;
  if (kind != nullptr)
    throw std::invalid_argument(named(f) + " is " + kind +
                                ", not a regular file; portamc would replace it: name a file");
}

}  // namespace

void check_run_files(const RunFiles& files) {
  std::vector<NamedFile> written;
  for (const NamedFile& f : files.written)
    if (!f.path.empty()) written.push_back(f);
  std::vector<Identity> ids;
  for (const NamedFile& f : written) {
    check_replaceable(f, files.replace_links);
    ids.push_back(identify(f.path));
  }
  for (std::size_t i = 0; i < written.size(); ++i)
    for (std::size_t j = i + 1; j < written.size(); ++j)
      if (same_file(ids[i], ids[j]))
        throw std::invalid_argument(named(written[i]) + " and " + named(written[j]) +
                                    " are the same file; one would overwrite the other: give "
                                    "them different names");
  const auto against_read = [&](const std::string& path, const std::string& role,
                                bool checkpoint_allowed) {
    if (path.empty()) return;
    const Identity read = identify(path);
    for (std::size_t i = 0; i < written.size(); ++i) {
      if (checkpoint_allowed && written[i].resumable) continue;
      if (same_file(read, ids[i]))
        throw std::invalid_argument(role + " '" + path + "' is also the " + named(written[i]) +
                                    "; the run would overwrite it: give the " + written[i].role +
                                    " another name");
    }
  };
  against_read(files.input, "input file", false);
  against_read(files.resume, "--resume file", true);
  for (const NamedFile& f : files.read) against_read(f.path, f.role, false);
}

FileLock::FileLock(const std::string& path, const std::string& role) : lock_path_(path + ".lock") {
  // Another process may remove the lock file between our open and our flock (it releases by
  // unlinking): then we hold a lock on a name nobody sees, so check the name and try again.
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      const int saved = errno;
      throw std::invalid_argument("cannot create the lock '" + lock_path_ + "' of " + role + " '" +
                                  path + "': " + std::strerror(saved));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int saved = errno;
      if (saved == EWOULDBLOCK) {
        char holder[64] = {};
        [[maybe_unused]] const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
        ::close(fd);
        std::string who(holder);
        while (!who.empty() && (who.back() == '\n' || who.back() == '\0')) who.pop_back();
        throw std::invalid_argument(role + " '" + path + "' is in use by another run" +
                                    (who.empty() ? "" : " (" + who + ")") + ", which holds '" +
                                    lock_path_ + "'; give this run another output or " + role);
      }
      // File systems without flock (some parallel ones): run unlocked rather than not at all.
      ::close(fd);
      lock_path_.clear();
      return;
    }
    struct stat by_fd {
    }, by_name{};
    if (::fstat(fd, &by_fd) == 0 && ::stat(lock_path_.c_str(), &by_name) == 0 &&
        by_fd.st_ino == by_name.st_ino && by_fd.st_dev == by_name.st_dev) {
      fd_ = fd;
      char host[64] = {};
      ::gethostname(host, sizeof host - 1);
      const std::string who =
          "process " + std::to_string(::getpid()) + " on " + std::string(host) + "\n";
      if (::ftruncate(fd, 0) == 0) {
        [[maybe_unused]] const ssize_t n = ::pwrite(fd, who.data(), who.size(), 0);
      }
      return;
    }
    ::close(fd);
  }
  throw std::runtime_error("cannot lock '" + lock_path_ + "': it keeps being replaced");
}

void FileLock::release() noexcept {
  if (fd_ < 0) return;
  ::unlink(lock_path_.c_str());  // while still locked: a waiting run then retries on a new file
  ::close(fd_);
  fd_ = -1;
}

FileLock::~FileLock() {
  release();
}

FileLock::FileLock(FileLock&& other) noexcept
    : lock_path_(std::move(other.lock_path_)), fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    lock_path_ = std::move(other.lock_path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

}  // namespace portamc::app

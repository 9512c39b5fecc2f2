#include "util/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "util/atomic_file.h"

namespace knightgym {
namespace {

// The pid holding a flock on the file open as `fd`, from the kernel's table of locks
// (/proc/locks: "1: FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF"), or 0
// where the system does not tell.
long holder_of(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return 0;
  char device[64];
  std::snprintf(device, sizeof device, "%02x:%02x:%llu", major(info.st_dev), minor(info.st_dev),
                static_cast<unsigned long long>(info.st_ino));
  std::istringstream table(read_file("/proc/locks").value_or(""));
  std::string number, kind, mode, access, file;
  long pid = 0;
  std::string line;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    // Waiters' lines ("2: -> FLOCK ...") do not parse as a kind then a pid here.
    if (fields >> number >> kind >> mode >> access >> pid >> file && kind == "FLOCK" &&
        file == device)
      return pid;
  }
  return 0;
}

[[noreturn]] void refuse(const std::string& path, int error, const std::string& why) {
  throw OutputRefused(error, "cannot write '" + path + "': " + why);
}

[[noreturn]] void refuse(const std::string& path, int error) {
  refuse(path, error, std::strerror(error));
}

// Takes the lock on `fd` (the output open as `path`), or closes it and refuses by name.
// An output made here and locked by another writer since is that writer's: left alone.
void lock_or_refuse(int fd, const std::string& path, bool made) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return;
  const int error = errno;
  const long holder = error == EWOULDBLOCK ? holder_of(fd) : 0;
  ::close(fd);
  if (error != EWOULDBLOCK) {
    if (made) std::remove(path.c_str());
    refuse(path, error);
  }
  refuse(path, error,
         "another writer holds it (" +
             (holder ? "pid " + std::to_string(holder) : std::string("another process")) +
             "): one writer per output; wait for it to end, or write elsewhere");
}

}  // namespace

OutputLock::OutputLock(std::string path, int fd, bool made, bool is_folder)
    : path_(std::move(path)), fd_(fd), made_(made), is_folder_(is_folder) {}

OutputLock OutputLock::folder(const std::string& dir) {
  namespace fs = std::filesystem;
  if (dir.empty()) refuse(dir, ENOENT, "an empty path");
  std::error_code error;
  const bool made = !fs::exists(dir, error);
  if (made && !fs::create_directories(dir, error) && error)
    refuse(dir, error.value(), error.message());
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 && errno == ENOTDIR) refuse(dir, ENOTDIR, "it is not a folder");
  if (fd < 0) refuse(dir, errno);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    const int why = errno;
    ::close(fd);
    refuse(dir, why);
  }
  lock_or_refuse(fd, dir, made);
  return OutputLock(dir, fd, made, true);
}

OutputLock OutputLock::file(const std::string& path) {
  if (path.empty()) refuse(path, ENOENT, "an empty path");
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  bool made = false;
  if (fd < 0 && errno == ENOENT) {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    made = fd >= 0;
  }
  if (fd < 0 && errno == EISDIR) refuse(path, EISDIR, "it is a folder");
  if (fd < 0) refuse(path, errno);
  lock_or_refuse(fd, path, made);
  return OutputLock(path, fd, made, false);
}

std::vector<OutputLock> lock_files(const std::vector<std::string>& paths) {
  std::vector<OutputLock> locks;
  for (const std::string& path : paths)
    if (!path.empty()) locks.push_back(OutputLock::file(path));
  return locks;
}

OutputLock::OutputLock(OutputLock&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      made_(other.made_),
      is_folder_(other.is_folder_) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    made_ = other.made_;
    is_folder_ = other.is_folder_;
  }
  return *this;
}

OutputLock::~OutputLock() { release(); }

void OutputLock::release() {
  if (fd_ < 0) return;
  if (made_ && is_folder_) {
    ::rmdir(path_.c_str());  // fails, as it should, unless the folder is still empty
  } else if (made_) {
    // Still the empty file made here, not yet replaced by the output.
    struct stat held {
    }, named{};
    if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        held.st_ino == named.st_ino && held.st_dev == named.st_dev && named.st_size == 0)
      ::unlink(path_.c_str());
  }
  ::close(fd_);  // releases the flock
  fd_ = -1;
}

}  // namespace knightgym

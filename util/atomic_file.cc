#include "util/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace knightgym {
namespace {

constexpr std::string_view kTemporaryMark = ".tmp";

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

// Where write_file_atomically puts the bytes before the rename.
std::string temporary_of(const std::string& path) {
  return path + std::string(kTemporaryMark) + std::to_string(::getpid());
}

}  // namespace

std::optional<std::string> read_file(const std::string& path) {
  // Opened without blocking and checked before reading: a FIFO or a device would wait for
  // a writer, or never end.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat info {};
  std::optional<std::string> bytes;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    bytes.emplace();
    bytes->reserve(static_cast<size_t>(info.st_size));
    char buffer[1 << 16];
    for (;;) {
      const ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        bytes.reset();
        break;
      }
      if (got == 0) break;
      bytes->append(buffer, static_cast<size_t>(got));
    }
  }
  ::close(fd);
  return bytes;
}

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), temporary_(temporary_of(path_)) {
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("open");
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ < 0) return;
  ::close(fd_);
  std::remove(temporary_.c_str());
}

void AtomicFileWriter::fail(const char* step) {
  const std::string why = std::strerror(errno);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::remove(temporary_.c_str());
  throw std::runtime_error("cannot write '" + path_ + "' (" + step + "): " + why);
}

void AtomicFileWriter::append(std::string_view bytes) {
  if (fd_ < 0) throw std::logic_error("AtomicFileWriter: append after commit or failure");
  if (!write_all(fd_, bytes)) fail("write");
}

void AtomicFileWriter::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFileWriter: commit after commit or failure");
  if (::fsync(fd_) != 0) fail("write");
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) fail("write");
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) fail("rename");
  // The rename itself lasts once the directory is on disk.
  const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
  if (const int dir =
          ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  AtomicFileWriter file(path);
  file.append(bytes);
  file.commit();
}

bool is_atomic_temporary(std::string_view filename) {
  const size_t mark = filename.rfind(kTemporaryMark);
  if (mark == std::string_view::npos || mark + kTemporaryMark.size() == filename.size())
    return false;
  for (size_t i = mark + kTemporaryMark.size(); i < filename.size(); ++i)
    if (filename[i] < '0' || filename[i] > '9') return false;
  return true;
}

bool is_stale_temporary(std::string_view filename) {
  if (!is_atomic_temporary(filename)) return false;
  const std::string_view digits = filename.substr(filename.rfind(kTemporaryMark) + 4);
  // A number past any pid (the kernel's pid_max is at most 2^22) names no live process.
  if (digits.size() > 9) return true;
  const pid_t writer = static_cast<pid_t>(std::stol(std::string(digits)));
  return ::kill(writer, 0) != 0 && errno == ESRCH;
}

}  // namespace knightgym

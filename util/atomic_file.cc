#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

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

void check_writable(const std::string& path) {
  std::error_code error;
  if (path.empty() || std::filesystem::is_directory(path, error))
    throw std::runtime_error("cannot write '" + path +
                             "': " + (path.empty() ? "an empty path" : "it is a folder"));
  const std::string temporary = temporary_of(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  ::close(fd);
  std::remove(temporary.c_str());
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string temporary = temporary_of(path);
  const auto fail = [&](const char* step) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + path + "' (" + step + "): " + why);
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("open");
  const bool written = write_all(fd, bytes) && ::fsync(fd) == 0;
  const int saved_errno = errno;
  ::close(fd);
  errno = saved_errno;
  if (!written) fail("write");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("rename");
  // The rename itself lasts once the directory is on disk.
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (const int dir =
          ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

bool is_atomic_temporary(std::string_view filename) {
  const size_t mark = filename.rfind(kTemporaryMark);
  if (mark == std::string_view::npos || mark + kTemporaryMark.size() == filename.size())
    return false;
  for (size_t i = mark + kTemporaryMark.size(); i < filename.size(); ++i)
    if (filename[i] < '0' || filename[i] > '9') return false;
  return true;
}

}  // namespace knightgym

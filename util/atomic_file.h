// Files that are either wholly written or not there: the bytes go to a temporary file
// beside the target, are flushed to disk, and the temporary is renamed over the target
// (rename is atomic on POSIX file systems), then the directory entry is flushed too. A
// crash at any moment leaves the old file or the new one, never a mix; at worst a
// stray "<name>.tmp<pid>" that readers ignore.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace knightgym {

// Throws std::runtime_error naming the path and the system's reason.
void write_file_atomically(const std::string& path, std::string_view bytes);

// The same for a file written in parts (a stream of records too large to hold): the parts
// go to the temporary, and commit() flushes it and renames it over `path`. Destroyed
// without commit() (a failure, an exception), it removes the temporary: `path` is left as
// it was. Every write is checked; a failed one throws std::runtime_error naming the path.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void append(std::string_view bytes);
  void commit();

 private:
  [[noreturn]] void fail(const char* step);

  std::string path_, temporary_;
  int fd_ = -1;
};

// True for the temporary files write_file_atomically leaves behind when killed.
bool is_atomic_temporary(std::string_view filename);

// True for such a temporary whose writer (the pid in its name) no longer runs: one that a
// cleaner deletes without deleting a live process's write in progress.
bool is_stale_temporary(std::string_view filename);

// A whole regular file's bytes, or nothing if it cannot be read or is no regular file (a
// FIFO, a device, a folder: never waited on); callers name the problem.
std::optional<std::string> read_file(const std::string& path);

}  // namespace knightgym

// One writer per output (ARCHITECTURE.md): a command that writes a folder or a file holds an
// OutputLock on it for its lifetime, and a second writer is refused at once, by name and
// with the holder's pid. The lock is the kernel's advisory lock (flock) on the output
// itself, so it leaves no file behind and the kernel releases it when the process dies,
// however it dies: a kill -9 never leaves a stale lock. Two locks on one output conflict
// within one process too (flock belongs to each open), so two threads are two writers.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace knightgym {

// Why an output cannot be written: the system's error number (EWOULDBLOCK: another writer
// holds it) and a message naming the output. Python sees it as the OSError of that number
// (BlockingIOError, PermissionError, NotADirectoryError, ...).
class OutputRefused : public std::runtime_error {
 public:
  OutputRefused(int error_number, const std::string& message)
      : std::runtime_error(message), error_number_(error_number) {}
  int error_number() const { return error_number_; }

 private:
  int error_number_;
};

class OutputLock {
 public:
  // Locks the folder `dir`, making it (and its parents) if needed, once it is sure the
  // process can write into it. Throws OutputRefused naming the folder and the reason:
  // another writer (with its pid where the system tells it), not a folder, not writable.
  static OutputLock folder(const std::string& dir);
  // Locks the file `path`, making it empty if it is not there (its folder must be); it is
  // then opened for writing, so an unwritable path is refused here, before any work. The
  // file is meant to be replaced whole (write_file_atomically) by the holder. Throws as
  // folder() does.
  static OutputLock file(const std::string& path);

  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  // Releases the lock; an output this lock made and nothing has filled since (an empty
  // folder, an empty file not yet replaced) is removed, so a command refused or failed
  // before writing leaves nothing behind.
  ~OutputLock();

  const std::string& path() const { return path_; }

 private:
  OutputLock(std::string path, int fd, bool made, bool is_folder);
  void release();

  std::string path_;
  int fd_ = -1;
  bool made_ = false;
  bool is_folder_ = false;
};

// OutputLock::file of each path given (empty ones skipped): a command's output files,
// locked, made and so known writable before its work.
std::vector<OutputLock> lock_files(const std::vector<std::string>& paths);

}  // namespace knightgym

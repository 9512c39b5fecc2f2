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

// True for the temporary files write_file_atomically leaves behind when killed.
bool is_atomic_temporary(std::string_view filename);

// A whole regular file's bytes, or nothing if it cannot be read or is no regular file (a
// FIFO, a device, a folder: never waited on); callers name the problem.
std::optional<std::string> read_file(const std::string& path);

}  // namespace knightgym

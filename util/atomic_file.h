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

// Throws std::runtime_error naming the path and the reason if write_file_atomically could
// not write it now (the path a folder; its folder missing, not a folder or not writable),
// found by making and removing its temporary: for a command to refuse an output before
// its work, not after. Changes nothing.
void check_writable(const std::string& path);

// True for the temporary files write_file_atomically leaves behind when killed.
bool is_atomic_temporary(std::string_view filename);

// A whole regular file's bytes, or nothing if it cannot be read or is no regular file (a
// FIFO, a device, a folder: never waited on); callers name the problem.
std::optional<std::string> read_file(const std::string& path);

}  // namespace knightgym

// A ZIP archive (PyTorch's network and checkpoint files) checked before anything inflates
// it: its directory read in one linear pass, in bounded memory, and every member's sizes
// held against the file's own. A member that would inflate past what a network of that
// file size can hold (a "zip bomb": a few MB that inflate to GBs) is refused by name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace knightgym {

// The most bytes the members of an archive of `file_bytes` bytes may inflate to, in all:
// PyTorch writes members stored (not compressed), so a network's members take about the
// file's bytes; four times that, and 1 MiB more for small files, leaves any honest file a
// wide margin and refuses every bomb.
int64_t most_inflated_bytes(int64_t file_bytes);

// Nothing if `bytes` is a ZIP archive whose members fit; otherwise the problem, for the
// caller's message: no ZIP directory, one that runs past the file, a member with an
// unknown method, a stored member whose sizes differ, or the member whose declared size
// takes the total past most_inflated_bytes. Reads only the directory.
std::optional<std::string> zip_archive_problem(std::string_view bytes);

}  // namespace knightgym

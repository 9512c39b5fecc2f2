#include "util/zip_archive_check.h"

#include <algorithm>

namespace knightgym {
namespace {

// The ZIP format's records (PKWARE's APPNOTE): signatures, fixed sizes, and the values
// that say "the real one is in the ZIP64 record".
constexpr uint32_t kEndSignature = 0x06054b50, kEnd64Signature = 0x06064b50,
                   kLocatorSignature = 0x07064b50, kEntrySignature = 0x02014b50;
constexpr size_t kEndBytes = 22, kLocatorBytes = 20, kEnd64Bytes = 56, kEntryBytes = 46;
constexpr uint16_t kZip64Extra = 0x0001;
constexpr uint16_t kStored = 0, kDeflated = 8;
constexpr uint32_t kSaturated32 = 0xffffffff;
constexpr uint16_t kSaturated16 = 0xffff;

// Thrown by the reader with the problem; zip_archive_problem returns it.
struct Problem {
  std::string why;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  [[noreturn]] void fail(const std::string& why) const { throw Problem{why}; }
  // Little-endian unsigned of `width` bytes at `at`, which must lie inside the file.
  uint64_t number(uint64_t at, int width) const {
    if (at > bytes_.size() || bytes_.size() - at < static_cast<uint64_t>(width))
      fail("a damaged ZIP archive: a record runs past the end of the file");
    uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i)
      value = value << 8 | static_cast<unsigned char>(bytes_[at + static_cast<uint64_t>(i)]);
    return value;
  }
  uint64_t size() const { return bytes_.size(); }
  std::string_view text(uint64_t at, uint64_t length) const {
    if (at > bytes_.size() || bytes_.size() - at < length)
      fail("a damaged ZIP archive: a name runs past the file");
    return bytes_.substr(at, length);
  }

 private:
  std::string_view bytes_;
};

// A member's name as a message quotes it: at most 100 characters, anything but printable
// ASCII shown as '?' (a hostile name could hold a NUL or a terminal's escapes).
std::string printable(std::string_view name) {
  std::string shown(name.substr(0, 100));
  for (char& c : shown)
    if (c < 0x20 || c > 0x7e) c = '?';
  return shown;
}

struct Directory {
  uint64_t entries = 0, offset = 0, bytes = 0;
};

// The central directory's place, from the end record (and its ZIP64 twin where the end
// record's fields are saturated). The end record is within the last 64 KiB + 22 bytes (its
// comment is at most 65,535 bytes): a bounded backward search.
Directory find_directory(const Reader& in) {
  if (in.size() < kEndBytes) in.fail("not a ZIP archive: too short");
  const uint64_t lowest = in.size() - kEndBytes - std::min<uint64_t>(in.size() - kEndBytes, 65535);
  uint64_t end = in.size() - kEndBytes;
  while (in.number(end, 4) != kEndSignature) {
    if (end == lowest) in.fail("not a ZIP archive: no end record");
    --end;
  }
  Directory d{in.number(end + 10, 2), in.number(end + 16, 4), in.number(end + 12, 4)};
  if (d.entries == kSaturated16 || d.offset == kSaturated32 || d.bytes == kSaturated32) {
    if (end < kLocatorBytes || in.number(end - kLocatorBytes, 4) != kLocatorSignature)
      in.fail("a damaged ZIP archive: a saturated end record without its ZIP64 locator");
    const uint64_t end64 = in.number(end - kLocatorBytes + 8, 8);
    if (in.number(end64, 4) != kEnd64Signature || end64 + kEnd64Bytes > in.size())
      in.fail("a damaged ZIP archive: no ZIP64 end record where its locator says");
    d = {in.number(end64 + 32, 8), in.number(end64 + 48, 8), in.number(end64 + 40, 8)};
  }
  if (d.offset > in.size() || d.bytes > in.size() - d.offset)
    in.fail("a damaged ZIP archive: the directory runs past the end of the file");
  if (d.entries > d.bytes / kEntryBytes)
    in.fail("a damaged ZIP archive: more entries than the directory can hold");
  return d;
}

}  // namespace

int64_t most_inflated_bytes(int64_t file_bytes) { return 4 * file_bytes + (int64_t{1} << 20); }

std::optional<std::string> zip_archive_problem(std::string_view bytes) try {
  const Reader in(bytes);
  const Directory directory = find_directory(in);
  const uint64_t most = static_cast<uint64_t>(most_inflated_bytes(static_cast<int64_t>(in.size())));
  uint64_t at = directory.offset, inflated = 0;
  for (uint64_t e = 0; e < directory.entries; ++e) {
    if (in.number(at, 4) != kEntrySignature)
      in.fail("a damaged ZIP archive: a directory entry without its signature");
    const uint64_t method = in.number(at + 10, 2);
    uint64_t packed = in.number(at + 20, 4), unpacked = in.number(at + 24, 4);
    const uint64_t name_bytes = in.number(at + 28, 2), extra_bytes = in.number(at + 30, 2),
                   comment_bytes = in.number(at + 32, 2);
    const std::string name(in.text(at + kEntryBytes, name_bytes));
    // The ZIP64 extra field holds, in this order, those of the sizes that are saturated.
    for (uint64_t x = at + kEntryBytes + name_bytes, x_end = x + extra_bytes; x + 4 <= x_end;) {
      const uint64_t id = in.number(x, 2), length = in.number(x + 2, 2);
      if (id == kZip64Extra) {
        uint64_t field = x + 4;
        if (unpacked == kSaturated32) unpacked = in.number(field, 8), field += 8;
        if (packed == kSaturated32) packed = in.number(field, 8);
      }
      x += 4 + length;
    }
    const std::string member = "member '" + printable(name) + "'";
    if (method != kStored && method != kDeflated)
      in.fail(member + " is packed by method " + std::to_string(method));
    if (packed > in.size()) in.fail(member + " is larger than the file");
    if (method == kStored && packed != unpacked)
      in.fail(member + " is stored with two sizes, " + std::to_string(packed) + " and " +
              std::to_string(unpacked));
    inflated += std::min(unpacked, most + 1);
    if (inflated > most)
      in.fail(member + " inflates to " + std::to_string(unpacked) + " bytes, past the " +
              std::to_string(most) + " that a file of " + std::to_string(in.size()) +
              " bytes can hold (refused before inflating it)");
    at += kEntryBytes + name_bytes + extra_bytes + comment_bytes;
  }
  return std::nullopt;
} catch (const Problem& problem) {
  return problem.why;
}

}  // namespace knightgym

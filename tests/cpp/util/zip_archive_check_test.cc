// ZIP archives checked before they inflate: a shipped network passes; a member declared
// to inflate far past the file (a zip bomb, plain or through ZIP64's fields), a stored
// member with two sizes, an unknown method and every truncation are refused by name,
// reading the directory alone.
#include "util/zip_archive_check.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "util/atomic_file.h"

namespace knightgym {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

void put(std::string& out, uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out += static_cast<char>(value >> (8 * i) & 0xff);
}

struct Member {
  std::string name;
  uint16_t method;
  uint64_t packed, unpacked;
};

// An archive of `members`' directory (their data as zero bytes, `packed` each), its sizes
// in ZIP64's fields when `zip64`.
std::string archive(const std::vector<Member>& members, bool zip64 = false) {
  std::string data, directory;
  for (const Member& m : members) {
    const uint64_t offset = data.size();
    data.append(30 + m.name.size(), '\0');  // the local header's room
    data.append(m.packed, '\0');
    put(directory, 0x02014b50, 4);
    put(directory, 45, 2);
    put(directory, 45, 2);
    put(directory, 0, 2);
    put(directory, m.method, 2);
    put(directory, 0, 8);  // time, date, crc
    put(directory, zip64 ? 0xffffffff : m.packed, 4);
    put(directory, zip64 ? 0xffffffff : m.unpacked, 4);
    put(directory, m.name.size(), 2);
    put(directory, zip64 ? 20 : 0, 2);
    directory.append(10, '\0');  // comment, disk, attributes
    put(directory, offset, 4);
    directory += m.name;
    if (zip64) {
      put(directory, 0x0001, 2);
      put(directory, 16, 2);
      put(directory, m.unpacked, 8);
      put(directory, m.packed, 8);
    }
  }
  std::string out = data + directory;
  if (zip64) {
    const uint64_t end64 = out.size();
    put(out, 0x06064b50, 4);
    put(out, 44, 8);
    put(out, 45, 2);
    put(out, 45, 2);
    put(out, 0, 8);
    put(out, members.size(), 8);
    put(out, members.size(), 8);
    put(out, directory.size(), 8);
    put(out, data.size(), 8);
    put(out, 0x07064b50, 4);
    put(out, 0, 4);
    put(out, end64, 8);
    put(out, 1, 4);
  }
  put(out, 0x06054b50, 4);
  put(out, 0, 4);
  put(out, zip64 ? 0xffff : members.size(), 2);
  put(out, zip64 ? 0xffff : members.size(), 2);
  put(out, zip64 ? 0xffffffff : directory.size(), 4);
  put(out, zip64 ? 0xffffffff : data.size(), 4);
  put(out, 0, 2);
  return out;
}

TEST_CASE("check_zip_archive: the shipped networks pass", "[util]") {
  for (const char* name : {"tailten.pt", "knight_fight.pt", "knightmate.pt"}) {
    const std::string bytes = read_file(std::string(KNIGHTGYM_MODELS_DIR) + "/" + name).value();
    CHECK(zip_archive_problem(bytes) == std::nullopt);
  }
  CHECK(zip_archive_problem(archive({{"a/data.pkl", 8, 100, 5000}})) == std::nullopt);
  CHECK(zip_archive_problem(archive({{"a/data/0", 0, 64, 64}}, true)) == std::nullopt);
}

TEST_CASE("check_zip_archive: a member that inflates past the file is refused by name", "[util]") {
  const uint64_t gib = uint64_t{1} << 30;
  for (const bool zip64 : {false, true}) {
    const std::string bomb =
        archive({{"archive/data.pkl", 8, 900, 900}, {"archive/version", 8, 1000, gib}}, zip64);
    CHECK_THAT(zip_archive_problem(bomb).value(),
               StartsWith("member 'archive/version' inflates to 1073741824 bytes") &&
                   Contains("that a file of " + std::to_string(bomb.size()) + " bytes can hold"));
  }
  // Many members, each small, that inflate past the bound together.
  std::vector<Member> many;
  for (int i = 0; i < 40; ++i) {
    std::string name = "m";
    name += std::to_string(i);
    many.push_back({name, 8, 10, 100000});
  }
  CHECK_THAT(zip_archive_problem(archive(many)).value(), StartsWith("member 'm"));
}

TEST_CASE("check_zip_archive: damaged directories are refused, never read past the file",
          "[util]") {
  CHECK(zip_archive_problem("") == "not a ZIP archive: too short");
  CHECK(zip_archive_problem(std::string(5000, 'z')) == "not a ZIP archive: no end record");
  CHECK(zip_archive_problem(archive({{"s", 0, 10, 20}})) ==
        "member 's' is stored with two sizes, 10 and 20");
  CHECK(zip_archive_problem(archive({{"odd", 99, 10, 10}})) ==
        "member 'odd' is packed by method 99");
  std::string hostile = archive({{std::string("a\0\x1b[2J", 6), 99, 1, 1}});
  CHECK(zip_archive_problem(hostile) == "member 'a??[2J' is packed by method 99");
  // Every cut of a real network's tail: refused or passed, never a read past the bytes
  // (the sanitizers' builds run this too).
  const std::string bytes = read_file(std::string(KNIGHTGYM_MODELS_DIR) + "/tailten.pt").value();
  for (size_t cut = 1; cut < 400; ++cut)
    CHECK(zip_archive_problem(std::string_view(bytes).substr(0, bytes.size() - cut)));
}

}  // namespace
}  // namespace knightgym

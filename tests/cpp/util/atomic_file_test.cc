// Whole files or none: check_writable refuses what write_file_atomically would fail to
// write, before any work, and leaves nothing behind either way.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/cpp/test_files.h"
#include "util/atomic_file.h"

namespace knightgym {
namespace {

using Catch::Matchers::Contains;
using testing::temporary_dir;

TEST_CASE("check_writable: a writable path passes and is left as it was", "[util]") {
  const std::string dir = temporary_dir("check_writable_ok");
  CHECK_NOTHROW(check_writable(dir + "/out.json"));
  CHECK(std::filesystem::is_empty(dir));
  write_file_atomically(dir + "/out.json", "kept");
  CHECK_NOTHROW(check_writable(dir + "/out.json"));
  CHECK(read_file(dir + "/out.json") == "kept");
  CHECK(std::distance(std::filesystem::directory_iterator(dir),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("check_writable: a folder, a missing folder and an empty path are refused by name",
          "[util]") {
  const std::string dir = temporary_dir("check_writable_refused");
  CHECK_THROWS_WITH(check_writable(dir), Contains("cannot write '" + dir + "': it is a folder"));
  CHECK_THROWS_WITH(check_writable(dir + "/missing/out.json"),
                    Contains("cannot write '" + dir + "/missing/out.json': No such file"));
  write_file_atomically(dir + "/file", "x");
  CHECK_THROWS_WITH(check_writable(dir + "/file/out.json"), Contains("Not a directory"));
  CHECK_THROWS_WITH(check_writable(""), Contains("an empty path"));
  CHECK(std::distance(std::filesystem::directory_iterator(dir),
                      std::filesystem::directory_iterator()) == 1);
}

}  // namespace
}  // namespace knightgym

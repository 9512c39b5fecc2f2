// One writer per output: a second lock on a folder or a file is refused at once, naming the
// holder's pid, in this process or another; a killed holder leaves no stale lock; what a
// lock made and nothing filled is removed again; unwritable outputs are refused by name.
#include "util/output_lock.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tests/cpp/test_files.h"
#include "util/atomic_file.h"

namespace knightgym {
namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using testing::temporary_dir;

// The error number of the OutputRefused that `lock` throws (0: none thrown).
template <class Lock>
int refusal(const Lock& lock) {
  try {
    lock();
  } catch (const OutputRefused& refused) {
    return refused.error_number();
  }
  return 0;
}

TEST_CASE("OutputLock: a second writer of a folder is refused, by name and pid, until release",
          "[util]") {
  const std::string dir = temporary_dir("output_lock_folder") + "/run";
  std::optional<OutputLock> held(OutputLock::folder(dir));
  CHECK(fs::is_directory(dir));
  CHECK_THROWS_WITH(OutputLock::folder(dir),
                    Contains("cannot write '" + dir + "': another writer holds it (pid " +
                             std::to_string(getpid()) + ")"));
  CHECK(refusal([&] { OutputLock::folder(dir); }) == EWOULDBLOCK);
  held.reset();
  CHECK_FALSE(fs::exists(dir));  // made by the lock, left empty: removed
  CHECK_NOTHROW(OutputLock::folder(dir));
}

TEST_CASE("OutputLock: a folder that was there, or that was filled, stays", "[util]") {
  const std::string dir = temporary_dir("output_lock_stays");
  { const OutputLock lock = OutputLock::folder(dir); }
  CHECK(fs::is_directory(dir));  // not made by the lock
  {
    const OutputLock lock = OutputLock::folder(dir + "/run");
    write_file_atomically(dir + "/run/result.json", "{}");
  }
  CHECK(read_file(dir + "/run/result.json") == "{}");
}

TEST_CASE("OutputLock: a file is made, locked, and removed unless replaced", "[util]") {
  const std::string dir = temporary_dir("output_lock_file");
  const std::string path = dir + "/out.json";
  {
    const OutputLock lock = OutputLock::file(path);
    CHECK(read_file(path) == "");
    CHECK(refusal([&] { OutputLock::file(path); }) == EWOULDBLOCK);
  }
  CHECK_FALSE(fs::exists(path));  // the command failed before writing: nothing left
  {
    const OutputLock lock = OutputLock::file(path);
    write_file_atomically(path, "result");
  }
  CHECK(read_file(path) == "result");
  { const OutputLock lock = OutputLock::file(path); }
  CHECK(read_file(path) == "result");  // an existing file is left as it was
  const std::vector<OutputLock> both = lock_files({path, "", dir + "/other.json"});
  CHECK(both.size() == 2);
}

TEST_CASE("OutputLock: what cannot be written is refused by name, changing nothing", "[util]") {
  const std::string dir = temporary_dir("output_lock_refused");
  write_file_atomically(dir + "/file", "x");
  CHECK_THROWS_WITH(OutputLock::folder(dir + "/file"),
                    Contains("cannot write '" + dir + "/file': it is not a folder"));
  CHECK(refusal([&] { OutputLock::folder(dir + "/file/run"); }) != 0);
  CHECK_THROWS_WITH(OutputLock::file(dir), Contains("cannot write '" + dir + "': it is a folder"));
  CHECK_THROWS_WITH(OutputLock::file(dir + "/missing/out.json"),
                    Contains("cannot write '" + dir + "/missing/out.json': No such file"));
  CHECK_THROWS_WITH(OutputLock::file(""), Contains("an empty path"));
  CHECK_THROWS_WITH(OutputLock::folder(""), Contains("an empty path"));
  // Under /proc nothing can be made, root or not.
  CHECK(refusal([&] { OutputLock::folder("/proc/knightgym_output_lock"); }) != 0);
  CHECK(read_file(dir + "/file") == "x");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("OutputLock: another process's lock is refused with its pid, and dies with it",
          "[util]") {
  const std::string dir = temporary_dir("output_lock_process") + "/run";
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // holds the lock until killed
    const OutputLock lock = OutputLock::folder(dir);
    write_file_atomically(dir + "/progress", "1");
    const char byte = 1;
    if (write(ready[1], &byte, 1) != 1) _exit(1);
    pause();
    _exit(0);
  }
  char byte = 0;
  REQUIRE(read(ready[0], &byte, 1) == 1);
  CHECK_THROWS_WITH(OutputLock::folder(dir),
                    Contains("another writer holds it (pid " + std::to_string(child) + ")"));
  kill(child, SIGKILL);  // no destructor runs: the kernel alone releases the lock
  int status = 0;
  waitpid(child, &status, 0);
  CHECK_NOTHROW(OutputLock::folder(dir));
  CHECK(read_file(dir + "/progress") == "1");
  close(ready[0]);
  close(ready[1]);
}

}  // namespace
}  // namespace knightgym

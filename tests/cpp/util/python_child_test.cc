// PythonChild (util/python_process.h): a child that writes something other than frames is
// refused by name and bounded, one that ended is named with how it ended, and frames go
// both ways. The real exchanges are the Ray relay's (tests/python/test_*_ray.py).
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "tests/cpp/test_files.h"
#include "util/python_process.h"

namespace knightgym {
namespace {

constexpr const char* kPython = "/usr/bin/python3";

TEST_CASE("a child that prints text is refused before its 'frame' is read", "[util]") {
  // `python -m this` prints the Zen of Python: its first 9 bytes read as a header whose
  // length is far beyond the bound.
  PythonChild child(kPython, "", "this", {}, "the Zen");
  const std::atomic<bool> stop{false};
  CHECK_THROWS_WITH(child.receive(stop), Catch::Contains("the Zen wrote a frame of") &&
                                             Catch::Contains("bytes, more than 1073741824"));
}

TEST_CASE("a child that ended is named with how it ended", "[util]") {
  PythonChild child(kPython, "", "no_such_module_here", {}, "the missing module");
  const std::atomic<bool> stop{false};
  CHECK_THROWS_WITH(child.receive(stop), Catch::Contains("the missing module closed its output") &&
                                             Catch::Contains("it exited with status 1"));
}

TEST_CASE("frames go to a child and come back whole", "[util]") {
  // A module that copies its input to its output: frames come back as they went, bytes of
  // every value included.
  const std::filesystem::path folder = testing::process_dir() / "python_child";
  std::filesystem::create_directories(folder);
  testing::write_bytes((folder / "frame_echo.py").string(),
                       "import sys\n"
                       "while chunk := sys.stdin.buffer.read1(65536):\n"
                       "    sys.stdout.buffer.write(chunk)\n"
                       "    sys.stdout.buffer.flush()\n");
  PythonChild child(kPython, folder.string(), "frame_echo", {}, "the echo");
  const std::atomic<bool> stop{false};
  // Smaller than a pipe's buffer: this test writes both frames before it reads, and the
  // echo would otherwise block on its full output while this process blocks on its input.
  std::string payload(30000, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 7919 % 256);
  child.send('W', payload);
  child.send('D', "");
  const std::optional<Frame> first = child.receive(stop), second = child.receive(stop);
  REQUIRE(first);
  CHECK(first->kind == 'W');
  CHECK(first->payload == payload);
  REQUIRE(second);
  CHECK(second->kind == 'D');
  CHECK(second->payload.empty());
}

TEST_CASE("a stop ends a wait for a frame", "[util]") {
  // `python -m http.server 0` prints nothing on its standard output for a while.
  PythonChild child(kPython, "", "http.server", {"0", "--bind", "127.0.0.1"}, "the server");
  const std::atomic<bool> stop{true};
  CHECK_FALSE(child.receive(stop).has_value());
}

}  // namespace
}  // namespace knightgym

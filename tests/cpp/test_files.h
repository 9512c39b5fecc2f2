// Real files on disk for the tests: a fresh directory under the system's temporary
// directory, writing a file, and reading one back whole or by lines.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace knightgym::testing {

// One directory per test process, so that test runs on one machine (other checkouts,
// other users) never share files; removed when the process that made it exits, not when
// a forked child does.
inline const std::filesystem::path& process_dir() {
  struct Dir {
    pid_t owner = getpid();
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("knightgym_tests_" + std::to_string(owner));
    ~Dir() {
      std::error_code ignored;
      if (getpid() == owner) std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

// An empty directory "<name>" in this process's directory.
inline std::string temporary_dir(const std::string& name) {
  const auto dir = process_dir() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace knightgym::testing

// Real files on disk for the tests: a fresh directory under the system's temporary
// directory, and reading a file back whole or by lines.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace knightgym::testing {

// An empty directory "knightgym_<name>" (what a previous run left is removed).
inline std::string temporary_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("knightgym_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace knightgym::testing

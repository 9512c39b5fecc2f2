// The conformance specs: those of every game's test folder,
// tests/cpp/env/games/<game>/conformance_specs.txt (one spec per line, '#' comments), in
// the order of the folders' names, so that a new game's specs need no line elsewhere. The
// conformance suites (conformance_test.cc, tests/python/test_conformance.py) run over
// every one, and every registered game must have one.
//
// Budget: KNIGHTGYM_CONFORMANCE_GAMES games per spec (default 1000; `make soak` sets
// 100000) in C++, a fifth as many in Python (which checks the bindings of the same
// contract), or fewer where games are long: a suite starts no new game once the spec's
// decisions pass 100 per game asked for, after at least 10 games. Long games (Knights
// Challenge's and Knightmate's hundreds of turns) are so played fewer times; every game
// has a reference test besides.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace knightgym::testing {

// The specs of one file, in its order.
inline std::vector<std::string> read_specs(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path.string());
  std::vector<std::string> specs;
  for (std::string line; std::getline(file, line);)
    if (!line.empty() && line[0] != '#') specs.push_back(line);
  return specs;
}

inline std::vector<std::string> conformance_specs() {
  std::vector<std::filesystem::path> files;
  for (const auto& folder : std::filesystem::directory_iterator(KNIGHTGYM_GAME_TESTS))
    if (std::filesystem::exists(folder.path() / "conformance_specs.txt"))
      files.push_back(folder.path() / "conformance_specs.txt");
  std::sort(files.begin(), files.end());
  std::vector<std::string> specs;
  for (const auto& file : files)
    for (std::string& spec : read_specs(file)) specs.push_back(std::move(spec));
  if (specs.empty()) throw std::runtime_error("no conformance specs under " KNIGHTGYM_GAME_TESTS);
  return specs;
}

inline int conformance_games() {
  const char* value = std::getenv("KNIGHTGYM_CONFORMANCE_GAMES");
  return value ? std::atoi(value) : 1000;
}

}  // namespace knightgym::testing

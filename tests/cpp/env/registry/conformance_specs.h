// The specs of tests/conformance_specs.txt and the number of random games per spec
// (KNIGHTGYM_CONFORMANCE_GAMES, default 1000; `make soak` sets 100000).
#pragma once

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace knightgym::testing {

inline std::vector<std::string> conformance_specs() {
  std::ifstream file(KNIGHTGYM_CONFORMANCE_SPECS);
  if (!file) throw std::runtime_error("cannot read " KNIGHTGYM_CONFORMANCE_SPECS);
  std::vector<std::string> specs;
  for (std::string line; std::getline(file, line);)
    if (!line.empty() && line[0] != '#') specs.push_back(line);
  return specs;
}

inline int conformance_games() {
  const char* value = std::getenv("KNIGHTGYM_CONFORMANCE_GAMES");
  return value ? std::atoi(value) : 1000;
}

}  // namespace knightgym::testing

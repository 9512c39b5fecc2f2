// Hand-made game records for the balance tests.
#pragma once

#include <utility>
#include <vector>

#include "training/arena/arena.h"

namespace knightgym::testing {

inline GameRecord record(std::vector<float> returns, std::vector<int> agents, int decisions,
                         bool truncated = false) {
  GameRecord r;
  r.returns = std::move(returns);
  r.agent_of_seat = std::move(agents);
  r.decisions = decisions;
  r.truncated = truncated;
  return r;
}

}  // namespace knightgym::testing

// The check every batch of environments makes before a step: each environment's action
// is in range and legal, except where the environment resets on this step and ignores it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "env/core/game.h"

namespace knightgym {

// Throws std::invalid_argument naming the first environment whose action is out of range
// or illegal. masks: n x num_actions; resets[i] set: environment i ignores its action.
template <Game G>
void check_actions(const G& game, const typename G::State* states, const uint8_t* masks,
                   const uint8_t* resets, int n, const Action* actions) {
  const int num_actions = game.info().num_actions;
  for (int i = 0; i < n; ++i) {
    if (resets[i]) continue;
    const Action a = actions[i];
    if (a < 0 || a >= num_actions)
      throw std::invalid_argument("env " + std::to_string(i) + ": action " + std::to_string(a) +
                                  " is out of range [0, " + std::to_string(num_actions) + ")");
    if (!masks[static_cast<size_t>(i) * num_actions + a])
      throw std::invalid_argument("env " + std::to_string(i) + ": action " + std::to_string(a) +
                                  " (" + game.action_to_string(states[i], a) + ") is not legal");
  }
}

}  // namespace knightgym

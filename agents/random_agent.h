// The uniform random agent: a legal action drawn uniformly from its own seeded stream.
#pragma once

#include "env/core/game.h"

namespace knightgym {

template <Game G>
class RandomAgent {
 public:
  explicit RandomAgent(uint64_t seed) : rng_(seed) {}

  // Precondition: the state is not terminal.
  Action act(const G& game, const typename G::State& state) {
    Action legal[G::kMaxActions];
    const int n = game.legal_actions(state, legal);
    return legal[rng_.below(static_cast<uint32_t>(n))];
  }

 private:
  Rng rng_;
};

}  // namespace knightgym

// The uniform random agent: a legal action drawn uniformly from its own seeded stream.
#pragma once

#include "env/core/sample.h"

namespace knightgym {

template <Game G>
class RandomAgent {
 public:
  explicit RandomAgent(uint64_t seed) : rng_(seed) {}

  // Precondition: the state is not terminal.
  Action act(const G& game, const typename G::State& state) {
    return sample_legal_action(game, state, rng_);
  }

 private:
  Rng rng_;
};

}  // namespace knightgym

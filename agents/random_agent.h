// The uniform random agent: a legal action drawn uniformly from its own seeded stream.
#pragma once

#include "agents/agent.h"
#include "env/core/sample.h"

namespace knightgym {

template <Game G>
class RandomAgent final : public Agent<G> {
 public:
  RandomAgent(const G& game, uint64_t seed) : game_(game), rng_(seed) {}

  Action act(const typename G::State& state, const SearchLimits& = {}) override {
    return sample_legal_action(game_, state, rng_);
  }

 private:
  const G& game_;
  Rng rng_;
};

}  // namespace knightgym

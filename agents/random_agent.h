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

struct RandomKind : SharesNothing {
  static constexpr std::string_view kName = "random";
  static constexpr std::string_view kSummary = "a legal action uniformly at random";
  struct Config {};
  static void read(ParamReader&, Config&) {}
  template <Game G>
  static std::unique_ptr<Agent<G>> make(const G& game, const Config&,
                                        const std::shared_ptr<SharedResource>&, uint64_t seed) {
    return std::make_unique<RandomAgent<G>>(game, seed);
  }
};

}  // namespace knightgym

// Drawing a uniformly random legal action: the random agent's and the vector env's
// sampler. A game may offer its own `Action sample_action(const State&, Rng&) const`
// (Knightmate draws from its move sets without listing every action); the others draw
// from their action list. Precondition: the state is not over.
#pragma once

#include "env/core/game.h"

namespace knightgym {

template <class G>
concept HasSampler = requires(const G game, const typename G::State state, Rng rng) {
  { game.sample_action(state, rng) } -> std::same_as<Action>;
};

template <Game G>
Action sample_legal_action(const G& game, const typename G::State& state, Rng& rng) {
  if constexpr (HasSampler<G>) {
    return game.sample_action(state, rng);
  } else {
    Action legal[G::kMaxActions];
    const int n = game.legal_actions(state, legal);
    return legal[rng.below(static_cast<uint32_t>(n))];
  }
}

}  // namespace knightgym

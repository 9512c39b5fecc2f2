// Random roll-outs: the mean returns of `count` uniformly random games from a state.
#pragma once

#include <algorithm>

#include "agents/tree.h"
#include "env/core/sample.h"

namespace knightgym {

template <Game G>
void rollout_returns(const G& game, const typename G::State& from, int count, Rng& rng,
                     float* mean) {
  const int players = game.info().num_players;
  float returns[kMaxPlayers];
  std::fill_n(mean, kMaxPlayers, 0.0f);
  for (int r = 0; r < count; ++r) {
    typename G::State state = from;
    while (!game.terminal(state)) game.apply(state, sample_legal_action(game, state, rng));
    game.returns(state, returns);
    for (int p = 0; p < players; ++p) mean[p] += returns[p];
  }
  for (int p = 0; p < players; ++p) mean[p] /= static_cast<float>(count);
}

}  // namespace knightgym

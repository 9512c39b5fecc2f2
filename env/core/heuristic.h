// A game's own view of how a position stands, for agents that look one move ahead (the
// greedy agent): a game may offer `float heuristic(const State&, int player) const`,
// higher being better for `player` and comparable between positions of one game (a
// material count, a score difference). A game without one is valued 0 everywhere, so
// a one-move look-ahead still takes wins and avoids losses and plays at random
// otherwise. Precondition: the state is not over (a finished game counts its returns).
#pragma once

#include "env/core/game.h"

namespace knightgym {

template <class G>
concept HasHeuristic = requires(const G game, const typename G::State state, int player) {
  { game.heuristic(state, player) } -> std::same_as<float>;
};

template <Game G>
float heuristic_value(const G& game, const typename G::State& state, int player) {
  if constexpr (HasHeuristic<G>) {
    return game.heuristic(state, player);
  } else {
    return 0.0f;
  }
}

}  // namespace knightgym

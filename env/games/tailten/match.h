// A Tailten match: two games with the starter swapped; the match points of the two games
// add up, and the player with more wins the match (docs/rules/tailten.md). The balance
// tools pair games this way.
#pragma once

#include <array>

#include "env/games/tailten/tailten.h"

namespace knightgym::tailten {

struct MatchResult {
  std::array<Tailten::Score, 2> games;  // games[0] started by params.first_player
  std::array<int, 2> points;            // match points of players 0 and 1
  std::array<int, 2> turns;             // the length of each game
  int winner;                           // -1 if the points are equal
};

// Plays the match; `choose(game, state)` returns a legal action of the player to move.
template <class Choose>
MatchResult play_match(const Tailten::Params& params, Choose&& choose) {
  MatchResult result{};
  for (int game = 0; game < 2; ++game) {
    Tailten::Params swapped = params;
    swapped.first_player = game == 0 ? params.first_player : 1 - params.first_player;
    const Tailten rules(swapped);
    Tailten::State state;
    Rng unused(0);  // Tailten has no chance
    rules.init(state, unused);
    while (!rules.terminal(state)) rules.apply(state, choose(rules, state));
    result.games[game] = rules.score(state);
    result.turns[game] = state.turns;
    for (int player = 0; player < 2; ++player)
      result.points[player] += result.games[game].match_points[player];
  }
  result.winner = result.points[0] > result.points[1]   ? 0
                  : result.points[0] < result.points[1] ? 1
                                                        : -1;
  return result;
}

}  // namespace knightgym::tailten

// The greedy agent's one-ply view of a position: how good it is for `player`, on the
// game's own tally (higher is better, comparable between positions of one game).
//   Knight Fight       own score minus the opponent's
//   Knightmate         material (P 1, B 3, M 3, R 5, Q 9) minus the opponent's
//   Double-Duel        knights (10 each) and pawns on the board and in reserve, minus the
//                      opponent's
//   Knights Challenge  own side's tally minus the best other side's
//   Tailten            fewer kingdoms first, then more territory, against the opponent
// A finished game counts its return, far above any tally.
#pragma once

#include <algorithm>
#include <bit>

#include "env/registry/game_list.h"

namespace knightgym {

inline float tally_value(const KnightFight&, const KnightFight::State& s, int player) {
  return static_cast<float>(s.score[player] - s.score[1 - player]);
}

inline float tally_value(const Knightmate&, const Knightmate::State& s, int player) {
  using namespace knightmate;
  constexpr int kValue[kNumKinds] = {1, 3, 5, 9, 3, 0};  // P B R Q M K
  int balance = 0;
  for (int kind = 0; kind < kNumKinds; ++kind) {
    const int own = std::popcount(s.position.pieces(Color(player), Kind(kind)));
    const int other = std::popcount(s.position.pieces(Color(1 - player), Kind(kind)));
    balance += kValue[kind] * (own - other);
  }
  return static_cast<float>(balance);
}

inline float tally_value(const DoubleDuel&, const DoubleDuel::State& s, int player) {
  const auto strength = [&s](int p) {
    return 10 * std::popcount(s.knights[p]) + std::popcount(s.singles[p]) +
           2 * std::popcount(s.doubles[p]) + s.reserve[p];
  };
  return static_cast<float>(strength(player) - strength(1 - player));
}

inline float tally_value(const KnightsChallenge& game, const KnightsChallenge::State& s,
                         int player) {
  int tallies[KnightsChallenge::kNumColours];
  game.tallies(s, tallies);
  const int own = game.side_of_player(player);
  int best_other = -1000;
  for (int side = 0; side < game.num_sides(); ++side)
    if (side != own) best_other = std::max(best_other, tallies[side]);
  return static_cast<float>(tallies[own] - best_other);
}

inline float tally_value(const Tailten& game, const Tailten::State& s, int player) {
  const Tailten::Score score = game.score(s);
  const int other = 1 - player;
  return static_cast<float>(100 * (score.kingdoms[other] - score.kingdoms[player]) +
                            score.territory[player] - score.territory[other]);
}

}  // namespace knightgym

// Shared vocabulary of every game: actions, players, tensor shapes, game facts.
#pragma once

#include <cstdint>

namespace knightgym {

using Action = int32_t;

// The most players any game has (Knights Challenge's four): fixed-size arrays of
// returns and values hold this many.
inline constexpr int kMaxPlayers = 4;

// current_player() of a finished state: OpenSpiel's kTerminalPlayerId (its -1 is the
// chance player, which no game here has).
inline constexpr int kTerminalPlayer = -4;

struct Shape {
  int channels = 0, height = 0, width = 0;
  constexpr int size() const { return channels * height * width; }
  friend constexpr bool operator==(const Shape&, const Shape&) = default;
};

// What a game instance (a game with its parameters) looks like from outside.
struct GameInfo {
  int num_players = 0;
  int num_actions = 0;
  Shape observation_shape;
  int max_game_length = 0;  // upper bound on decisions in one episode
  // Every observation value lies in [observation_low, observation_high] (Gymnasium's Box).
  float observation_low = 0, observation_high = 1;
};

}  // namespace knightgym

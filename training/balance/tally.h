// A rule set's games reduced as they end: every count and sum that its figures
// (figures.h) are computed from, in memory that does not grow with the number of games
// (the length histogram grows with the longest game only).
//
// A balance run tallies each chunk of games on its own and folds the chunks' tallies in
// chunk order. Floating-point sums are then added in one order however the chunks were
// shared out (threads, Ray tasks on other machines), so the figures agree to the last
// bit. A tally is written as JSON whose doubles read back to the same bits, so it crosses
// a process or a machine exactly.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "training/arena/arena.h"
#include "training/balance/statistics.h"
#include "util/json_reader.h"
#include "util/json_writer.h"

namespace knightgym {

struct RuleSetTally {
  struct Seat {
    int64_t wins = 0, draws = 0, losses = 0;
    double return_sum = 0;
    std::vector<int64_t> ranks;  // ranks[r]: games the seat finished at rank r + 1
    // shared[j]: the wins whose first place the seat shared with j other seats (j = 0: won
    // alone); its share of those games' first place is 1 / (j + 1).
    std::vector<int64_t> shared;
    bool operator==(const Seat&) const = default;
  };
  struct Agent {
    int64_t games = 0, wins = 0, draws = 0, losses = 0;
    MomentSums block_score;  // the agent's score in each block it played
    bool operator==(const Agent&) const = default;
  };

  int players = 0;
  int block_games = 1;  // games per block: the number of agents
  int64_t games = 0, blocks = 0;
  std::vector<Seat> seats;
  // Whether every game's shared first places were counted (Seat::shared): not in a tally
  // read from a file written before they were, nor in one merged with such a tally.
  bool shares_counted = true;
  int64_t decisive = 0, natural_draws = 0, truncated = 0, truncated_draws = 0;
  MomentSums game_advantage;     // the first seat's advantage in each game
  MomentSums block_advantage;    // its mean over each block: the sequential test's samples
  std::vector<int64_t> lengths;  // lengths[d]: the games of d decisions
  std::vector<Agent> agents;
  // points[a * block_games + b]: what agent a scored against agent b, every two seats of
  // one game held by different agents (the higher return winning, equal returns a draw).
  std::vector<double> points;
  // For blocks of two two-player games: how often agent 0 scored 0, 1/2, 1, 3/2 and 2
  // points over the pair.
  std::array<int64_t, 5> pentanomial{};

  RuleSetTally() = default;
  RuleSetTally(int num_players, int num_agents);

  // One block: `block_games` games from one start, the agents rotated round the seats.
  // Throws std::invalid_argument, changing nothing, for a block of another size or a
  // game with another number of seats or an agent out of range.
  void add_block(std::span<const GameRecord> block);
  // Adds the tally of later games of the same rule set and agents.
  void merge(const RuleSetTally& later);

  void write_json(JsonWriter& json) const;
  // Throws std::invalid_argument naming where the JSON is malformed or inconsistent.
  static RuleSetTally from_json(const JsonValue& json);
  // One line of JSON, and back. parse() throws std::invalid_argument naming the problem.
  std::string serialize() const;
  static RuleSetTally parse(std::string_view text);

  bool operator==(const RuleSetTally&) const = default;
};

// The first seat's advantage in a game: r_0 - the mean of all returns.
double first_seat_advantage(const GameRecord& record);

}  // namespace knightgym

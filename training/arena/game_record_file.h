// Game records as JSON lines: one object a game, in the order played, that replays it.
//
//   {"spec": "knight_fight(double_erase=optional,...)", "seed": 1234, "game": 0,
//    "agents": ["mcts:sims=16,...", "random"], "opening_plies": 0,
//    "moves": ["c1", "c10", "d3", ...], "returns": [1, -1], "truncated": false}
//
// spec is the game's canonical spec and seed the seed of its initial state
// (game.new_initial_state(seed)); agents the spec of the agent in each seat; moves every
// decision's action_to_string from that state on, the first opening_plies of them the
// arena's random opening; returns each seat's. knightgym.records reads them back into
// states (docs/api.md, "Game records"), and knightgym view replays them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "env/registry/any_game.h"
#include "training/arena/arena.h"

namespace knightgym {

// The line of one game (no newline); agent_specs are the series' agents, by index.
std::string game_record_line(const AnyGame& game, const GameRecord& record,
                             std::span<const std::string> agent_specs, int64_t index,
                             int opening_plies);

// The lines of `records`, games first, first + 1, ..., each ending in a newline.
std::string game_record_lines(const AnyGame& game, std::span<const GameRecord> records,
                              std::span<const std::string> agent_specs, int64_t first,
                              int opening_plies);

}  // namespace knightgym

// Teacher data: games played by a strong player (a search of any agent spec, or an
// external engine), kept per decision as what a network learns from: the state, the
// player's policy there (a search's visit shares, or its one chosen move) and its value,
// and each game's result. One format for every game and every teacher.
//
// A shard file holds whole games, written all at once (util/atomic_file.h), in
// little-endian binary:
//
//   "KGTEACH1"                          magic
//   u32 format (kTeacherShardFormat)
//   str game spec (canonical)  str teacher spec (canonical)
//   u32 num_players  u32 num_actions  u32 number of games
//   each game:  i64 index in its series  u64 seed of its initial state
//               str rules (format 2 on: the canonical spec of the game's rule set where
//               it is not the shard's, else empty)
//               u8 truncated  f32 returns[num_players]  u32 decisions
//     each decision:  str state (the game's own serialize(): any history the
//                     observation needs is in it)
//                     f32 value (the mover's expected return in [-1, 1]; NaN if the
//                     teacher gives none)  u32 n  (i32 action, f32 probability) x n
//   u64 FNV-1a hash of every byte before it
//
// where str is a u32 length and that many bytes. States are text rather than raw bytes,
// so that a shard outlives a change of a State's layout. Format 1 (without the games'
// rules) is read as well.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "env/core/types.h"
#include "util/fields.h"

namespace knightgym {

inline constexpr uint32_t kTeacherShardFormat = 2;

struct TeacherDecision {
  std::string state;                             // the game's serialize()
  float value = 0;                               // the mover's; NaN: none
  std::vector<std::pair<Action, float>> policy;  // legal actions with their probabilities

  static auto fields() {
    return std::tuple{field("state", &TeacherDecision::state),
                      field("value", &TeacherDecision::value),
                      field("policy", &TeacherDecision::policy)};
  }
};

struct TeacherGame {
  int64_t index = 0;  // in its series (the seeds derive from it)
  uint64_t start_seed = 0;
  // The canonical spec of its rule set where it is not the shard's game (a training run
  // over many rule sets keeps its games so), else empty.
  std::string rules;
  bool truncated = false;
  std::vector<float> returns;  // per player
  std::vector<TeacherDecision> decisions;

  static auto fields() {
    return std::tuple{
        field("index", &TeacherGame::index),     field("start_seed", &TeacherGame::start_seed),
        field("rules", &TeacherGame::rules),     field("truncated", &TeacherGame::truncated),
        field("returns", &TeacherGame::returns), field("decisions", &TeacherGame::decisions)};
  }
};

struct TeacherShard {
  std::string game_spec;
  std::string teacher;
  int num_players = 0;
  int num_actions = 0;
  std::vector<TeacherGame> games;

  int64_t decisions() const;
  static auto fields() {
    return std::tuple{field("game", &TeacherShard::game_spec),
                      field("teacher", &TeacherShard::teacher),
                      field("games", &TeacherShard::games)};
  }
};

// The shard as its file's bytes, and written to `path` all or nothing.
std::string encode_shard(const TeacherShard& shard);
void write_shard(const std::string& path, const TeacherShard& shard);

// Reads a shard back; throws std::invalid_argument naming `where` (the file) and the
// problem: not a teacher shard, another format, truncated, damaged (the hash), or, if
// `game_spec` is given, games of another game.
TeacherShard decode_shard(std::string_view bytes, const std::string& where,
                          const std::string& game_spec = "");
TeacherShard read_shard(const std::string& path, const std::string& game_spec = "");

}  // namespace knightgym

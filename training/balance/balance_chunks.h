// A balance run's games cut into chunks: consecutive games of one rule set, played and
// tallied together. A chunk is the unit a run shares out (to threads, or to Ray tasks on
// other machines) and folds back in order. Without --batch a chunk is up to 20 games,
// each played on its own with the seeds of its number; with --batch B it is B games
// played together (--chunk C: C games, B of them in play at once, refilled as games
// end), with agents made for that chunk alone. Either way a chunk's tally depends on the
// options and its number only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agents/any_agent.h"
#include "training/balance/balance.h"
#include "training/balance/tally.h"

namespace knightgym {

struct ChunkLayout {
  int64_t chunk_games = 0;  // games per chunk, whole blocks (the last chunk may be shorter)
  int64_t chunks = 0;       // per rule set
  int64_t look_chunks = 0;  // chunks between the sequential test's looks
};

class BalanceChunkPlayer {
 public:
  // Checks the options and loads every rule set of the grid with every agent; throws
  // std::invalid_argument naming a bad option, spec or agent.
  explicit BalanceChunkPlayer(const BalanceOptions& options);

  const BalanceOptions& options() const { return options_; }
  const std::vector<RuleSet>& grid() const { return grid_; }
  const ChunkLayout& layout() const { return layout_; }
  // The agents' specs in full, with every default.
  std::vector<std::string> agent_specs() const;
  int players(int rule_set) const;

  // Plays and tallies chunk `chunk` of rule set `rule_set`; safe to call from many
  // threads at once. Once `stop` is set it throws std::runtime_error between games (with
  // --batch, between rounds of decisions).
  RuleSetTally play(int rule_set, int64_t chunk, const std::atomic<bool>* stop = nullptr) const;

  // The first `count` games of rule set `rule_set` as played again, with their moves:
  // the same games as the run's (the seeds depend on the game's number, and with --batch
  // the chunks holding them are played whole), for records of a sample of the games.
  std::vector<GameRecord> first_games(int rule_set, int64_t count) const;

 private:
  using Agents = std::vector<std::shared_ptr<const AgentFactory>>;
  std::vector<GameRecord> records(int rule_set, int64_t chunk, const std::atomic<bool>* stop) const;
  BalanceOptions options_;
  std::vector<RuleSet> grid_;
  std::vector<Agents> agents_;  // per rule set
  ChunkLayout layout_;
};

}  // namespace knightgym

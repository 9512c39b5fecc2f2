// Rule balance: seat-rotated tournaments over a grid of rule sets, each measured
// (figures.h), optionally stopped early by a sequential test on the first seat's
// advantage, and compared with the first rule set of the grid.
//
// Every rule set plays the same numbered games with the same seeds (game g seats agent
// (seat + g) mod k, and each block of k games starts from one position drawn from the
// seed and g / k), so the Knight Fight variants of a sweep start from the same layouts.
// The games are played in chunks (balance_chunks.h), each tallied on its own and folded
// in order, so a run keeps no record per game and its results depend on the options
// alone: not on the thread count, nor on which machines played which chunks (a
// ChunkRunner). The sequential test looks after every `check_every` games, rounded up
// to whole chunks: a fixed schedule.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "env/registry/rule_grid.h"
#include "training/balance/figures.h"
#include "training/balance/same_games.h"
#include "training/balance/statistics.h"
#include "training/balance/tally.h"
#include "training/balance/verdicts.h"

namespace knightgym {

// "a0=0,a1=0.05,alpha=0.05,beta=0.05", any subset; the rest keep their defaults.
SprtSettings parse_sprt(const std::string& text);

struct BalanceOptions {
  std::string game;  // the base spec, "knight_fight(max_turns=100)"
  std::vector<Sweep> sweeps;
  std::vector<std::string> agents;  // agent specs; one plays every seat
  int64_t games = 1000;             // per rule set; with a sequential test, the most
  int threads = 1;
  // 0: each game on its own. B > 0: chunks of B games played together on one thread,
  // every agent deciding for all of them at once (one network batch per round of
  // simulations); B is a multiple of the number of agents.
  int64_t batch = 0;
  // With a batch: 0 for chunks of `batch` games, started together; C > batch for chunks
  // of C games with `batch` of them in play at once, a game that ends giving its place to
  // the chunk's next (the batches stay full however game lengths vary). A multiple of
  // the number of agents; the games depend on it.
  int64_t chunk = 0;
  // Each block starts this many uniformly random legal actions into the game, drawn from
  // the seed and the block (training/arena/arena.h): varied starts for agents that
  // play the same game every time from one position, as a fixed-node engine does.
  int opening_plies = 0;
  uint64_t seed = 0;
  std::optional<SprtSettings> sprt;
  int64_t check_every = 100;  // games between the sequential test's looks
  // A file for the run's progress (progress_file.h), saved about once a minute; empty for
  // none. With `resume` a run continues from it when it exists; without, an existing
  // file is refused rather than overwritten.
  std::string progress_file;
  bool resume = false;
};

// Plays chunks [first, first + count) of rule set `rule_set` (balance_chunks.h) and hands
// their tallies to `consume` in chunk order. An exception from `consume` stops the run.
using ChunkRunner = std::function<void(int rule_set, int64_t first, int64_t count,
                                       const std::function<void(const RuleSetTally&)>& consume)>;

struct SprtOutcome {
  SprtSettings settings;
  SprtState state;  // at the last look
};

struct RuleSetResult {
  RuleSet rules;
  RuleSetFigures figures;
  std::optional<SprtOutcome> sprt;
  double seconds = 0;
};

struct BalanceResult {
  BalanceOptions options;
  std::vector<std::string> agent_specs;  // in full, with every default
  int64_t chunk_games = 0;
  std::vector<RuleSetResult> rule_sets;
  // Where every confidence sequence is tightest: the blocks the run planned per rule set.
  int64_t tuned_blocks = 0;
  // Per rule set, with the sweep's errors counted (verdicts.h): its verdict, and its
  // advantage minus rule set 0's (entry 0 compares rule set 0 with itself).
  std::vector<AdvantageVerdict> verdicts;
  std::vector<RuleSetComparison> comparisons;
  // The fairest rule set (the highest balance, the first of equals), every rule set's
  // balance interval, and which are as fair as far as the games tell (verdicts.h).
  FairestRuleSets fairness;
  // Per rule set, the earlier one that played the same games, seats permuted
  // (same_games.h): one sample, not two.
  std::vector<SameGamesAs> same_games;
  double seconds = 0;
};

struct BalanceProgress {
  int rule_set = 0, rule_sets = 0;
  int64_t games_done = 0;  // in all rule sets so far
  int64_t games_planned = 0;
};

// Thrown by run_balance once `stop` is set: the chunks played so far are saved in the
// progress file (where there is one), and a run with `resume` goes on from them.
class BalanceStopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws std::invalid_argument for bad options (naming them) before any game is played.
// Without a runner the chunks are played on `threads` threads of this process. Once
// `stop` is set, the chunks under way are dropped and the run throws BalanceStopped.
BalanceResult run_balance(const BalanceOptions& options,
                          const std::function<void(const BalanceProgress&)>& progress = {},
                          const ChunkRunner& runner = {}, const std::atomic<bool>* stop = nullptr);

}  // namespace knightgym

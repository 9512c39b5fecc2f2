// Rule balance: seat-rotated tournaments over a grid of rule sets, each measured
// (figures.h), optionally stopped early by a sequential test on the first seat's
// advantage, and compared with the first rule set of the grid.
//
// Every rule set plays the same numbered games with the same seeds (game g seats agent
// (seat + g) mod k, and each block of k games starts from one position drawn from the
// seed and g / k), so the Knight Fight variants of a sweep start from the same layouts.
// Results depend on the seed only, not on the thread count; the sequential test looks
// after every `check_every` games, a fixed schedule.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "training/balance/figures.h"
#include "training/balance/statistics.h"

namespace knightgym {

// One swept parameter and its values, in order.
struct Sweep {
  std::string key;
  std::vector<std::string> values;
};

// "KEY=V1,V2,..." (a value with commas in brackets, as in game specs). Throws
// std::invalid_argument naming the problem.
Sweep parse_sweep(const std::string& text);
// "a0=0,a1=0.05,alpha=0.05,beta=0.05", any subset; the rest keep their defaults.
SprtSettings parse_sprt(const std::string& text);

struct RuleSet {
  std::string spec;                                         // the game's canonical spec
  std::vector<std::pair<std::string, std::string>> values;  // the swept ones
};

// The grid: the base spec with every combination of the swept values, the last sweep
// varying fastest. Each spec is loaded, so a bad key or value is refused here, by name.
std::vector<RuleSet> expand_grid(const std::string& game, const std::vector<Sweep>& sweeps);

struct BalanceOptions {
  std::string game;  // the base spec, "knight_fight(max_turns=100)"
  std::vector<Sweep> sweeps;
  std::vector<std::string> agents;  // agent specs; one plays every seat
  int64_t games = 1000;             // per rule set; with a sequential test, the most
  int threads = 1;
  uint64_t seed = 0;
  std::optional<SprtSettings> sprt;
  int64_t check_every = 100;  // games between the sequential test's looks
};

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
  std::vector<RuleSetResult> rule_sets;
  // comparisons[i]: rule set i's advantage minus rule set 0's (none for rule set 0).
  std::vector<Difference> comparisons;
  int fairest = 0;  // the rule set with the highest balance (the first of equals)
  double seconds = 0;
};

struct BalanceProgress {
  int rule_set = 0, rule_sets = 0;
  int64_t games_done = 0;  // in all rule sets so far
  int64_t games_planned = 0;
};

// Throws std::invalid_argument for bad options (naming them) before any game is played.
BalanceResult run_balance(const BalanceOptions& options,
                          const std::function<void(const BalanceProgress&)>& progress = {});

}  // namespace knightgym

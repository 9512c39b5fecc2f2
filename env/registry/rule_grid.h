// Rule grids: a game's base spec with some of its parameters swept over lists of values,
// every combination a rule set. Balance runs compare the rule sets of a grid
// (training/balance/balance.h); a training run's `rules` setting draws a rule set for
// each self-play game from one, for a network that plays them all
// (training/selfplay/rule_sets.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace knightgym {

// One swept parameter and its values, in order.
struct Sweep {
  std::string key;
  std::vector<std::string> values;
};

// "KEY=V1,V2,..." (a value with commas in brackets, as in game specs). Throws
// std::invalid_argument naming the problem.
Sweep parse_sweep(const std::string& text);

// Sweeps separated by semicolons: "neighbor_attack=false,true;switch_move=false,true"
// (spaces around each ignored; empty text: none). Throws std::invalid_argument naming the
// problem.
std::vector<Sweep> parse_sweeps(const std::string& text);
// The same text back, parse_sweeps' inverse.
std::string sweeps_text(const std::vector<Sweep>& sweeps);

struct RuleSet {
  std::string spec;                                         // the game's canonical spec
  std::vector<std::pair<std::string, std::string>> values;  // the swept ones
};

// The number of rule sets of the grid of `sweeps`: the product of their values' counts.
int grid_size(const std::vector<Sweep>& sweeps);

// The grid: the base spec with every combination of the swept values, the last sweep
// varying fastest. Each spec is loaded, so a bad key or value is refused here, by name;
// so are a key swept twice and two combinations that make the same rule set.
std::vector<RuleSet> expand_grid(const std::string& game, const std::vector<Sweep>& sweeps);

}  // namespace knightgym

// The rule sets a training run plays: the game as given, or a grid of its rules (the
// `rules` setting: a base spec with swept parameters, env/registry/rule_grid.h) from which
// self-play draws a rule set for each game, uniformly, so that every rule set gets the
// same share of the games in expectation. A trajectory keeps the index of its rule set,
// and every search, observation and mask of its states uses that rule set's game: one
// network learns to play them all, each game's observation telling it the rules
// (docs/training.md, "One network for every rule set").
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/core/rng.h"
#include "env/registry/rule_grid.h"
#include "env/registry/typed_code.h"

namespace knightgym {

template <Game G>
class RuleSets {
 public:
  // One rule set: `game` (which outlives this object), of canonical spec `spec`.
  RuleSets(const G& game, std::string spec) : games_{&game}, specs_{std::move(spec)} {}

  // The grid of `spec`'s rules over `sweeps`; without sweeps, `game` alone. Throws
  // std::invalid_argument naming the problem: a bad sweep (expand_grid), or rule sets
  // whose observations, actions or players differ (one network could not play both).
  RuleSets(const G& game, const std::string& spec, const std::vector<Sweep>& sweeps)
      : RuleSets(game, spec) {
    if (sweeps.empty()) return;
    games_.clear(), specs_.clear();
    const GameInfo first = game.info();
    for (RuleSet& rules : expand_grid(spec, sweeps)) {
      std::shared_ptr<const AnyGame> loaded = load_game(rules.spec);
      const G& typed = typed_rules<G>(*loaded);
      const GameInfo info = typed.info();
      if (info.num_players != first.num_players || info.num_actions != first.num_actions ||
          info.observation_shape != first.observation_shape)
        throw std::invalid_argument("rules: " + rules.spec +
                                    " has other players, actions or observations than " + spec +
                                    ", the game trained: one network cannot play both");
      games_.push_back(&typed);
      specs_.push_back(std::move(rules.spec));
      owned_.push_back(std::move(loaded));
    }
  }

  int size() const { return static_cast<int>(games_.size()); }
  const G& operator[](int rule_set) const { return *games_[rule_set]; }
  const std::string& spec(int rule_set) const { return specs_[rule_set]; }
  const std::vector<std::string>& specs() const { return specs_; }
  // Each rule set's game, by index: what a batch of many rule sets' states reads.
  std::span<const G* const> games() const { return games_; }

  // The index of the rule set of canonical spec `spec`, or -1.
  int index_of(const std::string& spec) const {
    for (int r = 0; r < size(); ++r)
      if (specs_[r] == spec) return r;
    return -1;
  }

  // A rule set drawn uniformly; with one rule set, 0 without a draw, so that a run of
  // one rule set plays the games it played before rule sets were drawn.
  int draw(Rng& rng) const { return size() == 1 ? 0 : static_cast<int>(rng.below(size())); }

 private:
  std::vector<const G*> games_;
  std::vector<std::string> specs_;
  std::vector<std::shared_ptr<const AnyGame>> owned_;  // the games of a grid
};

}  // namespace knightgym

// Many AlphaZero searches advancing together: each round, every unfinished search adds its
// leaves to one batch, the evaluator answers the batch in one call, and the answers go back
// in order. No thread per game; a search's result does not depend on the others in the
// batch, so a batched search equals the same search run alone.
#pragma once

#include <span>
#include <vector>

#include "agents/az_search.h"

namespace knightgym {

template <Game G>
class SearchBatch {
 public:
  using State = typename G::State;

  SearchBatch(const G& game, const AzConfig& config, Evaluator& evaluator)
      : game_(game), config_(config), evaluator_(evaluator), info_(game.info()) {}

  // Runs one search per root, search i seeded with seeds[i], to the end or to the limits;
  // with `sims`, search i runs sims[i] simulations (self-play's playout cap); with `games`,
  // search i plays by the rules of *games[i], a rule set of this batch's game with the same
  // shapes (self-play over many rule sets), else by this batch's.
  void run(std::span<const State> roots, const uint64_t* seeds, const SearchLimits& limits = {},
           const int* sims = nullptr, const G* const* games = nullptr) {
    const int n = static_cast<int>(roots.size());
    while (static_cast<int>(searches_.size()) < n) searches_.emplace_back(game_, config_);
    const int capacity = n * std::max(config_.leaves, 1);
    observations_.resize(static_cast<size_t>(capacity) * info_.observation_shape.size());
    masks_.resize(static_cast<size_t>(capacity) * info_.num_actions);
    priors_.resize(static_cast<size_t>(capacity) * info_.num_actions);
    values_.resize(static_cast<size_t>(capacity) * info_.num_players);
    rows_.resize(n);
    for (int i = 0; i < n; ++i) {
      searches_[i].set_game(games ? *games[i] : game_);
      searches_[i].set_env_clock(env_clock_);
      searches_[i].start(roots[i], seeds[i], sims ? sims[i] : limits.sims);
    }

    bool stopped = false;
    while (true) {
      if (!stopped && limits.timed_out()) {
        stopped = true;
        for (int i = 0; i < n; ++i) searches_[i].stop();
      }
      if (limits.depth > 0)
        for (int i = 0; i < n; ++i)
          if (searches_[i].report().depth >= limits.depth) searches_[i].stop();
      int total = 0;
      for (int i = 0; i < n; ++i) {
        rows_[i] = searches_[i].collect(
            observations_.data() + static_cast<size_t>(total) * info_.observation_shape.size(),
            masks_.data() + static_cast<size_t>(total) * info_.num_actions, capacity - total);
        total += rows_[i];
      }
      if (total > 0)
        evaluator_.evaluate(total, observations_.data(), masks_.data(), priors_.data(),
                            values_.data());
      evaluated_ += total;
      int offset = 0, running = 0;
      for (int i = 0; i < n; ++i) {
        searches_[i].receive(priors_.data() + static_cast<size_t>(offset) * info_.num_actions,
                             values_.data() + static_cast<size_t>(offset) * info_.num_players);
        offset += rows_[i];
        running += !searches_[i].done();
      }
      if (running == 0) return;
    }
  }

  AzSearch<G>& search(int i) { return searches_[i]; }
  const AzSearch<G>& search(int i) const { return searches_[i]; }
  // Times the game's code in the searches from the next run() on (env_clock.h); null: no
  // timing.
  void set_env_clock(EnvClock* clock) { env_clock_ = clock; }
  // Positions the evaluator was asked about, over this object's life.
  int64_t evaluated() const { return evaluated_; }

 private:
  const G& game_;
  AzConfig config_;
  Evaluator& evaluator_;
  GameInfo info_;
  std::vector<AzSearch<G>> searches_;
  std::vector<float> observations_, priors_, values_;
  std::vector<uint8_t> masks_;
  std::vector<int> rows_;
  EnvClock* env_clock_ = nullptr;
  int64_t evaluated_ = 0;
};

}  // namespace knightgym

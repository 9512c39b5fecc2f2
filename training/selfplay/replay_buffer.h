// The replay buffer: the most recent `window` decisions of self-play, as whole games, and
// uniform draws of training batches from them. A drawn decision gives the observation and
// mask of its state from the mover's side, the search's policy as a dense target, and the
// game's returns seen from the mover (target[k] belongs to the player k seats after it,
// the evaluator's convention), optionally mixed with the search's root value there: with
// q_weight w, (1 - w) * return + w * root value, which averages out much of the noise of
// one game's outcome (Carlsson and Öhman's "Lessons from AlphaZero", 2019; KataGo keeps
// such short-horizon value targets beside the outcome too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <span>
#include <stdexcept>
#include <vector>

#include "env/core/rng.h"
#include "training/selfplay/trajectory.h"

namespace knightgym {

template <Game G>
class ReplayBuffer {
 public:
  explicit ReplayBuffer(int64_t window) : window_(window) {
    if (window < 1) throw std::invalid_argument("a replay window needs at least 1 decision");
  }

  // Adds a finished game and drops the oldest games while the rest still hold the window
  // (games are kept whole: the buffer holds the window and at most one game more).
  void add(Trajectory<G>&& game) {
    size_ += game.size();
    added_ += game.size();
    games_.push_back(std::move(game));
    while (size_ - games_.front().size() >= window_) {
      size_ -= games_.front().size();
      games_.pop_front();
    }
  }

  int64_t size() const { return size_; }
  int64_t added() const { return added_; }  // decisions ever added
  int num_games() const { return static_cast<int>(games_.size()); }
  const std::deque<Trajectory<G>>& games() const { return games_; }  // oldest first

  // `batch` decisions drawn uniformly with replacement. observations: batch x
  // observation_shape; masks, policies: batch x num_actions; values: batch x num_players.
  void sample(const G& game, int batch, Rng& rng, float* observations, uint8_t* masks,
              float* policies, float* values, float q_weight = 0) {
    const G* const one = &game;
    sample({&one, 1}, batch, rng, observations, masks, policies, values, q_weight);
  }

  // The same for games of many rule sets: a trajectory's observations and masks are made
  // by games[its rule_set] (rule_sets.h).
  void sample(std::span<const G* const> games, int batch, Rng& rng, float* observations,
              uint8_t* masks, float* policies, float* values, float q_weight = 0) {
    if (size_ == 0) throw std::logic_error("sampling from an empty replay buffer");
    const GameInfo info = games[0]->info();
    const int obs_size = info.observation_shape.size();
    ends_.clear();  // ends_[g]: decisions in games 0..g
    for (const Trajectory<G>& t : games_)
      ends_.push_back((ends_.empty() ? 0 : ends_.back()) + t.size());
    for (int row = 0; row < batch; ++row) {
      const int64_t index = static_cast<int64_t>(rng.next() % static_cast<uint64_t>(size_));
      const size_t g = std::upper_bound(ends_.begin(), ends_.end(), index) - ends_.begin();
      const Trajectory<G>& t = games_[g];
      const int i = static_cast<int>(index - (ends_[g] - t.size()));
      const auto& state = t.states[i];
      const G& game = *games[t.rule_set];
      const int mover = game.current_player(state);
      game.observe(state, mover, observations + static_cast<int64_t>(row) * obs_size);
      game.legal_mask(state, masks + static_cast<int64_t>(row) * info.num_actions);
      float* policy = policies + static_cast<int64_t>(row) * info.num_actions;
      std::fill_n(policy, info.num_actions, 0.0f);
      for (int32_t p = t.policy_begin[i]; p < t.policy_begin[i + 1]; ++p)
        policy[t.policy_actions[p]] = t.policy_probs[p];
      const float* root = t.root_values.data() + static_cast<int64_t>(i) * info.num_players;
      for (int k = 0; k < info.num_players; ++k) {
        const int player = (mover + k) % info.num_players;
        values[static_cast<int64_t>(row) * info.num_players + k] =
            (1 - q_weight) * t.returns[player] + q_weight * root[player];
      }
    }
  }

 private:
  int64_t window_, size_ = 0, added_ = 0;
  std::deque<Trajectory<G>> games_;
  std::vector<int64_t> ends_;  // sample()'s scratch
};

}  // namespace knightgym

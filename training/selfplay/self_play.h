// Self-play: many games at once, every decision of every game searched together by one
// SearchBatch (so the evaluator sees one batch per round of simulations), the search's
// policy recorded at each decision, and finished games handed over as trajectories and
// restarted. Gumbel search plays its chosen action (its root noise already explores);
// PUCT samples from the visit counts for the first `sample_plies` decisions of a game,
// then plays the most visited.
#pragma once

#include <cstdint>
#include <vector>

#include "agents/search_batch.h"
#include "training/selfplay/trajectory.h"

namespace knightgym {

template <Game G>
class SelfPlay {
 public:
  using State = typename G::State;

  SelfPlay(const G& game, const AzConfig& search, Evaluator& evaluator, int num_games,
           uint64_t seed, int sample_plies = 30)
      : game_(game),
        info_(game.info()),
        gumbel_(search.gumbel),
        sample_plies_(sample_plies),
        batch_(game, search, evaluator),
        rng_(seed),
        games_(num_games),
        states_(num_games),
        seeds_(num_games),
        policy_(info_.num_actions) {
    for (int i = 0; i < num_games; ++i) restart(i);
  }

  // One decision in every game; on_finished(Trajectory<G>&&) receives each game that ended.
  template <class OnFinished>
  void step(OnFinished&& on_finished) {
    for (uint64_t& seed : seeds_) seed = rng_.next();
    batch_.run(states_, seeds_.data());
    for (int i = 0; i < static_cast<int>(states_.size()); ++i) {
      const AzSearch<G>& search = batch_.search(i);
      search.policy(policy_.data());
      games_[i].add(states_[i], policy_);
      const Action action =
          gumbel_ || games_[i].size() > sample_plies_ ? search.best_action() : sample_from(policy_);
      game_.apply(states_[i], action);
      ++decisions_;
      if (!game_.terminal(states_[i])) continue;
      Trajectory<G>& done = games_[i];
      done.returns.resize(info_.num_players);
      game_.returns(states_[i], done.returns.data());
      done.truncated = game_.truncated(states_[i]);
      on_finished(std::move(done));
      ++finished_;
      restart(i);
    }
  }

  int64_t decisions() const { return decisions_; }
  int64_t finished_games() const { return finished_; }
  int64_t evaluations() const { return batch_.evaluated(); }

 private:
  void restart(int i) {
    games_[i] = Trajectory<G>{};
    game_.init(states_[i], rng_);
  }

  Action sample_from(const std::vector<float>& policy) {
    // Inverse transform over the policy's mass; the last legal action takes rounding.
    double u = static_cast<double>(rng_.next() >> 11) * 0x1.0p-53;
    Action last = 0;
    for (int a = 0; a < info_.num_actions; ++a) {
      if (policy[a] <= 0) continue;
      last = a;
      if ((u -= policy[a]) < 0) return a;
    }
    return last;
  }

  const G& game_;
  GameInfo info_;
  bool gumbel_;
  int sample_plies_;
  SearchBatch<G> batch_;
  Rng rng_;
  std::vector<Trajectory<G>> games_;
  std::vector<State> states_;
  std::vector<uint64_t> seeds_;
  std::vector<float> policy_;
  int64_t decisions_ = 0, finished_ = 0;
};

}  // namespace knightgym

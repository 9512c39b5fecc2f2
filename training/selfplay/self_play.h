// Self-play: many games at once, every decision of every game searched together by one
// SearchBatch (so the evaluator sees one batch per round of simulations), the search's
// policy recorded at each decision, and finished games handed over as trajectories and
// restarted. Gumbel search plays its chosen action (its root noise already explores);
// PUCT samples from the visit counts for the first `sample_plies` decisions of a game,
// then plays the most visited.
//
// Playout cap randomization (Wu 2019, KataGo's "Accelerating Self-Play Learning in Go"):
// with a PlayoutCap, each decision is a full search (the configured simulations) with
// probability full_fraction and otherwise a fast one of fast_sims simulations, and only
// the full searches are recorded for training. Games cost fewer evaluations, so more of
// them are played: more outcomes to learn values from, each recorded policy as good.
//
// A horizon stops each game after that many decisions and scores it as the game scores a
// truncation there (Knights Challenge: by the tally), for more results per hour in games
// that last long; the network still sees the game's own max_turns in its observation.
//
// With a game budget, self-play plays exactly that many games and stops: a slot whose
// game ends starts another only while fewer than the budget have started (a self-play
// chunk of training/distributed/self_play_actor.h, the same games wherever it is played).
//
// Over many rule sets (rule_sets.h), each game that starts draws its rule set, which its
// trajectory records; the games of every rule set share the searches' batches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "agents/search_batch.h"
#include "training/selfplay/rule_sets.h"
#include "training/selfplay/trajectory.h"

namespace knightgym {

struct PlayoutCap {
  int fast_sims = 0;         // 0: every search is full
  double full_fraction = 1;  // the share of decisions searched in full, and recorded
};

template <Game G>
class SelfPlay {
 public:
  using State = typename G::State;

  SelfPlay(const G& game, const AzConfig& search, Evaluator& evaluator, int num_games,
           uint64_t seed, int sample_plies = 30, PlayoutCap cap = {}, int horizon = 0,
           int64_t game_budget = 0)
      : SelfPlay(RuleSets<G>(game, ""), search, evaluator, num_games, seed, sample_plies, cap,
                 horizon, game_budget) {}

  // The same over `rules`, each game's drawn as it starts.
  SelfPlay(RuleSets<G> rules, const AzConfig& search, Evaluator& evaluator, int num_games,
           uint64_t seed, int sample_plies = 30, PlayoutCap cap = {}, int horizon = 0,
           int64_t game_budget = 0)
      : rules_(std::move(rules)),
        info_(rules_[0].info()),
        gumbel_(search.gumbel),
        sample_plies_(sample_plies),
        full_sims_(search.sims),
        cap_(cap),
        horizon_(horizon),
        budget_(game_budget),
        batch_(rules_[0], search, evaluator),
        rng_(seed),
        games_(slots_for(num_games, game_budget)),
        states_(games_.size()),
        rule_games_(games_.size()),
        seeds_(games_.size()),
        sims_(games_.size(), search.sims),
        plies_(games_.size()),
        full_(games_.size(), 1),
        policy_(info_.num_actions),
        root_values_(info_.num_players) {
    for (int i = 0; i < static_cast<int>(states_.size()); ++i) restart(i);
  }

  // One decision in every game; on_finished(Trajectory<G>&&) receives each game that ended.
  template <class OnFinished>
  void step(OnFinished&& on_finished) {
    const int live = static_cast<int>(states_.size());
    for (uint64_t& seed : seeds_) seed = rng_.next();
    if (cap_.fast_sims > 0)  // no draws without the cap: the same games as before it
      for (int i = 0; i < live; ++i) {
        full_[i] = static_cast<double>(rng_.next() >> 11) * 0x1.0p-53 < cap_.full_fraction;
        sims_[i] = full_[i] ? full_sims_ : cap_.fast_sims;
      }
    batch_.run(states_, seeds_.data(), {}, sims_.data(), rule_games_.data());
    int kept = live;
    for (int i = 0; i < live; ++i) {
      const AzSearch<G>& search = batch_.search(i);
      search.policy(policy_.data());
      if (full_[i]) {
        search.root_values(root_values_.data());
        games_[i].add(states_[i], policy_, root_values_);
      }
      const Action action =
          gumbel_ || plies_[i] >= sample_plies_ ? search.best_action() : sample_from(policy_);
      const G& game = *rule_games_[i];
      game.apply(states_[i], action);
      ++plies_[i];
      ++decisions_;
      if (!game.terminal(states_[i])) {
        if (horizon_ == 0 || plies_[i] < horizon_) continue;
        states_[i].end = End::kTruncated;  // scored as if the game's own cap fell here
      }
      Trajectory<G>& done = games_[i];
      done.plies = plies_[i];
      done.returns.resize(info_.num_players);
      game.returns(states_[i], done.returns.data());
      done.truncated = game.truncated(states_[i]);
      on_finished(std::move(done));
      ++finished_;
      if (budget_ == 0 || started_ < budget_) {
        restart(i);
      } else {
        plies_[i] = kRetired;
        --kept;
      }
    }
    if (kept < live) drop_retired();
  }

  // Times the game's code in the searches from the next step on (agents/env_clock.h);
  // null: no timing.
  void set_env_clock(EnvClock* clock) { batch_.set_env_clock(clock); }
  // With a budget: whether every game of it has finished.
  bool done() const { return states_.empty(); }
  int64_t decisions() const { return decisions_; }
  int64_t finished_games() const { return finished_; }
  int64_t evaluations() const { return batch_.evaluated(); }

 private:
  static constexpr int kRetired = -1;  // plies_ of a slot with no game left to play

  void restart(int i) {
    games_[i] = Trajectory<G>{};
    plies_[i] = 0;
    ++started_;
    games_[i].rule_set = rules_.draw(rng_);
    rule_games_[i] = &rules_[games_[i].rule_set];
    rule_games_[i]->init(states_[i], rng_);
  }

  static int slots_for(int num_games, int64_t budget) {
    return budget > 0 ? static_cast<int>(std::min<int64_t>(num_games, budget)) : num_games;
  }

  // Drops the retired slots, keeping the others in order.
  void drop_retired() {
    int to = 0;
    for (int from = 0; from < static_cast<int>(states_.size()); ++from) {
      if (plies_[from] == kRetired) continue;
      if (to != from) {
        states_[to] = states_[from];
        rule_games_[to] = rule_games_[from];
        games_[to] = std::move(games_[from]);
        plies_[to] = plies_[from];
      }
      ++to;
    }
    states_.resize(to), rule_games_.resize(to), games_.resize(to), plies_.resize(to);
    seeds_.resize(to);
    sims_.resize(to), full_.resize(to);
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

  RuleSets<G> rules_;
  GameInfo info_;
  bool gumbel_;
  int sample_plies_;
  int full_sims_;
  PlayoutCap cap_;
  int horizon_;     // 0: none
  int64_t budget_;  // games to play; 0: no end
  int64_t started_ = 0;
  SearchBatch<G> batch_;
  Rng rng_;
  std::vector<Trajectory<G>> games_;
  std::vector<State> states_;
  std::vector<const G*> rule_games_;  // each slot's game: its rule set's
  std::vector<uint64_t> seeds_;
  std::vector<int> sims_, plies_;
  std::vector<uint8_t> full_;
  std::vector<float> policy_, root_values_;
  int64_t decisions_ = 0, finished_ = 0;
};

}  // namespace knightgym

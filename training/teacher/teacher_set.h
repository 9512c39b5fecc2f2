// A teacher run's games as training data for game G: every decision in a replay buffer
// (the same draws, symmetries and value targets as self-play's), a share of the games
// held out, and how well a network agrees with the teacher on them; and self-play's
// games in the shards' format, which a run keeps beside each checkpoint.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "agents/evaluator.h"
#include "env/core/rng.h"
#include "training/selfplay/replay_buffer.h"
#include "training/selfplay/rule_sets.h"
#include "training/teacher/teacher_data.h"
#include "util/text.h"

namespace knightgym {

// A teacher's game as a trajectory: each state read back from its text, the teacher's
// policy, and a root value per player from the mover's (the other players share its
// opposite, as in a zero-sum game; a teacher without values gives the returns).
template <Game G>
Trajectory<G> to_trajectory(const G& game, const TeacherGame& played) {
  const int players = game.info().num_players;
  Trajectory<G> out;
  std::vector<float> policy(game.info().num_actions), values(players);
  for (const TeacherDecision& decision : played.decisions) {
    const typename G::State state = game.deserialize(decision.state);
    std::fill(policy.begin(), policy.end(), 0.0f);
    for (const auto& [action, probability] : decision.policy) policy[action] = probability;
    const int mover = game.current_player(state);
    for (int p = 0; p < players; ++p)
      values[p] = std::isnan(decision.value) ? played.returns[p]
                  : p == mover               ? decision.value
                                             : -decision.value / static_cast<float>(players - 1);
    out.add(state, policy, values);
  }
  out.returns = played.returns;
  out.truncated = played.truncated;
  out.plies = static_cast<int>(played.decisions.size());
  return out;
}

// A shard's game as a trajectory of the one of `rules` it was played by (its own rules,
// else the shard's game), whose index the trajectory keeps. Throws std::invalid_argument
// naming `where` if that is none of them.
template <Game G>
Trajectory<G> to_trajectory(const RuleSets<G>& rules, const TeacherShard& shard,
                            const TeacherGame& played, const std::string& where) {
  const std::string& spec = played.rules.empty() ? shard.game_spec : played.rules;
  const int rule_set = rules.index_of(spec);
  if (rule_set < 0)
    throw std::invalid_argument("'" + where + "' holds games of " + spec + ", not of " +
                                (rules.size() == 1
                                     ? rules.spec(0)
                                     : "one of the run's " + std::to_string(rules.size()) +
                                           " rule sets (" + join(rules.specs(), "; ") + ")"));
  Trajectory<G> trajectory = to_trajectory(rules[rule_set], played);
  trajectory.rule_set = rule_set;
  return trajectory;
}

// The other way: a trajectory as a teacher's game (its root value the mover's), which
// to_trajectory reads back exactly in a two-player game; `rules`: the canonical spec of
// its rule set where it is not the shard's game.
template <Game G>
TeacherGame to_teacher_game(const G& game, const Trajectory<G>& played, int64_t index,
                            std::string rules = "") {
  const int players = game.info().num_players;
  TeacherGame out;
  out.index = index;
  out.rules = std::move(rules);
  out.truncated = played.truncated;
  out.returns = played.returns;
  for (int i = 0; i < played.size(); ++i) {
    TeacherDecision decision;
    decision.state = game.serialize(played.states[i]);
    const int mover = game.current_player(played.states[i]);
    decision.value = played.root_values[static_cast<size_t>(i) * players + mover];
    for (int32_t p = played.policy_begin[i]; p < played.policy_begin[i + 1]; ++p)
      decision.policy.emplace_back(played.policy_actions[p], played.policy_probs[p]);
    out.decisions.push_back(std::move(decision));
  }
  return out;
}

// What a network makes of a teacher's decisions.
struct Agreement {
  double policy_loss = 0;  // cross-entropy against the teacher's policy, nats
  double entropy = 0;      // the teacher's policy's own: the least policy_loss can be
  double top1 = 0;         // share of decisions whose most likely move is the teacher's
};

// The evaluator's agreement with the teacher on `rows` decisions of `decisions`, the same
// ones at every call (a fixed draw), evaluated `batch` at a time; `games`: each rule
// set's game (ReplayBuffer::sample).
template <Game G>
Agreement measure_agreement(std::span<const G* const> games, ReplayBuffer<G>& decisions,
                            Evaluator& evaluator, int rows, int batch) {
  const GameInfo info = games[0]->info();
  const int actions = info.num_actions;
  std::vector<float> observations(static_cast<size_t>(batch) * info.observation_shape.size());
  std::vector<float> targets(static_cast<size_t>(batch) * actions), priors(targets.size());
  std::vector<float> values(static_cast<size_t>(batch) * info.num_players);
  std::vector<uint8_t> masks(static_cast<size_t>(batch) * actions);
  Rng rng(0x401d047ull);
  Agreement out;
  for (int done = 0; done < rows; done += batch) {
    const int n = std::min(batch, rows - done);
    decisions.sample(games, n, rng, observations.data(), masks.data(), targets.data(),
                     values.data());
    evaluator.evaluate(n, observations.data(), masks.data(), priors.data(), values.data());
    for (int row = 0; row < n; ++row) {
      const float* target = targets.data() + static_cast<int64_t>(row) * actions;
      const float* prior = priors.data() + static_cast<int64_t>(row) * actions;
      for (int a = 0; a < actions; ++a)
        if (target[a] > 0) {
          out.policy_loss -= target[a] * std::log(std::max(prior[a], 1e-12f));
          out.entropy -= target[a] * std::log(target[a]);
        }
      out.top1 += std::max_element(prior, prior + actions) - prior ==
                  std::max_element(target, target + actions) - target;
    }
  }
  out.policy_loss /= rows;
  out.entropy /= rows;
  out.top1 /= rows;
  return out;
}

template <Game G>
Agreement measure_agreement(const G& game, ReplayBuffer<G>& decisions, Evaluator& evaluator,
                            int rows, int batch) {
  const G* const one = &game;
  return measure_agreement<G>({&one, 1}, decisions, evaluator, rows, batch);
}

template <Game G>
class TeacherSet {
 public:
  // Every game of the teacher run in `dir` (of `game_spec`), game i held out when
  // holdout > 0 and i falls on a multiple of 1 / holdout. Throws std::invalid_argument
  // naming the problem (no shards, a damaged or foreign one, no game left to learn).
  TeacherSet(const G& game, const std::string& dir, const std::string& game_spec, double holdout)
      : TeacherSet(RuleSets<G>(game, game_spec), dir, holdout) {}

  // The same for a run over many rule sets: `dir` holds a teacher run, or folders of them
  // (teacher_run_dirs: one per rule set, say), and every game's rules must be one of
  // `rules`, whose index its trajectory keeps.
  TeacherSet(const RuleSets<G>& rules, const std::string& dir, double holdout)
      : train_(std::numeric_limits<int64_t>::max()), holdout_(std::numeric_limits<int64_t>::max()) {
    const int64_t period = holdout > 0 ? std::llround(1 / holdout) : 0;
    for (const std::string& run : teacher_run_dirs(dir))
      for (const TeacherShard& shard : read_teacher_data(run))
        for (const TeacherGame& played : shard.games)
          (period > 0 && played.index % period == period - 1 ? holdout_ : train_)
              .add(to_trajectory(rules, shard, played, run));
    if (train_.size() == 0)
      throw std::invalid_argument("'" + dir + "' holds no teacher decisions to learn from");
  }

  ReplayBuffer<G>& train() { return train_; }
  int64_t holdout_decisions() const { return holdout_.size(); }

  // The evaluator's agreement with the teacher on `rows` held-out decisions; `games`:
  // each rule set's game.
  Agreement holdout_agreement(std::span<const G* const> games, Evaluator& evaluator, int rows,
                              int batch) {
    return measure_agreement(games, holdout_, evaluator, rows, batch);
  }

 private:
  ReplayBuffer<G> train_, holdout_;
};

}  // namespace knightgym

// The single-agent view of a game: N environments in which the learner plays one seat and
// a built-in agent (any agent spec: agents/agent_kinds.h) plays all the others, in C++.
// Environment i gives the learner seat i mod num_players, so the seats are rotated across
// the batch. After the learner's action the opponents move until it is the learner's
// turn again or the game is over; the opponent decides for all the environments where it
// is to move with one act_batch (one network batch per round for az opponents).
//
// The states, streams, buffers and next-step auto-reset are the EnvBatch's, as in the
// vector env (env/vector/env_batch.h): the observation and mask from the learner's seat,
// its reward (its return once the game is over, else 0), terminated and truncated; the
// step after the end of an episode ignores that environment's action and starts a new
// one (should the opponents end a game before the learner's first turn, that shows as an
// ended episode too). Results depend only on the seeds: the episodes' streams are
// re-derived by reset(seed), the opponent's own stream is seeded once, when the
// environment is made.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "env/registry/any_game.h"
#include "env/vector/aligned_array.h"
#include "env/vector/env_batch.h"

namespace knightgym {

class AnyOpponentEnv : public AnyEnvBatch {
 public:
  virtual const int32_t* seats() const = 0;  // [N]: the learner's seat
};

template <Game G>
class OpponentEnv final : public AnyOpponentEnv {
 public:
  using State = typename G::State;

  OpponentEnv(std::shared_ptr<const AnyGame> any_game, const G& game,
              std::unique_ptr<Agent<G>> opponent, int num_envs, uint64_t seed)
      : any_game_(std::move(any_game)),
        batch_(game, num_envs, EnvBatch<G>::Rewards::kObserver),
        opponent_(std::move(opponent)),
        seats_(batch_.num_envs()) {
    for (int i = 0; i < batch_.num_envs(); ++i) seats_[i] = i % batch_.info().num_players;
    waiting_.reserve(batch_.num_envs());
    batch_states_.reserve(batch_.num_envs());
    actions_.reserve(batch_.num_envs());
    reset(seed);
  }

  const AnyGame& game() const override { return *any_game_; }
  int num_envs() const override { return batch_.num_envs(); }

  void reset(std::optional<uint64_t> seed) override {
    if (seed) batch_.reseed(*seed);
    for (int i = 0; i < num_envs(); ++i) batch_.start_episode(i);
    play_opponents();
  }

  void step(const Action* actions) override {
    batch_.check(actions);
    for (int i = 0; i < num_envs(); ++i) {
      if (batch_.needs_reset(i))
        batch_.start_episode(i);
      else
        batch_.game().apply(batch_.state(i), actions[i]);
    }
    play_opponents();
  }

  void sample_actions(Action* out) override {
    for (int i = 0; i < num_envs(); ++i) out[i] = batch_.sample_action(i);
  }

  const float* observations() const override { return batch_.observations(); }
  const uint8_t* masks() const override { return batch_.masks(); }
  const float* rewards() const override { return batch_.rewards(); }
  int reward_width() const override { return 1; }
  const uint8_t* terminated() const override { return batch_.terminated(); }
  const uint8_t* truncated() const override { return batch_.truncated(); }
  const int32_t* seats() const override { return seats_.data(); }

 private:
  bool opponent_to_move(int i) const {
    const State& s = batch_.state(i);
    return !batch_.game().terminal(s) && batch_.game().current_player(s) != seats_[i];
  }

  // The opponent moves everywhere until the learner is to move or the game is over.
  void play_opponents() {
    while (true) {
      waiting_.clear();
      batch_states_.clear();
      for (int i = 0; i < num_envs(); ++i) {
        if (opponent_to_move(i)) {
          waiting_.push_back(i);
          batch_states_.push_back(batch_.state(i));
        }
      }
      if (waiting_.empty()) break;
      actions_.resize(waiting_.size());
      opponent_->act_batch(batch_states_, actions_.data());
      for (size_t k = 0; k < waiting_.size(); ++k)
        batch_.game().apply(batch_.state(waiting_[k]), actions_[k]);
    }
    for (int i = 0; i < num_envs(); ++i) batch_.write_outputs(i, seats_[i]);
  }

  std::shared_ptr<const AnyGame> any_game_;
  EnvBatch<G> batch_;
  std::unique_ptr<Agent<G>> opponent_;
  AlignedArray<int32_t> seats_;
  std::vector<int> waiting_;
  std::vector<State> batch_states_;
  std::vector<Action> actions_;
};

// The environments of `game` against the agent `opponent_spec` (agent_kinds.h), which
// is made once, seeded from `seed`. Throws std::invalid_argument for a bad spec.
std::unique_ptr<AnyOpponentEnv> make_opponent_env(std::shared_ptr<const AnyGame> game,
                                                  const std::string& opponent_spec, int num_envs,
                                                  uint64_t seed);

}  // namespace knightgym

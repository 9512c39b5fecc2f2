// The single-agent view of a game: N environments in which the learner plays one seat and
// a built-in agent (any agent spec: agents/agent_kinds.h) plays all the others, in C++.
// Environment i gives the learner seat i mod num_players, so the seats are rotated across
// the batch, or one seat everywhere (learner_seat). After the learner's action the
// opponents move until it is the learner's turn again or the game is over; the opponent
// decides for all the environments where it is to move with one act_batch (one network
// batch per round for az opponents).
//
// The states, streams, buffers and auto-reset are the EnvBatch's, as in the vector env
// (env/vector/env_batch.h): the observation and mask from the learner's seat, its reward
// (its return once the game is over, else 0), terminated and truncated. Should the
// opponents end a new episode before the learner's first decision, that shows as an
// ended episode too (with same-step auto-reset, on the step after it began). Results
// depend only on the seed: a reset of every environment with a seed re-derives the
// episodes' streams and remakes the opponent with its stream seeded from it, as when the
// environment was made (a reset of chosen environments re-derives only theirs).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "env/registry/any_game.h"
#include "env/registry/batch_buffers.h"
#include "env/registry/game_adapter.h"
#include "env/vector/aligned_array.h"
#include "env/vector/env_batch.h"

namespace knightgym {

class AnyOpponentEnv : public AnyEnvBatch {
 public:
  virtual const int32_t* seats() const = 0;  // [N]: the learner's seat
};

template <Game G>
class OpponentEnv final : public BatchBuffers<AnyOpponentEnv, OpponentEnv<G>> {
 public:
  using State = typename G::State;
  // The opponent, with its stream seeded from the environments' seed.
  using MakeOpponent = std::function<std::unique_ptr<Agent<G>>(uint64_t seed)>;

  // learner_seat: the learner's seat in every environment, or -1 for i mod num_players.
  OpponentEnv(std::shared_ptr<const GameAdapter<G>> game, MakeOpponent make_opponent,
              const VectorEnvOptions& options, int learner_seat)
      : game_(std::move(game)),
        batch_(game_->rules(), options, EnvBatch<G>::Rewards::kObserver),
        make_opponent_(std::move(make_opponent)),
        opponent_(make_opponent_(batch_.seed())),
        seats_(batch_.num_envs()) {
    const int players = batch_.info().num_players;
    if (learner_seat < -1 || learner_seat >= players)
      throw std::invalid_argument("learner seat " + std::to_string(learner_seat) +
                                  " is out of range [0, " + std::to_string(players) +
                                  ") (-1: rotated across the envs)");
    for (int i = 0; i < batch_.num_envs(); ++i)
      seats_[i] = learner_seat < 0 ? i % players : learner_seat;
    waiting_.reserve(batch_.num_envs());
    batch_states_.reserve(batch_.num_envs());
    actions_.reserve(batch_.num_envs());
    for (int i = 0; i < batch_.num_envs(); ++i) batch_.start_episode(i);
    play_opponents();
    for (int i = 0; i < batch_.num_envs(); ++i) batch_.write_outputs(i, seats_[i]);
  }

  const EnvBatch<G>& buffers() const { return batch_; }
  const AnyGame& game() const override { return *game_; }

  void reset(std::optional<uint64_t> seed, const uint8_t* chosen) override {
    if (!batch_.prepare_reset(seed, chosen)) return;
    if (seed && !chosen) opponent_ = make_opponent_(*seed);
    for (int i = 0; i < batch_.num_envs(); ++i)
      if (!chosen || chosen[i]) batch_.start_episode(i);
    play_opponents();
    for (int i = 0; i < batch_.num_envs(); ++i)
      if (!chosen || chosen[i]) batch_.write_outputs(i, seats_[i]);
  }

  void step(const Action* actions) override {
    batch_.check_step(actions);
    for (int i = 0; i < batch_.num_envs(); ++i)
      if (batch_.begin_step(i)) batch_.game().apply(batch_.state(i), actions[i]);
    play_opponents();
    bool restarted = false;
    for (int i = 0; i < batch_.num_envs(); ++i) {
      batch_.write_outputs(i, seats_[i]);
      restarted |= batch_.restart_if_over(i);
    }
    if (!restarted) return;
    play_opponents();
    for (int i = 0; i < batch_.num_envs(); ++i)
      if (batch_.has_final()[i]) batch_.write_observation(i, seats_[i]);
  }

  void sample_actions(Action* out) override {
    for (int i = 0; i < batch_.num_envs(); ++i) out[i] = batch_.sample_action(i);
  }

  int reward_width() const override { return 1; }
  const int32_t* seats() const override { return seats_.data(); }
  // The environments as the snapshot has them; the opponent is a new agent of its spec,
  // seeded as a reset with the snapshot's seed seeds it (an agent's stream and search
  // are its own, not the environments').
  void restore(const EnvSnapshot& snapshot) override {
    batch_.restore(snapshot);
    opponent_ = make_opponent_(batch_.seed());
  }
  std::unique_ptr<AnyState> state(int i) const override {
    return std::make_unique<StateAdapter<G>>(game_, batch_.checked_state(i));
  }

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
      for (int i = 0; i < batch_.num_envs(); ++i) {
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
  }

  std::shared_ptr<const GameAdapter<G>> game_;
  EnvBatch<G> batch_;
  MakeOpponent make_opponent_;
  std::unique_ptr<Agent<G>> opponent_;
  AlignedArray<int32_t> seats_;
  std::vector<int> waiting_;
  std::vector<State> batch_states_;
  std::vector<Action> actions_;
};

// The environments of `game` against the agent `opponent_spec` (agent_kinds.h), seeded
// from the environments' seed; the learner plays `learner_seat` everywhere, or -1: seat
// i mod num_players in environment i. Throws std::invalid_argument for a bad spec or
// seat, or for options.num_threads other than 1 (an opponent env steps on one).
std::unique_ptr<AnyOpponentEnv> make_opponent_env(std::shared_ptr<const AnyGame> game,
                                                  const std::string& opponent_spec,
                                                  const VectorEnvOptions& options,
                                                  int learner_seat = -1);

}  // namespace knightgym

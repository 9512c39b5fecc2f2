// The single-agent view of a game: N environments in which the learner plays one seat and
// a built-in agent (agent specs: random, greedy, mcts, az) plays all the others, in C++.
// Environment i gives the learner seat i mod num_players, so the seats are rotated across
// the batch. After the learner's action the opponents move until it is the learner's
// turn again or the game is over; the opponent decides for all the environments where it
// is to move with one act_batch (one network batch per round for az opponents).
//
// Outputs, as in the vector env: the observation and mask from the learner's seat, its
// reward (its return once the game is over, else 0), terminated and truncated, with
// next-step auto-reset: the step after the end of an episode ignores that environment's
// action and starts a new one (should the opponents end a game before the learner's first
// turn, that shows as an ended episode too). Results depend only on the seeds: the
// episodes' streams are re-derived by reset(seed), the opponent's own stream is seeded
// once, when the environment is made.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "env/core/rng.h"
#include "env/registry/any_game.h"
#include "env/vector/check_actions.h"

namespace knightgym {

class AnyOpponentEnv {
 public:
  virtual ~AnyOpponentEnv() = default;
  virtual int num_envs() const = 0;
  virtual const GameInfo& info() const = 0;
  virtual void reset(std::optional<uint64_t> seed) = 0;
  // Throws std::invalid_argument naming the first environment whose action is out of
  // range or illegal; then nothing has changed.
  virtual void step(const Action* actions) = 0;
  virtual const float* observations() const = 0;
  virtual const uint8_t* masks() const = 0;
  virtual const float* rewards() const = 0;  // [N]: the learner's
  virtual const uint8_t* terminated() const = 0;
  virtual const uint8_t* truncated() const = 0;
  virtual const int32_t* seats() const = 0;  // [N]: the learner's seat
};

template <Game G>
class OpponentEnv final : public AnyOpponentEnv {
 public:
  using State = typename G::State;

  OpponentEnv(const G& game, std::unique_ptr<Agent<G>> opponent, int num_envs, uint64_t seed)
      : game_(game),
        info_(game.info()),
        opponent_(std::move(opponent)),
        states_(checked(num_envs)),
        rngs_(num_envs),
        needs_reset_(num_envs),
        observations_(static_cast<size_t>(num_envs) * info_.observation_shape.size()),
        masks_(static_cast<size_t>(num_envs) * info_.num_actions),
        rewards_(num_envs),
        terminated_(num_envs),
        truncated_(num_envs),
        seats_(num_envs) {
    for (int i = 0; i < num_envs; ++i) seats_[i] = i % info_.num_players;
    reset(seed);
  }

  int num_envs() const override { return static_cast<int>(states_.size()); }
  const GameInfo& info() const override { return info_; }

  void reset(std::optional<uint64_t> seed) override {
    if (seed)
      for (int i = 0; i < num_envs(); ++i) rngs_[i].reseed(derive_seed(*seed, i));
    for (int i = 0; i < num_envs(); ++i) start_episode(i);
    play_opponents();
  }

  void step(const Action* actions) override {
    check_actions(game_, states_.data(), masks_.data(), needs_reset_.data(), num_envs(), actions);
    for (int i = 0; i < num_envs(); ++i) {
      if (needs_reset_[i]) {
        start_episode(i);
        continue;
      }
      game_.apply(states_[i], actions[i]);
    }
    play_opponents();
  }

  const float* observations() const override { return observations_.data(); }
  const uint8_t* masks() const override { return masks_.data(); }
  const float* rewards() const override { return rewards_.data(); }
  const uint8_t* terminated() const override { return terminated_.data(); }
  const uint8_t* truncated() const override { return truncated_.data(); }
  const int32_t* seats() const override { return seats_.data(); }

 private:
  static int checked(int num_envs) {
    if (num_envs < 1)
      throw std::invalid_argument("num_envs must be at least 1, got " + std::to_string(num_envs));
    return num_envs;
  }

  void start_episode(int i) {
    Rng rng(rngs_[i].next());
    game_.init(states_[i], rng);
    needs_reset_[i] = 0;
  }

  bool opponent_to_move(int i) const {
    return !game_.terminal(states_[i]) && game_.current_player(states_[i]) != seats_[i];
  }

  // The opponent moves everywhere until the learner is to move or the game is over.
  void play_opponents() {
    while (true) {
      waiting_.clear();
      batch_.clear();
      for (int i = 0; i < num_envs(); ++i) {
        if (opponent_to_move(i)) {
          waiting_.push_back(i);
          batch_.push_back(states_[i]);
        }
      }
      if (waiting_.empty()) break;
      actions_.resize(waiting_.size());
      opponent_->act_batch(batch_, actions_.data());
      for (size_t k = 0; k < waiting_.size(); ++k) game_.apply(states_[waiting_[k]], actions_[k]);
    }
    for (int i = 0; i < num_envs(); ++i) write_outputs(i);
  }

  void write_outputs(int i) {
    const State& s = states_[i];
    const bool over = game_.terminal(s);
    game_.observe(s, seats_[i],
                  &observations_[static_cast<size_t>(i) * info_.observation_shape.size()]);
    game_.legal_mask(s, &masks_[static_cast<size_t>(i) * info_.num_actions]);
    rewards_[i] = 0;
    if (over) {
      game_.returns(s, returns_.data());
      rewards_[i] = returns_[seats_[i]];
    }
    terminated_[i] = over && !game_.truncated(s);
    truncated_[i] = game_.truncated(s);
    needs_reset_[i] = over;
  }

  const G game_;
  const GameInfo info_;
  std::unique_ptr<Agent<G>> opponent_;
  std::vector<State> states_;
  std::vector<Rng> rngs_;
  std::vector<uint8_t> needs_reset_;
  std::vector<float> observations_;
  std::vector<uint8_t> masks_;
  std::vector<float> rewards_;
  std::vector<uint8_t> terminated_, truncated_;
  std::vector<int32_t> seats_;
  std::vector<int> waiting_;
  std::vector<State> batch_;
  std::vector<Action> actions_;
  std::vector<float> returns_ = std::vector<float>(info_.num_players);
};

// The environments of `game` against the agent `opponent_spec` (agent_config.h), which
// is made once, seeded from `seed`. Throws std::invalid_argument for a bad spec.
std::unique_ptr<AnyOpponentEnv> make_opponent_env(const AnyGame& game,
                                                  const std::string& opponent_spec, int num_envs,
                                                  uint64_t seed);

}  // namespace knightgym

// EnvBatch<G>: what every batch of environments of one game holds, shared by VectorEnv
// (every seat, env/vector/vector_env.h) and OpponentEnv (one learner seat against an
// agent, agents/opponent_env.h): the states, each environment's two random streams, the
// flags of next-step auto-reset, and the contiguous output buffers (row i belongs to
// environment i):
//   observations  float32 [N, C, H, W]  from the side the owner names
//   masks         uint8   [N, A]        1 = legal; all zero for a finished episode
//   rewards       float32 [N, W]        on the step that ends an episode, else 0: every
//                                       player's return (W = players) or the observer's
//                                       (W = 1)
//   terminated    uint8   [N]           the episode ended by the rules on this step
//   truncated     uint8   [N]           the episode ended by the length cap on this step
//
// Determinism: environment i draws its episodes from derive_seed(seed, 2i) and its
// sampled actions from derive_seed(seed, 2i + 1), and nothing is shared between
// environments, so results never depend on which thread steps which environment.
// Nothing is allocated after construction.
#pragma once

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/core/game.h"
#include "env/core/sample.h"
#include "env/vector/aligned_array.h"
#include "env/vector/check_actions.h"

namespace knightgym {

template <Game G>
class EnvBatch {
 public:
  using State = typename G::State;

  // Every player's return per environment (the vector env), or the observer's only.
  enum class Rewards { kEveryPlayer, kObserver };

  EnvBatch(const G& game, int num_envs, Rewards rewards)
      : game_(game),
        info_(game.info()),
        num_envs_(checked_num_envs(num_envs)),
        reward_width_(rewards == Rewards::kEveryPlayer ? info_.num_players : 1),
        states_(num_envs_),
        episode_rngs_(num_envs_),
        action_rngs_(num_envs_),
        needs_reset_(num_envs_),
        observations_(static_cast<size_t>(num_envs_) * info_.observation_shape.size()),
        masks_(static_cast<size_t>(num_envs_) * info_.num_actions),
        rewards_(static_cast<size_t>(num_envs_) * reward_width_),
        terminated_(num_envs_),
        truncated_(num_envs_) {
    check_playable(game);
  }

  const G& game() const { return game_; }
  const GameInfo& info() const { return info_; }
  int num_envs() const { return num_envs_; }
  State& state(int i) { return states_[i]; }
  const State& state(int i) const { return states_[i]; }
  // The last step ended environment i's episode: the next step starts a new one.
  bool needs_reset(int i) const { return needs_reset_[i]; }

  // Derives every environment's two streams afresh from `seed`.
  void reseed(uint64_t seed) {
    for (int i = 0; i < num_envs_; ++i) {
      episode_rngs_[i].reseed(derive_seed(seed, 2 * static_cast<uint64_t>(i)));
      action_rngs_[i].reseed(derive_seed(seed, 2 * static_cast<uint64_t>(i) + 1));
    }
  }

  // Throws std::invalid_argument naming the first environment whose action is out of
  // range or illegal, skipping those that reset on this step; then nothing has changed.
  void check(const Action* actions) const {
    check_actions(game_, states_.data(), masks_.data(), needs_reset_.data(), num_envs_, actions);
  }

  // A new episode in environment i, from its episode stream; write_outputs follows.
  void start_episode(int i) {
    Rng rng(episode_rngs_[i].next());
    game_.init(states_[i], rng);
  }

  // A uniformly random legal action for environment i from its action stream; 0 where
  // the next step resets.
  Action sample_action(int i) {
    return needs_reset_[i] ? 0 : sample_legal_action(game_, states_[i], action_rngs_[i]);
  }

  // Environment i's outputs from its state, observed by `observer`: the flags, the
  // rewards (the returns once the episode is over, else zero), the observation and mask.
  void write_outputs(int i, int observer) {
    const State& s = states_[i];
    const bool over = game_.terminal(s);
    needs_reset_[i] = over;
    terminated_[i] = over && !game_.truncated(s);
    truncated_[i] = game_.truncated(s);
    float* rewards = &rewards_[static_cast<size_t>(i) * reward_width_];
    if (!over) {
      std::fill_n(rewards, reward_width_, 0.0f);
    } else if (reward_width_ == info_.num_players) {
      game_.returns(s, rewards);
    } else {
      std::array<float, kMaxPlayers> returns;
      game_.returns(s, returns.data());
      rewards[0] = returns[observer];
    }
    game_.observe(s, observer,
                  &observations_[static_cast<size_t>(i) * info_.observation_shape.size()]);
    game_.legal_mask(s, &masks_[static_cast<size_t>(i) * info_.num_actions]);
  }

  const float* observations() const { return observations_.data(); }
  const uint8_t* masks() const { return masks_.data(); }
  const float* rewards() const { return rewards_.data(); }
  const uint8_t* terminated() const { return terminated_.data(); }
  const uint8_t* truncated() const { return truncated_.data(); }

 private:
  static int checked_num_envs(int num_envs) {
    if (num_envs < 1)
      throw std::invalid_argument("num_envs must be at least 1, got " + std::to_string(num_envs));
    return num_envs;
  }

  // An episode that is over before its first decision (a Knightmate FEN that is mate)
  // would reset forever: refused here, where the error can still reach the caller.
  static void check_playable(const G& game) {
    if (game.info().num_players > kMaxPlayers)
      throw std::invalid_argument(std::string(G::kName) + ": more than " +
                                  std::to_string(kMaxPlayers) + " players");
    State probe;
    Rng rng(0);
    game.init(probe, rng);
    if (game.terminal(probe))
      throw std::invalid_argument(std::string(G::kName) +
                                  ": the game is over in its initial state, so a vector env "
                                  "cannot play it");
  }

  const G game_;
  const GameInfo info_;
  const int num_envs_;
  const int reward_width_;
  std::vector<State> states_;
  std::vector<Rng> episode_rngs_, action_rngs_;
  std::vector<uint8_t> needs_reset_;
  AlignedArray<float> observations_;
  AlignedArray<uint8_t> masks_;
  AlignedArray<float> rewards_;
  AlignedArray<uint8_t> terminated_, truncated_;
};

}  // namespace knightgym

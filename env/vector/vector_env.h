// VectorEnv<Game>: N environments of one game, stepped together by a persistent thread
// pool into preallocated contiguous buffers, with automatic reset.
//
// Buffers (row i belongs to environment i; valid until the next step or reset):
//   observations   float32 [N, C, H, W]  from the side of the player to move; a finished
//                                        episode is observed by the player who ended it
//   masks          uint8   [N, A]        1 = legal; all zero for a finished episode
//   rewards        float32 [N, P]        the returns on the step that ends an episode, else 0
//   terminated     uint8   [N]           the episode ended by the rules on this step
//   truncated      uint8   [N]           the episode ended by the length cap on this step
//   current_player int32   [N]           player to move, -1 when the episode has ended
//
// Auto-reset, next-step semantics (as Gymnasium's vector envs and EnvPool): the step that
// ends an episode returns its final observation; the next step ignores that environment's
// action, starts a new episode and returns its first observation with zero rewards and
// both flags clear.
//
// Determinism: environment i draws its episodes from stream derive_seed(seed, i) and its
// sampled actions from a second stream, and nothing is shared between environments; so
// trajectories depend on the seed and the actions, never on the thread count or on which
// thread steps which environment.
// Nothing is allocated per step.
#pragma once

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/core/game.h"
#include "env/core/sample.h"
#include "env/vector/aligned_array.h"
#include "env/vector/check_actions.h"
#include "env/vector/thread_pool.h"
#include "env/vector/vector_env_options.h"

namespace knightgym {

template <Game G>
class VectorEnv {
 public:
  using State = typename G::State;

  VectorEnv(const G& game, const VectorEnvOptions& options)
      : game_(game),
        info_(game.info()),
        num_envs_(checked_num_envs(options.num_envs)),
        pool_(std::min(options.num_threads, num_envs_)),
        states_(num_envs_),
        episode_rngs_(num_envs_),
        action_rngs_(num_envs_),
        needs_reset_(num_envs_),
        observations_(static_cast<size_t>(num_envs_) * info_.observation_shape.size()),
        masks_(static_cast<size_t>(num_envs_) * info_.num_actions),
        rewards_(static_cast<size_t>(num_envs_) * info_.num_players),
        terminated_(num_envs_),
        truncated_(num_envs_),
        current_player_(num_envs_) {
    check_playable(game);
    reset(options.seed);
  }

  const G& game() const { return game_; }
  const GameInfo& info() const { return info_; }
  int num_envs() const { return num_envs_; }
  int num_threads() const { return pool_.size(); }
  const State& state(int i) const { return states_[i]; }

  // Starts a new episode in every environment. With a seed, every random stream is
  // derived afresh from it; without one, the streams continue.
  void reset(std::optional<uint64_t> seed = std::nullopt) {
    if (seed) {
      for (int i = 0; i < num_envs_; ++i) {
        episode_rngs_[i].reseed(derive_seed(*seed, 2 * static_cast<uint64_t>(i)));
        action_rngs_[i].reseed(derive_seed(*seed, 2 * static_cast<uint64_t>(i) + 1));
      }
    }
    for_each_env([this](int i) { start_episode(i); });
  }

  // Applies actions[i] to environment i. Throws std::invalid_argument naming the first
  // environment whose action is out of range or illegal; then nothing has changed.
  void step(const Action* actions) {
    check_actions(game_, states_.data(), masks_.data(), needs_reset_.data(), num_envs_, actions);
    for_each_env([this, actions](int i) {
      if (needs_reset_[i]) {
        start_episode(i);
        return;
      }
      State& s = states_[i];
      const int mover = game_.current_player(s);
      game_.apply(s, actions[i]);
      const bool over = game_.terminal(s);
      needs_reset_[i] = over;
      terminated_[i] = over && !game_.truncated(s);
      truncated_[i] = game_.truncated(s);
      float* rewards = &rewards_[static_cast<size_t>(i) * info_.num_players];
      if (over)
        game_.returns(s, rewards);
      else
        std::fill_n(rewards, info_.num_players, 0.0f);
      write_outputs(i, over ? mover : game_.current_player(s));
    });
  }

  // A uniformly random legal action for every environment (the action space's sampler),
  // from each environment's own action stream; 0 where the next step resets.
  void sample_actions(Action* out) {
    for_each_env([this, out](int i) {
      out[i] = needs_reset_[i] ? 0 : sample_legal_action(game_, states_[i], action_rngs_[i]);
    });
  }

  const float* observations() const { return observations_.data(); }
  const uint8_t* masks() const { return masks_.data(); }
  const float* rewards() const { return rewards_.data(); }
  const uint8_t* terminated() const { return terminated_.data(); }
  const uint8_t* truncated() const { return truncated_.data(); }
  const int32_t* current_player() const { return current_player_.data(); }

 private:
  static int checked_num_envs(int num_envs) {
    if (num_envs < 1)
      throw std::invalid_argument("num_envs must be at least 1, got " + std::to_string(num_envs));
    return num_envs;
  }

  // Runs f(i) for every environment, in blocks spread over the pool.
  template <class F>
  void for_each_env(F&& f) {
    pool_.parallel_for(num_envs_, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) f(i);
    });
  }

  // An episode that is over before its first decision (a Knightmate FEN that is mate)
  // would reset forever: refused here, where the error can still reach the caller.
  static void check_playable(const G& game) {
    State probe;
    Rng rng(0);
    game.init(probe, rng);
    if (game.terminal(probe))
      throw std::invalid_argument(std::string(G::kName) +
                                  ": the game is over in its initial state, so a vector env "
                                  "cannot play it");
  }

  void start_episode(int i) {
    Rng rng(episode_rngs_[i].next());
    game_.init(states_[i], rng);
    needs_reset_[i] = 0;
    terminated_[i] = 0;
    truncated_[i] = 0;
    std::fill_n(&rewards_[static_cast<size_t>(i) * info_.num_players], info_.num_players, 0.0f);
    write_outputs(i, game_.current_player(states_[i]));
  }

  void write_outputs(int i, int observer) {
    const State& s = states_[i];
    game_.observe(s, observer,
                  &observations_[static_cast<size_t>(i) * info_.observation_shape.size()]);
    game_.legal_mask(s, &masks_[static_cast<size_t>(i) * info_.num_actions]);
    current_player_[i] = game_.current_player(s);
  }

  const G game_;
  const GameInfo info_;
  const int num_envs_;
  ThreadPool pool_;
  std::vector<State> states_;
  std::vector<Rng> episode_rngs_, action_rngs_;
  std::vector<uint8_t> needs_reset_;
  AlignedArray<float> observations_;
  AlignedArray<uint8_t> masks_;
  AlignedArray<float> rewards_;
  AlignedArray<uint8_t> terminated_, truncated_;
  AlignedArray<int32_t> current_player_;
};

}  // namespace knightgym

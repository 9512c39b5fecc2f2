// VectorEnv<Game>: N environments of one game, stepped together by a persistent thread
// pool, every seat played by the caller. The states, streams and buffers are the
// EnvBatch's (env/vector/env_batch.h); here the rewards hold every player's return and
// one more buffer says who moves:
//   current_player int32 [N]   player to move, kTerminalPlayer (-4) when the episode has ended
// Observations are from the side of the player to move; a finished episode is observed
// by the player who ended it.
//
// Auto-reset (env/vector/vector_env_options.h): next-step by default, as Gymnasium's
// vector envs and EnvPool; same-step and disabled on request. Buffers are valid until
// the next step or reset; nothing is allocated per step.
#pragma once

#include <algorithm>
#include <optional>

#include "env/core/game.h"
#include "env/vector/aligned_array.h"
#include "env/vector/env_batch.h"
#include "env/vector/thread_pool.h"
#include "env/vector/vector_env_options.h"

namespace knightgym {

template <Game G>
class VectorEnv {
 public:
  using State = typename G::State;

  VectorEnv(const G& game, const VectorEnvOptions& options)
      : batch_(game, checked(options), EnvBatch<G>::Rewards::kEveryPlayer),
        pool_(options.num_threads),
        current_player_(batch_.num_envs()) {
    for_each_env([this](int i) { start_episode(i); });
  }

  const G& game() const { return batch_.game(); }
  const GameInfo& info() const { return batch_.info(); }
  int num_envs() const { return batch_.num_envs(); }
  int num_threads() const { return pool_.size(); }
  uint64_t seed() const { return batch_.seed(); }
  Autoreset autoreset() const { return batch_.autoreset(); }
  FinishedMask finished_mask() const { return batch_.finished_mask(); }
  const State& state(int i) const { return batch_.state(i); }
  const State& checked_state(int i) const { return batch_.checked_state(i); }

  // Starts a new episode in the chosen environments (chosen[i] != 0; nullptr: all); the
  // others are left as they are. With a seed, the chosen environments' streams are
  // derived afresh from it; without one, they continue, except that the first reset after
  // construction keeps the first episodes (EnvBatch::prepare_reset).
  void reset(std::optional<uint64_t> seed = std::nullopt, const uint8_t* chosen = nullptr) {
    if (!batch_.prepare_reset(seed, chosen)) return;
    for_each_env([this, chosen](int i) {
      if (!chosen || chosen[i]) start_episode(i);
    });
  }

  // Applies actions[i] to environment i. Throws std::invalid_argument naming the first
  // environment whose action is out of range or illegal (or that is over, with auto-reset
  // disabled); then nothing has changed.
  void step(const Action* actions) {
    batch_.check_step(actions);
    for_each_env([this, actions](int i) {
      State& s = batch_.state(i);
      const int mover = game().current_player(s);
      int observer;
      if (batch_.begin_step(i)) {
        game().apply(s, actions[i]);
        // A finished episode is observed by the player who ended it.
        observer = game().terminal(s) ? mover : game().current_player(s);
      } else {
        observer = game().current_player(s);  // a new episode (next-step auto-reset)
      }
      batch_.write_outputs(i, observer);
      if (batch_.restart_if_over(i)) batch_.write_observation(i, game().current_player(s));
      current_player_[i] = game().current_player(s);
    });
  }

  // A uniformly random legal action for every environment (the action space's sampler),
  // from each environment's own action stream; 0 where the next step resets.
  void sample_actions(Action* out) {
    for_each_env([this, out](int i) { out[i] = batch_.sample_action(i); });
  }

  // The environments as values, and set to them (env/vector/env_snapshot.h).
  EnvSnapshot snapshot() const { return batch_.snapshot(); }
  void restore(const EnvSnapshot& snapshot) {
    batch_.restore(snapshot);
    for (int i = 0; i < num_envs(); ++i) current_player_[i] = game().current_player(state(i));
  }

  const float* observations() const { return batch_.observations(); }
  const uint8_t* masks() const { return batch_.masks(); }
  const float* rewards() const { return batch_.rewards(); }
  const uint8_t* terminated() const { return batch_.terminated(); }
  const uint8_t* truncated() const { return batch_.truncated(); }
  const uint8_t* needs_reset() const { return batch_.needs_reset(); }
  const float* final_observations() const { return batch_.final_observations(); }
  const uint8_t* final_masks() const { return batch_.final_masks(); }
  const uint8_t* has_final() const { return batch_.has_final(); }
  const int32_t* current_player() const { return current_player_.data(); }

 private:
  // The options, num_threads checked before a buffer is allocated (num_envs is the
  // batch's to check).
  static const VectorEnvOptions& checked(const VectorEnvOptions& options) {
    if (options.num_envs >= 1) checked_num_threads(options.num_threads, options.num_envs);
    return options;
  }

  // Runs f(i) for every environment, in blocks spread over the pool.
  template <class F>
  void for_each_env(F&& f) {
    pool_.parallel_for(num_envs(), [&](int begin, int end) {
      for (int i = begin; i < end; ++i) f(i);
    });
  }

  void start_episode(int i) {
    batch_.start_episode(i);
    current_player_[i] = game().current_player(batch_.state(i));
    batch_.write_outputs(i, current_player_[i]);
  }

  EnvBatch<G> batch_;
  ThreadPool pool_;
  AlignedArray<int32_t> current_player_;
};

}  // namespace knightgym

// VectorEnv<Game>: N environments of one game, stepped together by a persistent thread
// pool, every seat played by the caller. The states, streams and buffers are the
// EnvBatch's (env/vector/env_batch.h); here the rewards hold every player's return and
// one more buffer says who moves:
//   current_player int32 [N]   player to move, -1 when the episode has ended
// Observations are from the side of the player to move; a finished episode is observed
// by the player who ended it.
//
// Auto-reset, next-step semantics (as Gymnasium's vector envs and EnvPool): the step that
// ends an episode returns its final observation; the next step ignores that environment's
// action, starts a new episode and returns its first observation with zero rewards and
// both flags clear. Buffers are valid until the next step or reset; nothing is allocated
// per step.
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
      : batch_(game, options.num_envs, EnvBatch<G>::Rewards::kEveryPlayer),
        pool_(std::min(options.num_threads, batch_.num_envs())),
        current_player_(batch_.num_envs()) {
    reset(options.seed);
  }

  const G& game() const { return batch_.game(); }
  const GameInfo& info() const { return batch_.info(); }
  int num_envs() const { return batch_.num_envs(); }
  int num_threads() const { return pool_.size(); }
  const State& state(int i) const { return batch_.state(i); }

  // Starts a new episode in every environment. With a seed, every random stream is
  // derived afresh from it; without one, the streams continue.
  void reset(std::optional<uint64_t> seed = std::nullopt) {
    if (seed) batch_.reseed(*seed);
    for_each_env([this](int i) { start_episode(i); });
  }

  // Applies actions[i] to environment i. Throws std::invalid_argument naming the first
  // environment whose action is out of range or illegal; then nothing has changed.
  void step(const Action* actions) {
    batch_.check(actions);
    for_each_env([this, actions](int i) {
      if (batch_.needs_reset(i)) {
        start_episode(i);
        return;
      }
      State& s = batch_.state(i);
      const int mover = game().current_player(s);
      game().apply(s, actions[i]);
      const int next = game().current_player(s);
      batch_.write_outputs(i, next == kTerminalPlayer ? mover : next);
      current_player_[i] = next;
    });
  }

  // A uniformly random legal action for every environment (the action space's sampler),
  // from each environment's own action stream; 0 where the next step resets.
  void sample_actions(Action* out) {
    for_each_env([this, out](int i) { out[i] = batch_.sample_action(i); });
  }

  const float* observations() const { return batch_.observations(); }
  const uint8_t* masks() const { return batch_.masks(); }
  const float* rewards() const { return batch_.rewards(); }
  const uint8_t* terminated() const { return batch_.terminated(); }
  const uint8_t* truncated() const { return batch_.truncated(); }
  const int32_t* current_player() const { return current_player_.data(); }

 private:
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

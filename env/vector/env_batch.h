// EnvBatch<G>: what every batch of environments of one game holds, shared by VectorEnv
// (every seat, env/vector/vector_env.h) and OpponentEnv (one learner seat against an
// agent, agents/opponent_env.h): the states, each environment's two random streams, the
// auto-reset flags (env/vector/vector_env_options.h has the modes), and the contiguous
// output buffers (row i belongs to environment i):
//   observations        float32 [N, C, H, W]  from the side the owner names
//   masks               uint8   [N, A]        1 = legal; for a finished episode all ones
//                                             or all zeros (FinishedMask)
//   rewards             float32 [N, W]        on the step that ends an episode, else 0:
//                                             every player's return (W = players) or the
//                                             observer's (W = 1)
//   terminated          uint8   [N]           the episode ended by the rules on this step
//   truncated           uint8   [N]           the episode ended by the length cap on this step
//   needs_reset         uint8   [N]           the episode has ended and no new one has
//                                             started: the next step ignores the action
//                                             (next-step) or refuses one (disabled)
// and with same-step auto-reset, for the environments whose episode ended on this step
// and started anew (has_final):
//   final_observations  float32 [N, C, H, W]  the ended episode's last observation
//   final_masks         uint8   [N, A]        and its mask
//   has_final           uint8   [N]
//
// A step goes, per environment: begin_step (may the action be applied?), the moves,
// write_outputs, then restart_if_over and, where it restarted, write_observation.
//
// Determinism: environment i draws its episodes from derive_seed(seed, 2i) and its
// sampled actions from derive_seed(seed, 2i + 1), and nothing is shared between
// environments, so results never depend on which thread steps which environment.
// Nothing is allocated after construction, except by snapshot and restore (a copy of the
// whole batch as values: env/vector/env_snapshot.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "env/core/game.h"
#include "env/core/sample.h"
#include "env/vector/aligned_array.h"
#include "env/vector/check_actions.h"
#include "env/vector/env_snapshot.h"
#include "env/vector/vector_env_options.h"

namespace knightgym {

template <Game G>
class EnvBatch {
 public:
  using State = typename G::State;

  // Every player's return per environment (the vector env), or the observer's only.
  enum class Rewards { kEveryPlayer, kObserver };

  // The environments' streams are derived from options.seed (or a fresh seed); the owner
  // starts the first episodes (start_episode, write_outputs).
  EnvBatch(const G& game, const VectorEnvOptions& options, Rewards rewards)
      : game_(game),
        info_(game.info()),
        num_envs_(checked_num_envs(options.num_envs)),
        reward_width_(rewards == Rewards::kEveryPlayer ? info_.num_players : 1),
        autoreset_(options.autoreset),
        finished_mask_(options.finished_mask),
        states_(num_envs_),
        episode_rngs_(num_envs_),
        action_rngs_(num_envs_),
        observations_(rows(info_.observation_shape.size())),
        masks_(rows(info_.num_actions)),
        rewards_(rows(reward_width_)),
        terminated_(rows(1)),
        truncated_(rows(1)),
        needs_reset_(rows(1)),
        final_observations_(same_step() ? rows(info_.observation_shape.size()) : 0),
        final_masks_(same_step() ? rows(info_.num_actions) : 0),
        has_final_(rows(1)) {
    check_playable(game);
    seed_ = options.seed ? *options.seed : fresh_seed();
    for (int i = 0; i < num_envs_; ++i) reseed(i);
  }

  const G& game() const { return game_; }
  const GameInfo& info() const { return info_; }
  int num_envs() const { return num_envs_; }
  Autoreset autoreset() const { return autoreset_; }
  FinishedMask finished_mask() const { return finished_mask_; }
  uint64_t seed() const { return seed_; }  // the seed the streams were last derived from
  State& state(int i) { return states_[i]; }
  const State& state(int i) const { return states_[i]; }
  // Environment i's state for a caller outside; throws std::invalid_argument for a bad i.
  const State& checked_state(int i) const {
    if (i < 0 || i >= num_envs_)
      throw std::invalid_argument("env index " + std::to_string(i) + " is out of range [0, " +
                                  std::to_string(num_envs_) + ")");
    return states_[i];
  }

  // Called by a reset of the chosen environments (nullptr: all) before it starts their
  // episodes; says whether it should. With a seed, their streams are derived afresh from
  // it (environment i's as a reset of all would derive them). The first reset after
  // construction without a seed keeps the episodes the construction started, so that
  // make-then-reset begins every stream with its first episode, as in Gymnasium.
  bool prepare_reset(std::optional<uint64_t> seed, const uint8_t* chosen) {
    const bool fresh = std::exchange(fresh_, false);
    if (seed) {
      seed_ = *seed;
      for (int i = 0; i < num_envs_; ++i)
        if (!chosen || chosen[i]) reseed(i);
      return true;
    }
    return !fresh;
  }

  // The first thing a step does: throws std::invalid_argument naming the first
  // environment whose action is out of range or illegal, or that has ended with
  // auto-reset disabled, skipping those whose action the step ignores; then nothing has
  // changed.
  void check_step(const Action* actions) {
    if (autoreset_ == Autoreset::kDisabled) {
      for (int i = 0; i < num_envs_; ++i)
        if (needs_reset_[i])
          throw std::invalid_argument("env " + std::to_string(i) +
                                      ": its episode is over and auto-reset is disabled; reset "
                                      "it first (a reset with a mask of the envs to reset)");
    }
    check_actions(game_, states_.data(), masks_.data(), needs_reset_.data(), num_envs_, actions);
    fresh_ = false;
  }

  // The start of a step in environment i: whether its action is applied. Not where the
  // episode has ended: with next-step auto-reset a new one starts here; with same-step
  // (only when an opponent ended a new episode before the learner's first decision)
  // write_outputs reports that end on this step and restart_if_over starts the next.
  bool begin_step(int i) {
    has_final_[i] = 0;
    if (!needs_reset_[i]) return true;
    if (autoreset_ == Autoreset::kNextStep) start_episode(i);
    return false;
  }

  // A new episode in environment i, from its episode stream; write_outputs follows.
  void start_episode(int i) {
    Rng rng(episode_rngs_[i].next());
    game_.init(states_[i], rng);
    has_final_[i] = 0;
  }

  // A uniformly random legal action for environment i from its action stream; 0 where
  // the episode has ended.
  Action sample_action(int i) {
    return needs_reset_[i] ? 0 : sample_legal_action(game_, states_[i], action_rngs_[i]);
  }

  // Environment i's outputs from its state, observed by `observer`: the flags, the
  // rewards (the returns once the episode is over, else zero), the observation and mask.
  void write_outputs(int i, int observer) {
    const State& s = states_[i];
    const bool over = game_.terminal(s);
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
    write_observation(i, observer);
  }

  // Same-step auto-reset: if environment i's episode is over, keeps its observation and
  // mask as the final ones, marks it (has_final) and starts a new episode, leaving the
  // rewards and flags of the one that ended. Returns whether it did; write_observation
  // for the new episode follows.
  bool restart_if_over(int i) {
    if (autoreset_ != Autoreset::kSameStep || !needs_reset_[i]) return false;
    const size_t obs = info_.observation_shape.size();
    const size_t actions = info_.num_actions;
    std::memcpy(&final_observations_[i * obs], &observations_[i * obs], obs * sizeof(float));
    std::memcpy(&final_masks_[i * actions], &masks_[i * actions], actions);
    start_episode(i);
    has_final_[i] = 1;
    return true;
  }

  // Environment i's observation by `observer` and its mask, and whether it needs a reset.
  void write_observation(int i, int observer) {
    game_.observe(states_[i], observer,
                  &observations_[static_cast<size_t>(i) * info_.observation_shape.size()]);
    write_mask(i);
  }

  // Environment i's mask, and whether it needs a reset, from its state.
  void write_mask(int i) {
    const State& s = states_[i];
    const bool over = game_.terminal(s);
    needs_reset_[i] = over;
    uint8_t* mask = &masks_[static_cast<size_t>(i) * info_.num_actions];
    if (over && finished_mask_ == FinishedMask::kAllOnes)
      std::fill_n(mask, info_.num_actions, uint8_t{1});
    else
      game_.legal_mask(s, mask);
  }

  // The batch as values: states, streams and output buffers (env/vector/env_snapshot.h).
  EnvSnapshot snapshot() const {
    EnvSnapshot out;
    out.seed = seed_;
    out.fresh = fresh_;
    out.states.reserve(num_envs_);
    for (const State& s : states_) out.states.push_back(game_.serialize(s));
    out.streams.reserve(8 * static_cast<size_t>(num_envs_));
    for (int i = 0; i < num_envs_; ++i)
      for (const Rng* rng : {&episode_rngs_[i], &action_rngs_[i]})
        for (const uint64_t word : rng->words()) out.streams.push_back(word);
    out.observations.assign(observations_.begin(), observations_.end());
    out.rewards.assign(rewards_.begin(), rewards_.end());
    out.terminated.assign(terminated_.begin(), terminated_.end());
    out.truncated.assign(truncated_.begin(), truncated_.end());
    out.has_final.assign(has_final_.begin(), has_final_.end());
    out.final_observations.assign(final_observations_.begin(), final_observations_.end());
    out.final_masks.assign(final_masks_.begin(), final_masks_.end());
    return out;
  }

  // Sets the batch to a snapshot of a batch of the same game and options. Throws
  // std::invalid_argument naming the first thing that does not fit (a size, a state the
  // game cannot read, a stream with no position, a flag that is not 0 or 1); then
  // nothing has changed.
  void restore(const EnvSnapshot& from) {
    const size_t n = static_cast<size_t>(num_envs_);
    check_size("states", from.states.size(), n);
    check_size("streams", from.streams.size(), 8 * n);
    check_size("observations", from.observations.size(), observations_.size());
    check_size("rewards", from.rewards.size(), rewards_.size());
    check_size("final_observations", from.final_observations.size(), final_observations_.size());
    check_flags("final_masks", from.final_masks, final_masks_.size());
    check_flags("terminated", from.terminated, n);
    check_flags("truncated", from.truncated, n);
    check_flags("has_final", from.has_final, n);
    std::vector<State> states(n);
    for (size_t i = 0; i < n; ++i) {
      try {
        states[i] = game_.deserialize(from.states[i]);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("snapshot: state of env " + std::to_string(i) + ": " +
                                    e.what());
      }
    }
    std::vector<Rng> streams(2 * n);
    for (size_t k = 0; k < 2 * n; ++k) {
      std::array<uint64_t, 4> words;
      std::copy_n(&from.streams[4 * k], 4, words.begin());
      const std::optional<Rng> rng = Rng::from_words(words);
      if (!rng)
        throw std::invalid_argument("snapshot: the " + std::string(k % 2 ? "action" : "episode") +
                                    " stream of env " + std::to_string(k / 2) +
                                    " is all zeros, which is no stream's position");
      streams[k] = *rng;
    }
    seed_ = from.seed;
    fresh_ = from.fresh;
    states_ = std::move(states);
    for (size_t i = 0; i < n; ++i) {
      episode_rngs_[i] = streams[2 * i];
      action_rngs_[i] = streams[2 * i + 1];
    }
    std::ranges::copy(from.observations, observations_.data());
    std::ranges::copy(from.rewards, rewards_.data());
    std::ranges::copy(from.terminated, terminated_.data());
    std::ranges::copy(from.truncated, truncated_.data());
    std::ranges::copy(from.has_final, has_final_.data());
    std::ranges::copy(from.final_observations, final_observations_.data());
    std::ranges::copy(from.final_masks, final_masks_.data());
    for (int i = 0; i < num_envs_; ++i) write_mask(i);
  }

  const float* observations() const { return observations_.data(); }
  const uint8_t* masks() const { return masks_.data(); }
  const float* rewards() const { return rewards_.data(); }
  const uint8_t* terminated() const { return terminated_.data(); }
  const uint8_t* truncated() const { return truncated_.data(); }
  const uint8_t* needs_reset() const { return needs_reset_.data(); }
  const float* final_observations() const { return final_observations_.data(); }
  const uint8_t* final_masks() const { return final_masks_.data(); }
  const uint8_t* has_final() const { return has_final_.data(); }

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

  static void check_size(std::string_view name, size_t size, size_t expected) {
    if (size != expected)
      throw std::invalid_argument("snapshot: " + std::string(name) + " holds " +
                                  std::to_string(size) + " values where this env has " +
                                  std::to_string(expected));
  }
  static void check_flags(std::string_view name, const std::vector<uint8_t>& flags,
                          size_t expected) {
    check_size(name, flags.size(), expected);
    for (size_t k = 0; k < flags.size(); ++k)
      if (flags[k] > 1)
        throw std::invalid_argument("snapshot: " + std::string(name) + " must hold 0 or 1, got " +
                                    std::to_string(flags[k]) + " at " + std::to_string(k));
  }

  size_t rows(size_t width) const { return static_cast<size_t>(num_envs_) * width; }
  bool same_step() const { return autoreset_ == Autoreset::kSameStep; }

  void reseed(int i) {
    episode_rngs_[i].reseed(derive_seed(seed_, 2 * static_cast<uint64_t>(i)));
    action_rngs_[i].reseed(derive_seed(seed_, 2 * static_cast<uint64_t>(i) + 1));
  }

  const G game_;
  const GameInfo info_;
  const int num_envs_;
  const int reward_width_;
  const Autoreset autoreset_;
  const FinishedMask finished_mask_;
  uint64_t seed_ = 0;
  bool fresh_ = true;  // no step or reset since construction
  std::vector<State> states_;
  std::vector<Rng> episode_rngs_, action_rngs_;
  AlignedArray<float> observations_;
  AlignedArray<uint8_t> masks_;
  AlignedArray<float> rewards_;
  AlignedArray<uint8_t> terminated_, truncated_, needs_reset_;
  AlignedArray<float> final_observations_;
  AlignedArray<uint8_t> final_masks_, has_final_;
};

}  // namespace knightgym

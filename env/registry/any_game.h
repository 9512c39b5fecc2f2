// Type-erased faces of a game for the CLI and Python: one virtual call per single-state
// operation or per batch step, never per environment.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/core/extras.h"
#include "env/core/params.h"
#include "env/core/picture.h"
#include "env/core/training_defaults.h"
#include "env/core/types.h"
#include "env/core/uci_game.h"
#include "env/vector/env_snapshot.h"
#include "env/vector/vector_env_options.h"

namespace knightgym {

class AnyGame;

// One state with checked operations: bad input throws std::invalid_argument and
// changes nothing.
class AnyState {
 public:
  virtual ~AnyState() = default;
  virtual const AnyGame& game() const = 0;
  virtual std::unique_ptr<AnyState> clone() const = 0;

  virtual int current_player() const = 0;
  virtual std::vector<Action> legal_actions() const = 0;
  virtual void legal_mask(uint8_t* out) const = 0;  // num_actions bytes
  virtual void apply_action(Action action) = 0;     // throws if over, out of range or illegal
  virtual bool is_terminal() const = 0;
  virtual bool is_truncated() const = 0;
  virtual std::vector<float> returns() const = 0;
  virtual void observe(int player, float* out) const = 0;  // throws if player is out of range

  virtual std::string action_to_string(Action action) const = 0;
  virtual Action string_to_action(std::string_view text) const = 0;
  virtual std::string to_string() const = 0;
  virtual std::string serialize() const = 0;
  // Perft (env/core/perft.h): the leaves of the legal-action tree `depth` decisions deep.
  // Throws std::invalid_argument for depth < 0.
  virtual uint64_t perft(int depth) const = 0;
  // perft(depth - 1) below each legal action, with the action's text, sorted by text; the
  // counts add up to perft(depth). Throws std::invalid_argument for depth < 1.
  virtual std::vector<std::pair<std::string, uint64_t>> perft_divide(int depth) const = 0;
  // The FEN of this position alone, for a game a UCI engine plays (env/core/uci_game.h);
  // throws std::invalid_argument for a game without FENs.
  virtual std::string fen() const = 0;
  // The game's extra `name` (env/core/extras.h) of this state, as JSON text. Throws
  // std::invalid_argument for a name the game does not offer.
  virtual std::string extra(std::string_view name) const = 0;
  // What a drawing of the state shows (env/core/picture.h).
  virtual Picture picture() const = 0;
  // The text of the last action applied through this object (and its clones), "" if none:
  // a state made by new_initial_state, deserialize_state or an env batch has none.
  virtual const std::string& last_move() const = 0;
};

// A batch of environments of one game behind one virtual call per batch: the vector env
// (every seat, env/vector/vector_env.h) and the opponent env (one seat against an agent,
// agents/opponent_env.h) share this face, their core (env/vector/env_batch.h) and their
// Python binding.
class AnyEnvBatch {
 public:
  virtual ~AnyEnvBatch() = default;
  virtual const AnyGame& game() const = 0;
  virtual int num_envs() const = 0;
  virtual uint64_t seed() const = 0;  // the seed the streams were last derived from
  virtual Autoreset autoreset() const = 0;
  virtual FinishedMask finished_mask() const = 0;
  // Starts a new episode in the chosen environments (chosen[i] != 0, nullptr: all); a
  // seed re-derives their random streams (env/vector/env_batch.h: prepare_reset).
  virtual void reset(std::optional<uint64_t> seed, const uint8_t* chosen) = 0;
  // Throws std::invalid_argument naming the first environment whose action is out of
  // range or illegal; then nothing has changed.
  virtual void step(const Action* actions) = 0;
  // A uniformly random legal action per environment from its own stream.
  virtual void sample_actions(Action* out) = 0;
  virtual const float* observations() const = 0;
  virtual const uint8_t* masks() const = 0;
  virtual const float* rewards() const = 0;  // [N, reward_width()]
  virtual int reward_width() const = 0;      // every player's return, or one seat's (1)
  virtual const uint8_t* terminated() const = 0;
  virtual const uint8_t* truncated() const = 0;
  virtual const uint8_t* needs_reset() const = 0;
  // Same-step auto-reset only (else empty): the final observations and masks of the
  // episodes that ended on this step, where has_final is set.
  virtual const float* final_observations() const = 0;
  virtual const uint8_t* final_masks() const = 0;
  virtual const uint8_t* has_final() const = 0;
  // Environment i's current state, as a single state (a copy); throws for a bad i.
  virtual std::unique_ptr<AnyState> state(int i) const = 0;
  // The batch as values, and a batch of the same game and options set to them
  // (env/vector/env_snapshot.h; restore throws std::invalid_argument and changes nothing
  // when the snapshot does not fit).
  virtual EnvSnapshot snapshot() const = 0;
  virtual void restore(const EnvSnapshot& snapshot) = 0;
};

class AnyVectorEnv : public AnyEnvBatch {
 public:
  virtual int num_threads() const = 0;
  virtual const int32_t* current_player() const = 0;
};

// A game with its parameters.
class AnyGame : public std::enable_shared_from_this<AnyGame> {
 public:
  virtual ~AnyGame() = default;
  virtual std::string_view name() const = 0;
  virtual const std::string& spec() const = 0;  // canonical: every parameter spelled out
  virtual const std::vector<ParamInfo>& params() const = 0;
  virtual const GameInfo& info() const = 0;
  // Where training a network for this game starts (env/core/training_defaults.h).
  virtual TrainingDefaults training_defaults() const = 0;

  virtual std::unique_ptr<AnyState> new_initial_state(uint64_t seed) const = 0;
  virtual std::unique_ptr<AnyState> deserialize_state(std::string_view text) const = 0;
  // The extras its states offer (env/core/extras.h), none for most games.
  virtual std::span<const ExtraInfo> extras() const = 0;
  // The UCI capability (env/core/uci_game.h): variant, start FEN, perft positions; empty
  // for a game no UCI engine plays.
  virtual std::optional<UciInfo> uci() const = 0;
  // A state from a FEN at the start of an episode. Throws std::invalid_argument naming
  // what is wrong with it, or that the game has no FEN (uci() is empty).
  virtual std::unique_ptr<AnyState> state_from_fen(std::string_view fen) const = 0;
  virtual std::unique_ptr<AnyVectorEnv> make_vector_env(const VectorEnvOptions& options) const = 0;
};

}  // namespace knightgym

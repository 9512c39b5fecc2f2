// The game contract. A game is a value type built from its parameters; its const member
// functions act on a trivially copyable State, so cloning a state is a copy, searches can
// hold thousands, and a vector env keeps its states in one array. Parameters and tables
// derived from them live once in the game object, not in every state.
//
//   kName, kSummary          registry name and one line for `knightgym list`
//   kMaxActions              most legal actions one state can have (fixed-size arrays)
//   read_params(reader)      declares, parses and documents the parameters
//   info()                   players, actions, observation shape, longest episode
//   init(state, rng)         a new episode; rng draws the game's own randomness
//   current_player(s)        the player to decide, kTerminalPlayer once over
//   legal_actions(s, out)    writes the legal actions, returns their count
//   legal_mask(s, mask)      num_actions bytes, 1 = legal; all zero once over
//   apply(s, action)         precondition: the action is legal; checked in debug builds by
//                            calling check_apply(*this, s, action) first (env/core/check.h)
//   terminal(s)              over, by the rules or by the length cap
//   truncated(s)             over by the length cap
//                            (these three come from EndOfGame<G>, env/core/end.h)
//   returns(s, out)          num_players values summing to zero; all zero until over
//   observe(s, player, out)  observation_shape floats from player's side
//   action_to_string, string_to_action (throws if unknown), render, serialize,
//   deserialize (throws, naming the problem, if malformed)
//   optional capabilities, each detected by a concept with a generic fallback:
//   sample_action (env/core/sample.h), heuristic (env/core/heuristic.h), symmetries
//   (env/core/symmetry.h), training_defaults (env/core/training_defaults.h),
//   broken_invariant (env/core/check.h: cheap state invariants for the debug checks)
//
// One vocabulary: every game names its length cap `max_turns`, the turns after which
// the game is truncated, where a turn is one player's move however many decisions it
// takes (Knight Fight's erase and Double-Duel's steps belong to the turn they complete);
// each game's update after a move (who decides next, whether and how the game ended)
// is its private `settle`; how the game ended is its State's `End end` (env/core/end.h),
// which `terminal` and `truncated` read.
//
// Cross-game rules live outside the games: callers apply only legal actions to states
// that are not over (the adapters and the vector env check this).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "env/core/end.h"
#include "env/core/params.h"
#include "env/core/rng.h"
#include "env/core/types.h"

namespace knightgym {

template <class G>
concept Game = std::is_trivially_copyable_v<typename G::State> &&
    requires(const G game, typename G::State& state, const typename G::State& cstate,
             ParamReader& reader, Rng& rng, Action action, Action* actions, uint8_t* mask,
             float* values, int player, std::string_view text) {
  { G::kName } -> std::convertible_to<std::string_view>;
  { G::kSummary } -> std::convertible_to<std::string_view>;
  { G::kMaxActions } -> std::convertible_to<int>;
  { G::read_params(reader) } -> std::same_as<typename G::Params>;
  { game.info() } -> std::same_as<GameInfo>;
  { game.init(state, rng) } -> std::same_as<void>;
  { game.current_player(cstate) } -> std::same_as<int>;
  { game.legal_actions(cstate, actions) } -> std::same_as<int>;
  { game.legal_mask(cstate, mask) } -> std::same_as<void>;
  { game.apply(state, action) } -> std::same_as<void>;
  { game.terminal(cstate) } -> std::same_as<bool>;
  { game.truncated(cstate) } -> std::same_as<bool>;
  { game.returns(cstate, values) } -> std::same_as<void>;
  { game.observe(cstate, player, values) } -> std::same_as<void>;
  { game.action_to_string(cstate, action) } -> std::same_as<std::string>;
  { game.string_to_action(cstate, text) } -> std::same_as<Action>;
  { game.render(cstate) } -> std::same_as<std::string>;
  { game.serialize(cstate) } -> std::same_as<std::string>;
  { game.deserialize(text) } -> std::same_as<typename G::State>;
};

}  // namespace knightgym

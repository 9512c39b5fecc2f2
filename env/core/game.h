// The game contract. A game is a value type built from its parameters; its const member
// functions act on a trivially copyable State, so cloning a state is a copy, searches can
// hold thousands, and a vector env keeps its states in one array. Parameters and tables
// derived from them live once in the game object, not in every state.
//
// Cross-game rules live outside the games: callers only apply legal actions to
// non-terminal states (the adapters and the vector env check this), and a terminal
// state has an all-zero mask and current_player() == kTerminalPlayer.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "env/core/params.h"
#include "env/core/rng.h"
#include "env/core/types.h"

namespace knightgym {

template <class G>
concept Game =
    std::is_trivially_copyable_v<typename G::State> &&
    requires(const G game, typename G::State& state, const typename G::State& cstate,
             ParamReader& reader, Rng& rng, Action action, Action* actions, uint8_t* mask,
             float* values, int player, std::string_view text) {
      { G::kName } -> std::convertible_to<std::string_view>;
      { G::kMaxActions } -> std::convertible_to<int>;  // bound for fixed action arrays
      { G::read_params(reader) } -> std::same_as<typename G::Params>;
      { game.info() } -> std::same_as<GameInfo>;
      { game.init(state, rng) };
      { game.current_player(cstate) } -> std::same_as<int>;
      { game.legal_actions(cstate, actions) } -> std::same_as<int>;  // returns the count
      { game.legal_mask(cstate, mask) };                              // num_actions bytes
      { game.apply(state, action) };                                  // precondition: legal
      { game.terminal(cstate) } -> std::same_as<bool>;   // ended, naturally or by the cap
      { game.truncated(cstate) } -> std::same_as<bool>;  // ended by the length cap
      { game.returns(cstate, values) };                  // num_players values
      { game.observe(cstate, player, values) };          // observation_shape values
      { game.action_to_string(cstate, action) } -> std::same_as<std::string>;
      { game.string_to_action(cstate, text) } -> std::same_as<Action>;  // throws if unknown
      { game.render(cstate) } -> std::same_as<std::string>;
      { game.serialize(cstate) } -> std::same_as<std::string>;
      { game.deserialize(text) } -> std::same_as<typename G::State>;  // throws if malformed
    };

}  // namespace knightgym

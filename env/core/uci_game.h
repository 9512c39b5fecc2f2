// Optional capability: a game a UCI engine can play, a chess variant such as Knightmate.
// The game names the engine's variant (the UCI_Variant option) and writes a state for
// the engine two ways: fen(s), the FEN of the current position alone, and
// uci_position(s), the arguments of UCI's `position` command ("fen FEN moves M1 M2 ...",
// no "moves" part when there are none), an earlier position and the moves from it to the
// current one, so that the engine also sees the positions a repetition can reach. Its
// action strings are the engine's UCI moves. The uci agent (agents/uci_agent.h) plays
// such games through an external engine and refuses others.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace knightgym {

template <class G>
concept UciGame = requires(const G game, const typename G::State& s) {
  { G::kUciVariant } -> std::convertible_to<std::string_view>;
  { game.fen(s) } -> std::same_as<std::string>;
  { game.uci_position(s) } -> std::same_as<std::string>;
};

}  // namespace knightgym

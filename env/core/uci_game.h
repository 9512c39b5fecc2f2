// Optional capability: a game a UCI engine can play, a chess variant such as Knightmate.
// The game names the engine's variant (the UCI_Variant option) and writes a state as the
// FEN the engine reads; its action strings are the engine's UCI moves. The uci agent
// (agents/uci_agent.h) plays such games through an external engine and refuses others.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace knightgym {

template <class G>
concept UciGame = requires(const G game, const typename G::State& s) {
  { G::kUciVariant } -> std::convertible_to<std::string_view>;
  { game.fen(s) } -> std::same_as<std::string>;
};

}  // namespace knightgym

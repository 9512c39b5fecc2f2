// Optional capability: a game a UCI engine can play, a chess variant. The game names the
// engine's variant (the UCI_Variant option) and its start position as a FEN, reads a FEN
// into a state at the start of an episode (state_from_fen: throws std::invalid_argument
// naming what is wrong), and writes a state for the engine two ways: fen(s), the FEN of
// the current position alone, and uci_position(s), the arguments of UCI's `position`
// command ("fen FEN moves M1 M2 ...", no "moves" part when there are none), an earlier
// position and the moves from it to the current one, so that the engine also sees the
// positions a repetition can reach. Its action strings are the engine's UCI moves. It
// names the positions (the start among them) on which perft-bench times its move
// generator against the engine's, each at a depth the engine counts in seconds.
//
// The uci agent (agents/uci_agent.h) plays such games through an external engine; the UCI
// engine (programs/uci) and the perft comparison with Fairy-Stockfish (programs/engines)
// find them through the registry (AnyGame::uci).
#pragma once

#include <concepts>
#include <span>
#include <string>
#include <string_view>

namespace knightgym {

struct UciPerftPosition {
  std::string_view name;
  std::string_view fen;
  int depth;
};

template <class G>
concept UciGame = requires(const G game, const typename G::State& s, std::string_view fen) {
  { G::kUciVariant } -> std::convertible_to<std::string_view>;
  { G::kUciStartFen } -> std::convertible_to<std::string_view>;
  {std::span<const UciPerftPosition>(G::kUciPerftPositions)};
  { game.state_from_fen(fen) } -> std::same_as<typename G::State>;
  { game.fen(s) } -> std::same_as<std::string>;
  { game.uci_position(s) } -> std::same_as<std::string>;
};

// What the registry tells of a UCI game without its types.
struct UciInfo {
  std::string_view variant;
  std::string_view start_fen;
  std::span<const UciPerftPosition> perft_positions;
};

}  // namespace knightgym

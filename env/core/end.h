// How a game stands, said the same way in every game: still running, over by its rules,
// or truncated by the max_turns cap. Every State holds one `End end`, so `terminal` and
// `truncated` read the same field in every game, once (EndOfGame); a game with several ways
// to end by its rules (Knightmate's checkmate or repetition, ...) names which one in a
// field of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include "env/core/types.h"

namespace knightgym {

enum class End : uint8_t { kRunning, kRules, kTruncated };

inline constexpr std::string_view kEndNames[] = {"running", "rules", "truncated"};

constexpr bool over(End end) { return end != End::kRunning; }

constexpr std::string_view end_name(End end) { return kEndNames[static_cast<int>(end)]; }

// The End named `name` (one of kEndNames), nothing if it names none.
constexpr std::optional<End> parse_end(std::string_view name) {
  for (size_t i = 0; i < std::size(kEndNames); ++i)
    if (kEndNames[i] == name) return End(i);
  return std::nullopt;
}

// What every game says alike of its end, read from its State's `end`: a game G derives
// from EndOfGame<G> for terminal(s), truncated(s) and current_player(s), the player to
// decide while the game runs: G's `int mover(const State&) const` if it has one, else the
// State's `to_move`; kTerminalPlayer once over.
template <class G>
struct EndOfGame {
  template <class State>
  bool terminal(const State& s) const {
    return over(s.end);
  }
  template <class State>
  bool truncated(const State& s) const {
    return s.end == End::kTruncated;
  }
  template <class State>
  int current_player(const State& s) const {
    if (over(s.end)) return kTerminalPlayer;
    if constexpr (requires(const G& game) { game.mover(s); }) {
      return static_cast<const G&>(*this).mover(s);
    } else {
      return s.to_move;
    }
  }
};

}  // namespace knightgym

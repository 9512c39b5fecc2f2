// Optional capability: facts of a state beyond the contract every game shares (Knights
// Challenge's tallies, Tailten's score), each a named, documented function answering
// JSON text. A game offers `static std::span<const StateExtra<G>> extras()`; the
// registry lists them (AnyGame::extras, AnyState::extra) and the Python module makes
// each one knightgym.<game>.<name>(state), returning the JSON as Python values, so
// neither names a game.
#pragma once

#include <concepts>
#include <span>
#include <string>
#include <string_view>

namespace knightgym {

template <class G>
struct StateExtra {
  std::string_view name;
  std::string_view doc;
  std::string (*answer)(const G& game, const typename G::State& state);  // JSON text
};

template <class G>
concept HasExtras = requires {
  { G::extras() } -> std::same_as<std::span<const StateExtra<G>>>;
};

// What the registry tells of an extra without its types.
struct ExtraInfo {
  std::string_view name;
  std::string_view doc;
};

}  // namespace knightgym

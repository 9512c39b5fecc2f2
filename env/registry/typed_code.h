// The one way from a loaded game to a layer's typed code for it. A layer that runs
// templates over a game's typed rules (the agents, the batched arena, the teacher, the
// trainer, the benchmarks) declares an Entry: function pointers, and
// `template <Game G> static Entry of()`, which instantiates them for G.
// TypedCode<Entry>::of(game, what) gives the entry of any loaded game: the games of the
// list have theirs from the first use on, and a game registered at run time gets each by
// add<G>() (agents/game_registration.h and the layers above it: one call registers a game
// with everything its module holds). A game without the entry is refused by name, with
// what needed it.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "env/registry/game_adapter.h"
#include "env/registry/game_list.h"

namespace knightgym {

template <class Entry>
class TypedCode {
 public:
  static const Entry& of(const AnyGame& game, std::string_view what) {
    const Entry* entry = find(game);
    if (!entry)
      throw std::invalid_argument(game.spec() + ": no typed code for " + std::string(what) +
                                  " of this game in this program; a game registered at run time "
                                  "gets it from its layer's registration "
                                  "(agents/game_registration.h and those above it)");
    return *entry;
  }

  // The same, or nullptr: for a caller that can go on without the typed code.
  static const Entry* find(const AnyGame& game) {
    const auto& entries = table();
    const auto found = entries.find(game.name());
    return found == entries.end() ? nullptr : &found->second;
  }

  // Adds G's entry: for a game registered at run time, while its program or module loads,
  // before other threads use the games.
  template <Game G>
  static void add() {
    table().insert_or_assign(std::string(G::kName), Entry::template of<G>());
  }

 private:
  static std::map<std::string, Entry, std::less<>>& table() {
    static std::map<std::string, Entry, std::less<>> entries = [] {
      std::map<std::string, Entry, std::less<>> listed;
      Games::for_each(
          [&]<Game G>() { listed.emplace(std::string(G::kName), Entry::template of<G>()); });
      return listed;
    }();
    return entries;
  }
};

// The typed rules behind a game loaded from the registry, for code instantiated for G.
template <Game G>
const G& typed_rules(const AnyGame& game) {
  return dynamic_cast<const GameAdapter<G>&>(game).rules();
}

}  // namespace knightgym

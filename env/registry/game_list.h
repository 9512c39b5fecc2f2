// The one list of games. Adding a game means adding its folder and its type here; the
// registry, the CLI's benchmarks and the tests all read this list.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "env/games/double_duel/double_duel.h"
#include "env/games/knight_fight/knight_fight.h"
#include "env/games/knightmate/knightmate.h"
#include "env/games/knights_challenge/knights_challenge.h"
#include "env/games/tailten/tailten.h"
#include "env/registry/game_adapter.h"
#include "env/registry/registry.h"

namespace knightgym {

template <Game... Gs>
struct GameList {
  static std::vector<GameEntry> entries() { return {game_entry<Gs>()...}; }

  // Calls f(rules) with the typed game behind `game`; false if it is not on the list (a
  // game registered at run time, such as the tests' Nim).
  template <class F>
  [[nodiscard]] static bool visit(const AnyGame& game, F&& f) {
    return (visit_one<Gs>(game, f) || ...);
  }

  // The same, for callers that cannot go on without the typed game: throws
  // std::invalid_argument naming the game and `what` needs it.
  template <class F>
  static void visit_listed(const AnyGame& game, std::string_view what, F&& f) {
    if (!visit(game, f))
      throw std::invalid_argument(game.spec() + ": " + std::string(what) +
                                  " needs a game of the list in env/registry/game_list.h");
  }

 private:
  template <Game G, class F>
  static bool visit_one(const AnyGame& game, F& f) {
    const auto* typed = dynamic_cast<const GameAdapter<G>*>(&game);
    if (typed) f(typed->rules());
    return typed != nullptr;
  }
};

using Games = GameList<KnightFight, Knightmate, DoubleDuel, KnightsChallenge, Tailten>;

}  // namespace knightgym

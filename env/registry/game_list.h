// The one list of games. Adding a game means adding its folder and its type here; the
// registry and every layer's typed code (typed_code.h) read this list.
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

  // Calls f.template operator()<G>() for each game G of the list, in order: what the
  // layers' typed code (typed_code.h) instantiates for every game.
  template <class F>
  static void for_each(F&& f) {
    (f.template operator()<Gs>(), ...);
  }
};

using Games = GameList<KnightFight, Knightmate, DoubleDuel, KnightsChallenge, Tailten>;

}  // namespace knightgym

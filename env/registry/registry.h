// The registry: game names and spec strings to games. The list itself is game_list.h,
// the one place a new game of this tree is added.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "env/registry/any_game.h"

namespace knightgym {

struct GameEntry {
  std::string_view name;
  std::string_view summary;
  std::shared_ptr<const AnyGame> (*load)(const Spec& spec);
  std::vector<ExtraInfo> extras;  // what its states offer beyond the contract
  std::optional<UciInfo> uci;     // set for a game a UCI engine plays
};

// The games of the list (game_list.h), then those registered at run time, in order.
const std::vector<GameEntry>& registered_games();

// Adds a game that no list names (one defined in the test tree, or a program's own) to the
// registry: load_game and every face built from the registry alone (the vector env,
// pictures, the Python module's Gymnasium and PettingZoo faces and knightgym.<name>) then
// know it; agents/game_registration.h adds its agents too. Throws std::invalid_argument if
// its name is taken. Call it while a program or module loads, before other threads read
// the registry.
void register_game(GameEntry entry);

// "knight_fight" or "knight_fight(double_erase=forced)". Throws std::invalid_argument for
// an unknown game (listing the known ones), an unknown parameter or a bad value.
std::shared_ptr<const AnyGame> load_game(std::string_view spec);
std::shared_ptr<const AnyGame> load_game(const Spec& spec);

}  // namespace knightgym

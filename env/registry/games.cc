#include <stdexcept>
#include <string>
#include <utility>

#include "env/registry/game_list.h"

namespace knightgym {
namespace {

std::vector<GameEntry>& games() {
  static std::vector<GameEntry> games = Games::entries();
  return games;
}

}  // namespace

const std::vector<GameEntry>& registered_games() { return games(); }

void register_game(GameEntry entry) {
  for (const GameEntry& registered : games())
    if (registered.name == entry.name)
      throw std::invalid_argument("a game named " + std::string(entry.name) +
                                  " is registered already");
  games().push_back(std::move(entry));
}

}  // namespace knightgym

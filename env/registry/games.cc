#include "env/registry/game_list.h"

namespace knightgym {

const std::vector<GameEntry>& registered_games() {
  static const std::vector<GameEntry> games = Games::entries();
  return games;
}

}  // namespace knightgym

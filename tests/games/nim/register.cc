// Registers Nim (nim.h) while the test-game Python module loads, with its agents
// (agents/game_registration.h): the one line a game outside the list needs.
#include "agents/game_registration.h"
#include "tests/games/nim/nim.h"

namespace knightgym {
namespace {

const bool registered = (register_game_with_agents<Nim>(), true);

}  // namespace
}  // namespace knightgym

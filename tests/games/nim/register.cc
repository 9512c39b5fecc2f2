// Registers Nim (nim.h) while the test-game Python module loads, with everything its core
// holds (training/game_registration.h): the one line a game outside the list needs.
#include "tests/games/nim/nim.h"
#include "training/game_registration.h"

namespace knightgym {
namespace {

const bool registered = (register_game_for_play<Nim>(), true);

}  // namespace
}  // namespace knightgym
